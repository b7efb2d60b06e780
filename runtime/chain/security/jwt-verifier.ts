import type { JWTVerifyOptions } from 'jose';
import type { JwtPins } from './options.js';
import { loadJose } from '../../../common/jose.js';

/** A verified token, with the scopes it grants when it says (`scope` or `scp` claim). */
export interface Granted {
  scopes?: readonly string[];
}

/** Resolves to the grant when the token verifies, else to why it does not. */
export type JwtVerifier = (token: string) => Promise<Granted | string>;

/** OAuth 2.0 scopes of a JWT payload: `scope` (RFC 8693, space-separated) or `scp` (a list or a string). */
export function scopesOf(payload: Record<string, unknown>): Granted {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === 'string') return { scopes: raw.split(' ').filter((s) => s !== '') };
  if (Array.isArray(raw)) return { scopes: raw.filter((s): s is string => typeof s === 'string') };
  return {};
}

const HMAC = ['HS256', 'HS384', 'HS512'];

/**
 * JWT verification of a scheme's `jwt` pins, by jose: it refuses `alg: none`, picks JWKS keys by
 * the token's `kid`/`alg` (so an HMAC token is never checked against a public key) and checks
 * `exp`/`nbf` with the tolerance given. jose is imported on the first token: servers that verify
 * none never load it.
 */
export function jwtVerifier(pins: JwtPins, now: () => number = Date.now): JwtVerifier {
  const options = (): JWTVerifyOptions => ({
    issuer: pins.issuer,
    audience: pins.audience,
    clockTolerance: pins.clockToleranceSeconds,
    requiredClaims: pins.requireExpiry ? ['exp'] : [],
    currentDate: new Date(now()),
  });
  const refused = (err: unknown): string => `token refused: ${err instanceof Error ? err.message : String(err)}`;
  if (pins.secret !== undefined) {
    const key = new TextEncoder().encode(pins.secret);
    return async (token) => {
      const { jwtVerify } = await loadJose();
      return jwtVerify(token, key, { ...options(), algorithms: HMAC }).then(({ payload }) => scopesOf(payload), refused);
    };
  }
  let keys: ReturnType<typeof import('jose').createLocalJWKSet> | undefined;
  return async (token) => {
    const { createLocalJWKSet, jwtVerify } = await loadJose();
    keys ??= createLocalJWKSet(pins.jwks ?? { keys: [] });
    return jwtVerify(token, keys, options()).then(({ payload }) => scopesOf(payload), refused);
  };
}

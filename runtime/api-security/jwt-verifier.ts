import { createLocalJWKSet, jwtVerify, type JWTVerifyOptions } from 'jose';
import type { JwtPins } from './options.js';

/** Resolves undefined when the token verifies, else why it does not. */
export type JwtVerifier = (token: string) => Promise<string | undefined>;

const HMAC = ['HS256', 'HS384', 'HS512'];

/**
 * JWT verification of a scheme's `jwt` pins, by jose: it refuses `alg: none`, picks JWKS keys by
 * the token's `kid`/`alg` (so an HMAC token is never checked against a public key) and checks
 * `exp`/`nbf` with the tolerance given.
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
    return (token) => jwtVerify(token, key, { ...options(), algorithms: HMAC }).then(() => undefined, refused);
  }
  const keys = createLocalJWKSet(pins.jwks ?? { keys: [] });
  return (token) => jwtVerify(token, keys, options()).then(() => undefined, refused);
}

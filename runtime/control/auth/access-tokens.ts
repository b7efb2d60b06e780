import { randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { ROLES, type AuthUser, type Role } from './types.js';
import { loadJose } from '../../../common/jose.js';
import { ACCESS_TOKEN_ISSUER as ISSUER } from '../../../common/admin-credentials.js';

export interface AccessClaims {
  username: string;
  role: Role;
  /** The account the token was issued to (a name deleted and created again is another account). */
  account: string;
  /** The login it descends from (see refresh-tokens.ts): logout and a refresh token reused revoke them all. Absent in tokens minted elsewhere with JWT_SECRET. */
  family?: string;
  jti: string;
  /** Seconds since the epoch. */
  exp: number;
}

export type VerifiedAccess = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' | 'revoked' | 'reused' };

/** Why a whole login's access tokens stopped working. */
export type FamilyEnd = 'revoked' | 'reused';

/**
 * HS256 access tokens, the `jti`s revoked by logout and the login families ended by logout or
 * by a refresh token reused (each kept until its tokens would expire anyway). jose is imported on
 * first use: a server without authentication never loads it.
 */
export class AccessTokens {
  private readonly revoked = new Map<string, number>();
  private readonly revokedFamilies = new Map<string, { exp: number; reason: FamilyEnd }>();

  constructor(
    private readonly key: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  private nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  async sign(user: AuthUser, account: string, family: string): Promise<string> {
    const { SignJWT } = await loadJose();
    const iat = this.nowSeconds();
    return new SignJWT({ role: user.role, acc: account, fam: family })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.username)
      .setIssuer(ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .setJti(randomUUID())
      .sign(this.key);
  }

  async verify(token: string): Promise<VerifiedAccess> {
    const { errors, jwtVerify } = await loadJose();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      }));
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
    const { sub, role, acc, fam, jti, exp } = payload as Required<JWTPayload>;
    if (!(ROLES as readonly unknown[]).includes(role) || typeof acc !== 'string' || (fam !== undefined && typeof fam !== 'string')) return { ok: false, reason: 'invalid' };
    if (this.revoked.has(jti)) return { ok: false, reason: 'revoked' };
    const ended = fam === undefined ? undefined : this.revokedFamilies.get(fam);
    if (ended !== undefined) return { ok: false, reason: ended.reason };
    return { ok: true, claims: { username: sub, role: role as Role, account: acc, family: fam, jti, exp } };
  }

  revoke(claims: AccessClaims): void {
    this.revoked.set(claims.jti, claims.exp);
    this.forgetExpired();
  }

  /** Every access token of the login family, until the newest of them would expire. */
  revokeFamily(family: string, reason: FamilyEnd): void {
    this.revokedFamilies.set(family, { exp: this.nowSeconds() + this.ttlSeconds, reason });
    this.forgetExpired();
  }

  private forgetExpired(): void {
    const now = this.nowSeconds();
    for (const [key, exp] of this.revoked) if (exp <= now) this.revoked.delete(key);
    for (const [key, { exp }] of this.revokedFamilies) if (exp <= now) this.revokedFamilies.delete(key);
  }
}

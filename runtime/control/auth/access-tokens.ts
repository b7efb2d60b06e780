import { randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { ROLES, type AuthUser, type Role } from './types.js';
import { loadJose } from '../../../common/jose.js';
import { ACCESS_TOKEN_ISSUER as ISSUER } from '../../../common/admin-credentials.js';
import type { Revocations } from './revocations.js';

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

/**
 * HS256 access tokens; the revoked ones are refused (Revocations). jose is imported on first use:
 * a server without authentication never loads it.
 */
export class AccessTokens {
  constructor(
    private readonly key: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
    private readonly revocations: Revocations,
  ) {}

  private nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** When a token signed now expires (seconds since the epoch): a login ended now is revoked until then. */
  newestExpiry(): number {
    return this.nowSeconds() + this.ttlSeconds;
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
    const ended = await this.revocations.ended(jti, fam as string | undefined);
    if (ended !== undefined) return { ok: false, reason: ended };
    return { ok: true, claims: { username: sub, role: role as Role, account: acc, family: fam as string | undefined, jti, exp } };
  }
}

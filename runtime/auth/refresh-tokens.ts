import { createHash, randomBytes, randomUUID } from 'node:crypto';

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

interface Entry {
  username: string;
  /** The login the token descends from: a login starts a family, each refresh continues it. */
  family: string;
  expiresAt: number;
  /** Used up (rotated or logged out); kept until it would have expired, so that a reuse is recognised. */
  used: boolean;
}

/** What taking a token found: a live token (now used up), or a used one presented again. */
export type Taken = { reused: false; username: string; family: string } | { reused: true; family: string };

/**
 * Opaque refresh tokens, kept only as SHA-256 digests (they are random, so a slow hash adds
 * nothing). They work once. A used token presented again means two parties hold it, one of them
 * a thief, and nobody can tell which: the whole family (every token rotated from the same login)
 * is revoked, as RFC 9700 section 4.14.2 asks.
 */
export class RefreshTokens {
  private readonly byDigest = new Map<string, Entry>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  /** `family`: the family of the token being rotated; a new login starts one. */
  issue(username: string, family: string = randomUUID()): { token: string; family: string } {
    const now = this.now();
    for (const [key, entry] of this.byDigest) if (entry.expiresAt <= now) this.byDigest.delete(key);
    const token = randomBytes(32).toString('base64url');
    this.byDigest.set(digest(token), { username, family, expiresAt: now + this.ttlSeconds * 1000, used: false });
    return { token, family };
  }

  /**
   * Uses the token up (refresh rotates it, logout revokes it). A token used before revokes its
   * family; an unknown or expired one is undefined.
   */
  take(token: string): Taken | undefined {
    const entry = this.byDigest.get(digest(token));
    if (entry === undefined || entry.expiresAt <= this.now()) return undefined;
    if (entry.used) {
      this.revokeFamily(entry.family);
      return { reused: true, family: entry.family };
    }
    entry.used = true;
    return { reused: false, username: entry.username, family: entry.family };
  }

  /** Every token of the family stops working; the used ones stay known, so their reuse is still recognised. */
  private revokeFamily(family: string): void {
    for (const entry of this.byDigest.values()) if (entry.family === family) entry.used = true;
  }

  revokeUser(username: string): void {
    for (const [key, entry] of this.byDigest) if (entry.username === username) this.byDigest.delete(key);
  }
}

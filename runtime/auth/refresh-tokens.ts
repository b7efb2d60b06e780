import { createHash, randomBytes } from 'node:crypto';

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Opaque refresh tokens, kept only as SHA-256 digests (they are random, so a slow hash adds nothing). */
export class RefreshTokens {
  private readonly byDigest = new Map<string, { username: string; expiresAt: number }>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  issue(username: string): string {
    const now = this.now();
    for (const [key, entry] of this.byDigest) if (entry.expiresAt <= now) this.byDigest.delete(key);
    const token = randomBytes(32).toString('base64url');
    this.byDigest.set(digest(token), { username, expiresAt: now + this.ttlSeconds * 1000 });
    return token;
  }

  /** The token's username if it is live; either way the token is used up (refresh rotates, logout revokes). */
  take(token: string): string | null {
    const key = digest(token);
    const entry = this.byDigest.get(key);
    if (!entry) return null;
    this.byDigest.delete(key);
    return entry.expiresAt > this.now() ? entry.username : null;
  }

  revokeUser(username: string): void {
    for (const [key, entry] of this.byDigest) if (entry.username === username) this.byDigest.delete(key);
  }
}

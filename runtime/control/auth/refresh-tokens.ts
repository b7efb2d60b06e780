import { createHash, randomBytes, randomUUID } from 'node:crypto';

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Logins (families) kept per user. A login beyond them ends the least recently used one, those
 * revoked for a reuse first: repeated logins cannot pile up tokens for the 7 days they last.
 */
const MAX_LOGINS_PER_USER = 20;

/**
 * Used tokens a login remembers, the newest: one of them presented again revokes the login.
 * Older ones are only invalid (refused, but no longer recognised as a reuse), so that a login
 * refreshed in a loop holds bounded memory.
 */
const USED_TOKENS_KEPT = 32;

/** One login and the tokens rotated from it. */
interface Family {
  username: string;
  /** Digest of the one token that works; undefined once used without a successor (a reuse revoked the login). */
  live: string | undefined;
  /** Digests of its used tokens, oldest first, at most USED_TOKENS_KEPT. */
  used: string[];
  /** When its newest token expires; the login is forgotten then. */
  expiresAt: number;
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
  /** By family id, least recently issued first: a rotation moves its family to the end. */
  private readonly families = new Map<string, Family>();
  /** Token digest to family id, for every token a family remembers. */
  private readonly familyOf = new Map<string, string>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  /** `family`: the family of the token being rotated; a new login starts one. */
  issue(username: string, family?: string): { token: string; family: string } {
    const now = this.now();
    for (const [id, entry] of this.families) if (entry.expiresAt <= now) this.forget(id);
    let id = family;
    let entry = id === undefined ? undefined : this.families.get(id);
    if (id === undefined || entry === undefined) {
      this.makeRoom(username);
      id = randomUUID();
      entry = { username, live: undefined, used: [], expiresAt: 0 };
    } else {
      this.families.delete(id);
    }
    const token = randomBytes(32).toString('base64url');
    this.end(entry); // a rotation took the live token already; this keeps every digest known to be live or used
    entry.live = digest(token);
    entry.expiresAt = now + this.ttlSeconds * 1000;
    this.families.set(id, entry);
    this.familyOf.set(entry.live, id);
    return { token, family: id };
  }

  /**
   * Uses the token up (refresh rotates it, logout revokes it). A token used before revokes its
   * family; an unknown or expired one is undefined.
   */
  take(token: string): Taken | undefined {
    const key = digest(token);
    const id = this.familyOf.get(key);
    const entry = id === undefined ? undefined : this.families.get(id);
    if (id === undefined || entry === undefined || entry.expiresAt <= this.now()) return undefined;
    const reused = entry.live !== key;
    this.end(entry);
    return reused ? { reused: true, family: id } : { reused: false, username: entry.username, family: id };
  }

  /** Logout: the login's tokens stop working and are forgotten (presented again, they are merely unknown). */
  revokeFamily(family: string): void {
    this.forget(family);
  }

  revokeUser(username: string): void {
    for (const [id, entry] of this.families) if (entry.username === username) this.forget(id);
  }

  private end(entry: Family): void {
    if (entry.live === undefined) return;
    entry.used.push(entry.live);
    entry.live = undefined;
    if (entry.used.length > USED_TOKENS_KEPT) this.familyOf.delete(entry.used.shift() as string);
  }

  /** Room for one more login of the user: revoked logins go first, then the least recently used. */
  private makeRoom(username: string): void {
    const own = [...this.families].filter(([, entry]) => entry.username === username);
    const excess = own.length - (MAX_LOGINS_PER_USER - 1);
    if (excess <= 0) return;
    const order = [...own.filter(([, entry]) => entry.live === undefined), ...own.filter(([, entry]) => entry.live !== undefined)];
    for (const [id] of order.slice(0, excess)) this.forget(id);
  }

  private forget(id: string): void {
    const entry = this.families.get(id);
    if (entry === undefined) return;
    for (const key of entry.used) this.familyOf.delete(key);
    if (entry.live !== undefined) this.familyOf.delete(entry.live);
    this.families.delete(id);
  }
}

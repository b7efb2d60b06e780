import { createHash, randomBytes } from 'node:crypto';
import type { Store, StoreBudget } from '../../store/index.js';

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

/** A token is 32 random bytes, base64url: the first 16 name its login, so that the login is found by the token without a table of digests. */
const FAMILY_BYTES = 16;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** One login and the tokens rotated from it, under `login:<family>`. */
interface Family {
  username: string;
  /** The account it was issued to: a name deleted and created again is another account. */
  account: string;
  /** Digest of the one token that works; null once a reuse revoked the login. */
  live: string | null;
  /** Digests of its used tokens, oldest first, at most USED_TOKENS_KEPT. */
  used: string[];
  /** When its newest token expires (epoch ms); the login is forgotten then. */
  expiresAt: number;
}

/** One of a user's logins in the list under `user:<username>`, least recently issued first. */
interface Login {
  id: string;
  expiresAt: number;
  live: boolean;
}

/** What the `admin-sessions` store holds: a login under `login:<id>`, a user's list of logins under `user:<name>`. */
export type SessionRecord = Family | Login[];

/**
 * The `admin-sessions` store's budget: logins are made by whoever holds a password, and one
 * forgotten only ends early (its refresh token is refused, its access tokens expire as they would),
 * so past it the least recently used go. A forgotten login never revives a revoked token: the
 * revocations are kept apart, in `admin-revocations`, which refuses rather than forgets.
 */
export const sessionsBudget: StoreBudget<SessionRecord> = {
  maxBytes: 16 * 1024 * 1024,
  past: 'evict',
  setting: 'the admin logins (16 MB)',
  forgotten: 'the admin logins',
  afterwards: ', whose refresh tokens no longer work (their users log in again)',
  sizeOf: (key, value) => 64 + 2 * (key.length + JSON.stringify(value).length),
};

/** What refreshing with a token did: rotated it (the successor), found it used before (the login is revoked), or found nothing. */
export type Rotated = { outcome: 'rotated'; token: string; family: string; username: string; account: string } | { outcome: 'reused'; family: string } | { outcome: 'unknown' };

/** What a logout found for a token: its login, and whether the token was used before. */
export interface Ended {
  family: string;
  reused: boolean;
}

const loginKey = (family: string) => `login:${family}`;
const userKey = (username: string) => `user:${username}`;

function familyOf(token: string): string | undefined {
  return TOKEN.test(token) ? Buffer.from(token, 'base64url').subarray(0, FAMILY_BYTES).toString('base64url') : undefined;
}

function newToken(family: string): string {
  return Buffer.concat([Buffer.from(family, 'base64url'), randomBytes(32 - FAMILY_BYTES)]).toString('base64url');
}

/** The used digests with one more, the oldest past USED_TOKENS_KEPT dropped. */
const remember = (used: readonly string[], digest: string): string[] => [...used, digest].slice(-USED_TOKENS_KEPT);

/**
 * Opaque refresh tokens, kept only as SHA-256 digests (they are random, so a slow hash adds
 * nothing), in the `admin-sessions` store that instances and workers share. They work once. A used
 * token presented again means two parties hold it, one of them a thief, and nobody can tell which:
 * the whole family (every token rotated from the same login) is revoked, as RFC 9700 section 4.14.2
 * asks. Rotation and reuse detection are one Store.update of the login: two instances taking the
 * same token at once, one rotates it and the other finds it used. An expired login counts as none
 * and is forgotten at its user's next login; one whose user never logs in again waits for the
 * budget to need its room (it is then among the least recently used).
 */
export class RefreshTokens {
  constructor(
    private readonly store: Store<SessionRecord>,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  /** A new login: its first token. The user's expired logins are forgotten, and past MAX_LOGINS_PER_USER the oldest end. */
  async issue(username: string, account: string): Promise<{ token: string; family: string }> {
    const family = randomBytes(FAMILY_BYTES).toString('base64url');
    const token = newToken(family);
    const now = this.now();
    const expiresAt = now + this.ttlSeconds * 1000;
    let ended: string[] = [];
    await this.store.update(userKey(username), (current) => {
      const logins = (current as Login[] | undefined) ?? [];
      let kept = logins.filter((login) => login.expiresAt > now);
      ended = logins.filter((login) => login.expiresAt <= now).map((login) => login.id);
      const excess = kept.length - (MAX_LOGINS_PER_USER - 1);
      if (excess > 0) {
        // revoked logins go first, then the least recently used
        const order = [...kept.filter((login) => !login.live), ...kept.filter((login) => login.live)];
        const gone = new Set(order.slice(0, excess).map((login) => login.id));
        ended = [...ended, ...gone];
        kept = kept.filter((login) => !gone.has(login.id));
      }
      return [...kept, { id: family, expiresAt, live: true }];
    });
    await this.store.set(loginKey(family), { username, account, live: digest(token), used: [], expiresAt });
    await Promise.all(ended.map((id) => this.store.delete(loginKey(id))));
    return { token, family };
  }

  /** Refresh: uses the token up and issues its successor, as one step. */
  async rotate(token: string): Promise<Rotated> {
    const family = familyOf(token);
    if (family === undefined) return { outcome: 'unknown' };
    const presented = digest(token);
    const next = newToken(family);
    const now = this.now();
    const expiresAt = now + this.ttlSeconds * 1000;
    let rotated: Rotated = { outcome: 'unknown' };
    let username = '';
    await this.store.update(loginKey(family), (current) => {
      const held = current as Family | undefined;
      rotated = { outcome: 'unknown' };
      if (held === undefined || held.expiresAt <= now) return undefined;
      username = held.username;
      if (held.live === presented) {
        rotated = { outcome: 'rotated', token: next, family, username: held.username, account: held.account };
        return { ...held, live: digest(next), used: remember(held.used, presented), expiresAt };
      }
      if (!held.used.includes(presented)) return undefined;
      rotated = { outcome: 'reused', family };
      // the token that worked is used up too: presented later, it is one more reuse
      return held.live === null ? undefined : { ...held, live: null, used: remember(held.used, held.live) };
    });
    // a rotation moves the login to the end of the user's list; a reuse marks it revoked, to end first
    const outcome = rotated as Rotated;
    if (outcome.outcome !== 'unknown') {
      await this.store.update(userKey(username), (current) => {
        const logins = current as Login[] | undefined;
        const login = logins?.find((one) => one.id === family);
        if (logins === undefined || login === undefined) return undefined;
        const others = logins.filter((one) => one !== login);
        return outcome.outcome === 'rotated' ? [...others, { id: family, expiresAt, live: true }] : logins.map((one) => (one === login ? { ...one, live: false } : one));
      });
    }
    return outcome;
  }

  /** Logout by refresh token: the login it belongs to, which ends (its tokens, presented again, are merely unknown). */
  async end(token: string): Promise<Ended | undefined> {
    const family = familyOf(token);
    if (family === undefined) return undefined;
    const presented = digest(token);
    const held = (await this.store.get(loginKey(family))) as Family | undefined;
    if (held === undefined || held.expiresAt <= this.now()) return undefined;
    const reused = held.live !== presented;
    if (reused && !held.used.includes(presented)) return undefined;
    await this.forget(family, held.username);
    return { family, reused };
  }

  /** Ends a login by its id (logout by access token, a user gone). */
  async endFamily(family: string): Promise<void> {
    const held = (await this.store.get(loginKey(family))) as Family | undefined;
    if (held !== undefined) await this.forget(family, held.username);
  }

  /** Ends every login of the user (deleted). */
  async endUser(username: string): Promise<void> {
    const logins = (await this.store.get(userKey(username))) as Login[] | undefined;
    await Promise.all((logins ?? []).map((login) => this.store.delete(loginKey(login.id))));
    await this.store.delete(userKey(username));
  }

  private async forget(family: string, username: string): Promise<void> {
    await this.store.delete(loginKey(family));
    await this.store.update(userKey(username), (current) => {
      const logins = current as Login[] | undefined;
      return logins?.some((login) => login.id === family) ? logins.filter((login) => login.id !== family) : undefined;
    });
  }
}

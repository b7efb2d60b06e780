import { randomUUID } from 'node:crypto';
import type { Store, StoreBudget } from '../../store/index.js';
import { formatPasswordHash, parsePasswordHash, UNKNOWN_USER_HASH, verifyPassword, type PasswordHash } from './password.js';
import type { AuthUser } from './types.js';

/** Letters, digits and `. _ @ -`: safe in URLs (`auth/users/<name>`), logs and the `sub` claim. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

export interface UserListing extends AuthUser {
  /** A development user seeded because JWT_SECRET is not set. */
  seeded: boolean;
}

/** A user who can log in; `account` tells accounts of one name apart (a token names the account it was issued to). */
export interface Account extends AuthUser {
  account: string;
}

interface ConfiguredAccount extends Account {
  seeded: boolean;
  // Plain-text passwords are hashed in the background at startup; logins wait for it.
  hash: Promise<PasswordHash>;
}

/**
 * What the `admin-users` store holds under a username: a user created at run time (its password
 * only as `scrypt$N$r$p$salt$hash`), or the mark that a configured or seeded user of that name was
 * deleted at run time, so that no instance, which each load them from configuration, lets it log in.
 */
export type UserRecord = (Account & { hash: string }) | { username: string; deleted: true };

/**
 * The `admin-users` store's budget: users are made by admins, so past it a creation is refused
 * (409), never an account forgotten. About 8,000 users.
 */
export const usersBudget: StoreBudget<UserRecord> = {
  maxBytes: 4 * 1024 * 1024,
  past: 'refuse',
  setting: 'the admin users created at run time (4 MB)',
  sizeOf: (key, value) => 64 + 2 * (key.length + JSON.stringify(value).length),
};

const isDeleted = (record: UserRecord): record is { username: string; deleted: true } => 'deleted' in record;

/**
 * The users who can log in: those from configuration (and the seeded development users), which
 * every instance loads itself, and those created and deleted at run time, kept in the `admin-users`
 * store that instances and workers share. Only hashes are kept.
 */
export class UserStore {
  private readonly configured = new Map<string, ConfiguredAccount>();

  constructor(private readonly store: Store<UserRecord>) {}

  /** A user from configuration; `account` is stable (`configured:<name>`), so that with a fixed JWT_SECRET their tokens survive a restart. */
  configure(user: AuthUser, hash: Promise<PasswordHash>, seeded: boolean, account: string): void {
    this.configured.set(user.username, { username: user.username, role: user.role, seeded, hash, account });
  }

  isConfigured(username: string): boolean {
    return this.configured.has(username);
  }

  /** How many users configuration gives. */
  get configuredCount(): number {
    return this.configured.size;
  }

  async get(username: string): Promise<Account | undefined> {
    const found = await this.find(username);
    return found && { username: found.username, role: found.role, account: found.account };
  }

  async list(): Promise<UserListing[]> {
    const records = new Map(await this.store.entries());
    const listed: UserListing[] = [];
    for (const [name, { username, role, seeded }] of this.configured) if (!records.has(name)) listed.push({ username, role, seeded });
    for (const record of records.values()) if (!isDeleted(record)) listed.push({ username: record.username, role: record.role, seeded: false });
    return listed;
  }

  /** Creates the user unless the name is taken (false), as one step on the shared store: two instances creating one name at once, one wins. */
  async create(user: AuthUser, hash: PasswordHash): Promise<boolean> {
    const record: UserRecord = { username: user.username, role: user.role, account: randomUUID(), hash: formatPasswordHash(hash) };
    const stored = await this.store.update(user.username, (current) => {
      const taken = current === undefined ? this.configured.has(user.username) : !isDeleted(current);
      return taken ? undefined : record;
    });
    return stored !== undefined;
  }

  /** Whether a user of the name was there. A configured name is marked deleted rather than forgotten. */
  async delete(username: string): Promise<boolean> {
    if (!this.configured.has(username)) return this.store.delete(username);
    let had = false;
    await this.store.update(username, (current) => {
      had = current === undefined || !isDeleted(current);
      return had ? { username, deleted: true } : undefined;
    });
    return had;
  }

  /** The user if the password is theirs. Unknown names cost a hash too, so timing does not tell them apart. */
  async check(username: string, password: string): Promise<Account | null> {
    const user = await this.find(username);
    const matches = await verifyPassword(password, user === undefined ? UNKNOWN_USER_HASH : await user.hash());
    if (!matches || user === undefined) return null;
    // The user may have been deleted (or deleted and created again) while the hash ran.
    const now = await this.get(username);
    return now?.account === user.account ? now : null;
  }

  private async find(username: string): Promise<(Account & { hash: () => Promise<PasswordHash> }) | undefined> {
    const record = await this.store.get(username);
    if (record !== undefined) {
      if (isDeleted(record)) return undefined;
      return { username, role: record.role, account: record.account, hash: async () => parsePasswordHash(record.hash) };
    }
    const configured = this.configured.get(username);
    return configured && { username, role: configured.role, account: configured.account, hash: () => configured.hash };
  }
}

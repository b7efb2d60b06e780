import { randomUUID } from 'node:crypto';
import { UNKNOWN_USER_HASH, verifyPassword, type PasswordHash } from './password.js';
import type { AuthUser, Role } from './types.js';

/** Letters, digits and `. _ @ -`: safe in URLs (`auth/users/<name>`), logs and the `sub` claim. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

export interface UserListing extends AuthUser {
  /** A development user seeded because JWT_SECRET is not set. */
  seeded: boolean;
}

interface StoredUser extends UserListing {
  /** Tells accounts of one name apart: a token names the account it was issued to. */
  account: string;
  // Plain-text passwords are hashed in the background at startup; logins wait for it.
  hash: Promise<PasswordHash>;
}

/** The users who can log in, in memory; only hashes are kept. */
export class UserStore {
  private readonly users = new Map<string, StoredUser>();

  /**
   * `account` defaults to a random id (users created at run time); users from configuration pass
   * a stable one, so that with a fixed JWT_SECRET their tokens survive a restart.
   */
  add(user: AuthUser, hash: Promise<PasswordHash>, seeded = false, account: string = randomUUID()): void {
    this.users.set(user.username, { username: user.username, role: user.role, seeded, hash, account });
  }

  get(username: string): AuthUser | undefined {
    const user = this.users.get(username);
    return user && { username: user.username, role: user.role };
  }

  /** The account id of the user now holding this name. */
  account(username: string): string | undefined {
    return this.users.get(username)?.account;
  }

  has(username: string): boolean {
    return this.users.has(username);
  }

  delete(username: string): boolean {
    return this.users.delete(username);
  }

  get size(): number {
    return this.users.size;
  }

  count(role: Role): number {
    let n = 0;
    for (const user of this.users.values()) if (user.role === role) n++;
    return n;
  }

  list(): UserListing[] {
    return [...this.users.values()].map(({ username, role, seeded }) => ({ username, role, seeded }));
  }

  /** The user if the password is theirs. Unknown names cost a hash too, so timing does not tell them apart. */
  async check(username: string, password: string): Promise<AuthUser | null> {
    const user = this.users.get(username);
    const matches = await verifyPassword(password, user ? await user.hash : UNKNOWN_USER_HASH);
    // The user may have been deleted while the hash ran.
    return matches && user && this.users.get(username) === user ? { username, role: user.role } : null;
  }
}

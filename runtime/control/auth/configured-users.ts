import { MockError } from '../../../common/errors.js';
import { hashPasswordParts, parsePasswordHash, type PasswordHash } from './password.js';
import { ROLES, type AuthUser, type ConfiguredUser, type Role } from './types.js';
import { USERNAME_PATTERN } from './users.js';

export interface LoadedUser {
  user: AuthUser;
  hash: Promise<PasswordHash>;
}

const configError = (message: string) => new MockError('MOCK_ERR_AUTH_CONFIG', `admin.auth.users: ${message}`);

/** Checks `admin.auth.users` (which may come straight from YAML) and starts hashing plain-text passwords. */
export function loadConfiguredUsers(entries: readonly ConfiguredUser[]): LoadedUser[] {
  const seen = new Set<string>();
  return entries.map((entry, index) => {
    const { username, role, password, password_hash: passwordHash } = entry as Partial<Record<keyof ConfiguredUser, unknown>>;
    if (typeof username !== 'string' || !USERNAME_PATTERN.test(username)) {
      throw configError(`entry ${index} needs a username of 1 to 64 letters, digits or . _ @ - (got ${JSON.stringify(username)})`);
    }
    const name = `user "${username}"`;
    if (seen.has(username)) throw configError(`${name} is listed twice (keep one entry)`);
    seen.add(username);
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
      throw configError(`${name} has role ${JSON.stringify(role)}; use admin, editor or viewer`);
    }
    const hasPassword = typeof password === 'string' && password !== '';
    const hasHash = typeof passwordHash === 'string' && passwordHash !== '';
    if (hasPassword === hasHash) {
      throw configError(`${name} needs exactly one of password or password_hash (hashPassword makes a password_hash)`);
    }
    let hash: Promise<PasswordHash>;
    if (hasHash) {
      try {
        hash = Promise.resolve(parsePasswordHash(passwordHash as string));
      } catch (err) {
        throw configError(`${name} has a malformed password_hash: ${(err as Error).message} (make one with hashPassword)`);
      }
    } else {
      hash = hashPasswordParts(password as string);
    }
    return { user: { username, role: role as Role }, hash };
  });
}

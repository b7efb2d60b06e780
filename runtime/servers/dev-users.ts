import { MockError } from '../../common/errors.js';
import type { Auth } from '../control/auth/index.js';
import { isLoopback } from './exposure.js';

/**
 * The development users' passwords are published (docs/admin.md), so they may only be seeded on
 * an admin API that this machine alone reaches: elsewhere the server refuses to start.
 * `setting` names where the address comes from (`admin.bind, --admin-host, MOCK_ADMIN_HOST`).
 */
export function refuseExposedDevUsers(auth: Auth, host: string, setting: string): void {
  if (auth.seededDevUsers.length === 0 || isLoopback(host)) return;
  throw new MockError(
    'MOCK_ERR_AUTH_DEV_USERS_EXPOSED',
    `admin auth is on without JWT_SECRET, which seeds development users with published passwords, and the admin API listens on ${host} (${setting}), beyond this machine: set JWT_SECRET and admin.auth.users, or turn the development users off (MOCK_DISABLE_DEV_SEED_USERS=true, admin.auth.seed_dev_users: false), or bind the admin to 127.0.0.1`,
  );
}

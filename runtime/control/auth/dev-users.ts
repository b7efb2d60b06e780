import type { AuthUser } from './types.js';

/** Seeded when JWT_SECRET is unset so a fresh local server can be tried at once. */
export const DEV_USERS: ReadonlyArray<AuthUser & { password: string }> = [
  { username: 'admin', role: 'admin', password: 'admin-dev-password' },
  { username: 'editor', role: 'editor', password: 'editor-dev-password' },
  { username: 'viewer', role: 'viewer', password: 'viewer-dev-password' },
];

/** `address`: where the admin API listens (`http://127.0.0.1:9080`), so the warning says who can reach it. */
export function devUsersWarning(seeded: ReadonlyArray<AuthUser & { password: string }>, address: string): string {
  const names = seeded.map((u) => `${u.username} / ${u.password}`).join(', ');
  return (
    `admin auth: JWT_SECRET is not set, so tokens use a per-process secret (they end at restart) and development users are seeded ` +
    `(${names}) that anyone who can reach the admin API at ${address} can log in with; set MOCK_DISABLE_DEV_SEED_USERS=true, ` +
    `or set JWT_SECRET and admin.auth.users, before exposing this server`
  );
}

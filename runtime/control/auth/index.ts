/**
 * Authentication and authorisation for the admin API, free of any protocol: the admin router
 * passes method, endpoint name (`mocks`, `config/latency`, `auth/login` …) and headers.
 *
 * Rules
 * 1. Reads are open: GET, HEAD and OPTIONS need nothing, even in hosted mode or with JWT auth on,
 *    except GET auth/me (needs a valid access token) and GET auth/users (admin, when auth is on).
 * 2. Hosted mode (a management token is set): every other method needs header
 *    X-Mock-Management-Token equal to it (compared in constant time), else 401. auth/login and
 *    auth/refresh are exempt when JWT auth is on, so users can log in. Self-hosted servers use no token.
 * 3. JWT auth on: writes to anything but auth/login, auth/refresh and auth/logout need
 *    `Authorization: Bearer <access token>` (401 when missing, invalid, expired or revoked), then a
 *    role (403): viewer writes nothing; editor writes mocks, mocks/*, fixtures, fixtures/*,
 *    overrides, smoke/*, state, contract-diff/* and webhooks/*; admin writes everything, auth/users included. permissions.ts holds the table.
 * 4. JWT auth off (the self-hosted default): everything is allowed apart from rule 2, and login,
 *    refresh, logout, me and the user endpoints answer 404 "authentication is disabled".
 * 5. Without JWT_SECRET a random secret signs tokens (one per process, or per primary for its
 *    workers; they end at restart) and, unless
 *    MOCK_DISABLE_DEV_SEED_USERS=true, development users admin / admin-dev-password,
 *    editor / editor-dev-password and viewer / viewer-dev-password are seeded with one startup
 *    warning naming the address the admin API listens on (the server prints it once it listens).
 *    With JWT_SECRET nobody is seeded. A JWT_SECRET under 32 bytes, or a configured user
 *    without exactly one of password / password_hash, with an unknown role or a malformed hash,
 *    fails startup with MOCK_ERR_AUTH_CONFIG.
 * 6. Five failed logins within a minute for one username, or from one client address, lock it out:
 *    429 with Retry-After (2 s, doubling with every further failure, up to 15 minutes); a success
 *    clears them. Passwords are checked as scrypt hashes compared in constant time, the management
 *    token as a SHA-256 digest compared in constant time.
 * 7. Login {username, password} gives {access_token, refresh_token, token_type: Bearer, expires_in,
 *    user}; wrong username and wrong password get the same 401 after the same hashing work. Access
 *    tokens are HS256 JWTs (sub, role, acc = the account, fam = the login, iat, exp, jti, iss mock; 15 minutes by
 *    default); a name deleted and created again is another account, so old tokens stay dead. Refresh
 *    tokens are opaque (32 random bytes, the first 16 naming the login), stored as digests, last 7
 *    days by default and work once: refresh rotates them; a used one presented again revokes its
 *    login (RFC 9700); the 32 newest used ones are recognised. A user keeps 20 logins, the
 *    least recently used ending first. Logout ends the login of the refresh token given or of the
 *    access token (its `fam` claim): its refresh tokens and every access token issued from it.
 * 8. Users (admin only): list never shows hashes; create answers 400 on bad fields and 409 on a
 *    taken name; delete answers 404 for unknown names and 409 for the last admin, and ends the
 *    user's tokens.
 * 9. What logins change lives in the server's stores (runtime/store), shared by the workers of
 *    `mock serve --workers` and by instances on one Redis, as plain JSON: users created at run time
 *    and configured ones deleted (`admin-users`, hashes as `scrypt$N$r$p$salt$hash` strings),
 *    refresh-token families as SHA-256 digests (`admin-sessions`), revoked access tokens and
 *    logins (`admin-revocations`), failed-login strikes (`admin-login-throttle`). Configured and
 *    seeded users are loaded by every instance from its configuration. Rotation and reuse
 *    detection are one Store.update of the login, so two instances taking one token at once cannot
 *    both rotate it; a throttle key's strike and a user's creation are one update each. Logins and
 *    strikes are forgotten past their budgets (a login then ends early; a key starts afresh), never
 *    a revocation: `admin-revocations` refuses instead (logout answers 503) and sweeps the expired
 *    ones, so a forgotten revocation can never make a revoked token valid again. A store that cannot
 *    be reached fails closed (503). Workers share one random signing key without JWT_SECRET;
 *    instances on Redis need JWT_SECRET (the CLI refuses to start without it), which is never
 *    put in Redis.
 *
 * password_hash format: `scrypt$N$r$p$<salt base64>$<hash base64>`, made by hashPassword().
 */
export { createAuth, type Auth } from './authenticator.js';
export { devUsersWarning } from './dev-users.js';
export { hashPassword } from './password.js';
export { PERMISSIONS, accessFor, roleAllows, type Access } from './permissions.js';
export {
  ROLES,
  type AuthDecision,
  type AuthHeaders,
  type AuthOptions,
  type AuthRequest,
  type AuthResult,
  type AuthUser,
  type ConfiguredUser,
  type Role,
} from './types.js';
export type { UserListing } from './users.js';

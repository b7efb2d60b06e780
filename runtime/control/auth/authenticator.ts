import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { MockError } from '../../../common/errors.js';
import { MemoryStores, type StoreFactory } from '../../store/index.js';
import { AccessTokens, type AccessClaims } from './access-tokens.js';
import { stringFields } from './body-fields.js';
import { loadConfiguredUsers } from './configured-users.js';
import { DEV_USERS } from './dev-users.js';
import { LoginThrottle, throttleBudget, throttleKey } from './login-throttle.js';
import { hashPasswordParts } from './password.js';
import { MANAGEMENT_TOKEN_HEADER } from '../../../common/admin-credentials.js';
import { accessFor, isReadMethod, roleAllows, rolesAtLeast } from './permissions.js';
import { RefreshTokens, sessionsBudget, type SessionRecord } from './refresh-tokens.js';
import { Revocations, revocationsBudget } from './revocations.js';
import { ROLES, type AuthDecision, type AuthHeaders, type AuthOptions, type AuthRequest, type AuthResult, type AuthUser, type Role } from './types.js';
import { USERNAME_PATTERN, UserStore, usersBudget, type Account } from './users.js';

export interface Auth {
  readonly enabled: boolean;
  /** The development users seeded at start (none with JWT_SECRET); the server warns about them once it knows its address. */
  readonly seededDevUsers: ReadonlyArray<AuthUser & { password: string }>;
  /** Whether the request may reach its admin endpoint, and as whom. */
  authorize(request: AuthRequest): Promise<AuthDecision>;
  /** `client` is the caller's address: failures are throttled per username and per address. */
  login(body: unknown, client?: string): Promise<AuthResult>;
  refresh(body: unknown): Promise<AuthResult>;
  logout(headers: AuthHeaders, body: unknown): Promise<AuthResult>;
  me(headers: AuthHeaders): Promise<AuthResult>;
  listUsers(): Promise<AuthResult>;
  createUser(body: unknown): Promise<AuthResult>;
  deleteUser(username: string): Promise<AuthResult>;
}

const DEFAULT_ACCESS_TTL_SECONDS = 15 * 60;
const DEFAULT_REFRESH_TTL_SECONDS = 7 * 24 * 60 * 60;
const MIN_SECRET_BYTES = 32;
const MIN_PASSWORD_LENGTH = 8;
// Reachable without the management token when JWT auth is on, so hosted users can get a token at all.
const HOSTED_EXEMPT = new Set(['auth/login', 'auth/refresh']);

const LOGIN = 'POST /__mock/auth/login';
const LOGIN_HINT = `log in at ${LOGIN}`;
const LOGIN_AGAIN = `log in again at ${LOGIN}`;
const MANAGEMENT_TOKEN_ERROR = 'missing or wrong X-Mock-Management-Token header (hosted mode requires it on writes)';
const TOKEN_ERRORS = {
  missing: `missing Authorization header: send "Authorization: Bearer <access token>" (${LOGIN_HINT} to get one)`,
  malformed: `Authorization header is not "Bearer <access token>" (${LOGIN_HINT} to get a token)`,
  expired: `access token has expired (get a new one at POST /__mock/auth/refresh or ${LOGIN_HINT})`,
  invalid: `access token is not valid for this server (${LOGIN_HINT} for a new one)`,
  revoked: `access token was revoked by logout (${LOGIN_AGAIN})`,
  reused: `access token was revoked: a refresh token of its login was used twice, so a copy may have been stolen (${LOGIN_AGAIN})`,
  unknownUser: `the user of this access token no longer exists or has changed (${LOGIN_AGAIN})`,
};

const ok = (data: unknown, status = 200): AuthResult => ({ status, data });
const fail = (status: number, error: string): AuthResult => ({ status, error });
const DISABLED = fail(404, 'authentication is disabled (set admin.auth.enabled: true or MOCK_ADMIN_AUTH_ENABLED=true)');
const REVOCATIONS_FULL =
  `cannot revoke the tokens: the store admin-revocations is full (${revocationsBudget.maxBytes / (1024 * 1024)} MB) of revocations whose access tokens have not expired yet; ` +
  'the refresh token is ended, and its access tokens stay valid until they expire (lower admin.auth.session_timeout_seconds so that revocations go sooner)';

const configError = (message: string) => new MockError('MOCK_ERR_AUTH_CONFIG', message);
const sha256 = (text: string) => createHash('sha256').update(text).digest();

function header(headers: AuthHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function seconds(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw configError(`admin auth ${name} must be a positive whole number of seconds (got ${value})`);
  return value;
}

type Bearer = { ok: true; user: AuthUser; claims: AccessClaims } | { ok: false; status: 401; error: string };

/** What a server with authentication on keeps, each part in a store that instances and workers share (index.ts, rule 9). */
interface Sessions {
  users: UserStore;
  accessTokens: AccessTokens;
  revocations: Revocations;
  refreshTokens: RefreshTokens;
  throttle: LoginThrottle;
}

class Authenticator implements Auth {
  readonly enabled: boolean;
  readonly seededDevUsers: ReadonlyArray<AuthUser & { password: string }> = [];
  private readonly accessTtlSeconds: number;
  /** Undefined while authentication is off: its stores are not opened then. */
  private readonly sessions: Sessions | undefined;
  // Compared as digests so timingSafeEqual sees equal lengths and the token's length does not leak.
  private readonly managementDigest: Buffer | undefined;

  constructor(options: AuthOptions, stores: StoreFactory) {
    const now = options.now ?? Date.now;
    this.enabled = options.enabled;
    this.accessTtlSeconds = seconds('accessTtlSeconds', options.accessTtlSeconds ?? DEFAULT_ACCESS_TTL_SECONDS);
    const refreshTtlSeconds = seconds('refreshTtlSeconds', options.refreshTtlSeconds ?? DEFAULT_REFRESH_TTL_SECONDS);

    const { jwtSecret, managementToken } = options;
    if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < MIN_SECRET_BYTES) {
      throw configError(`JWT_SECRET is ${Buffer.byteLength(jwtSecret)} bytes but needs at least ${MIN_SECRET_BYTES} (generate one with: openssl rand -base64 48)`);
    }
    if (managementToken === '') {
      throw configError('the hosted-mode management token is empty (set it to a long random value, or unset it for a self-hosted server)');
    }
    this.managementDigest = managementToken === undefined ? undefined : sha256(managementToken);
    // checked whether or not authentication is on: a mistake there fails the start either way
    const configured = loadConfiguredUsers(options.users ?? []);
    if (!this.enabled) return;

    const key = jwtSecret === undefined ? (options.sharedKey ?? randomBytes(MIN_SECRET_BYTES)) : new TextEncoder().encode(jwtSecret);
    const users = new UserStore(stores.open('admin-users', usersBudget));
    const revocations = new Revocations(stores.open('admin-revocations', revocationsBudget), now);
    this.sessions = {
      users,
      revocations,
      accessTokens: new AccessTokens(key, this.accessTtlSeconds, now, revocations),
      refreshTokens: new RefreshTokens(stores.open<SessionRecord>('admin-sessions', sessionsBudget), refreshTtlSeconds, now),
      throttle: new LoginThrottle(stores.open('admin-login-throttle', throttleBudget()), now),
    };
    for (const { user, hash } of configured) users.configure(user, hash, false, `configured:${user.username}`);
    if (jwtSecret === undefined && options.seedDevUsers) {
      // A configured user of the same name wins over the development one.
      this.seededDevUsers = DEV_USERS.filter((u) => !users.isConfigured(u.username));
      // one account per name, as configured users have: every worker sharing the key seeds the same accounts
      for (const u of this.seededDevUsers) users.configure(u, hashPasswordParts(u.password), true, `seeded:${u.username}`);
    }
    if (users.configuredCount === 0) options.logger?.warn('admin auth is enabled but has no users, so nobody can log in (add admin.auth.users)');
  }

  async authorize({ method, endpoint, headers }: AuthRequest): Promise<AuthDecision> {
    if (!isReadMethod(method) && this.managementDigest && !(this.enabled && HOSTED_EXEMPT.has(endpoint))) {
      const given = header(headers, MANAGEMENT_TOKEN_HEADER);
      if (given === undefined || !timingSafeEqual(sha256(given), this.managementDigest)) {
        return { ok: false, status: 401, error: MANAGEMENT_TOKEN_ERROR };
      }
    }
    const { sessions } = this;
    if (sessions === undefined) return { ok: true, user: null };
    const access = accessFor(method, endpoint);
    if (access === 'open') return { ok: true, user: null };
    const bearer = await this.bearer(sessions, headers);
    if (!bearer.ok) return bearer;
    const { user } = bearer;
    if (access !== 'user' && !roleAllows(user.role, access)) {
      const needs = rolesAtLeast(access).join(' or ');
      return { ok: false, status: 403, error: `role ${user.role} may not ${method.toUpperCase()} ${endpoint} (needs ${needs})` };
    }
    return { ok: true, user };
  }

  async login(body: unknown, client?: string): Promise<AuthResult> {
    const { sessions } = this;
    if (sessions === undefined) return DISABLED;
    const fields = stringFields(body, 'login', ['username', 'password']);
    if (typeof fields === 'string') return fail(400, fields);
    const keys = client === undefined || client === '' ? [throttleKey('user', fields.username)] : [throttleKey('user', fields.username), throttleKey('address', client)];
    // a locked key is refused before the password is checked, so guesses cost the guesser time, not us hashing
    const wait = await sessions.throttle.retryAfterSeconds(keys);
    if (wait > 0) return { status: 429, error: `too many failed logins for this user or address; try again in ${wait} s`, retryAfterSeconds: wait };
    const account = await sessions.users.check(fields.username, fields.password);
    if (!account) {
      await sessions.throttle.failed(keys);
      return fail(401, 'invalid username or password');
    }
    await sessions.throttle.succeeded(keys);
    return ok(await this.tokens(sessions, account, await sessions.refreshTokens.issue(account.username, account.account)));
  }

  async refresh(body: unknown): Promise<AuthResult> {
    const { sessions } = this;
    if (sessions === undefined) return DISABLED;
    const fields = stringFields(body, 'refresh', ['refresh_token']);
    if (typeof fields === 'string') return fail(400, fields);
    const rotated = await sessions.refreshTokens.rotate(fields.refresh_token);
    if (rotated.outcome === 'reused') {
      if (!(await sessions.revocations.revokeLogin(rotated.family, 'reused', sessions.accessTokens.newestExpiry()))) return fail(503, REVOCATIONS_FULL);
      return fail(401, `refresh token was already used, so every token of its login is revoked in case a copy was stolen (${LOGIN_AGAIN})`);
    }
    const invalid = fail(401, `refresh token is invalid, expired or already used (${LOGIN_AGAIN})`);
    if (rotated.outcome === 'unknown') return invalid;
    const user = await sessions.users.get(rotated.username);
    // the user was deleted, or deleted and created again (another account), since the login
    if (user?.account !== rotated.account) {
      await sessions.refreshTokens.endFamily(rotated.family);
      return invalid;
    }
    return ok(await this.tokens(sessions, user, rotated));
  }

  async logout(headers: AuthHeaders, body: unknown): Promise<AuthResult> {
    const { sessions } = this;
    if (sessions === undefined) return DISABLED;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      return fail(400, 'logout body must be a JSON object with refresh_token, or empty');
    }
    const refreshToken = (body as { refresh_token?: unknown } | null | undefined)?.refresh_token;
    if (refreshToken !== undefined && (typeof refreshToken !== 'string' || refreshToken === '')) {
      return fail(400, 'logout body field refresh_token must be a non-empty string');
    }
    const hasBearer = header(headers, 'authorization') !== undefined;
    if (refreshToken === undefined && !hasBearer) {
      return fail(400, 'logout needs refresh_token in the body or an Authorization: Bearer <access token> header');
    }
    // Logout ends the login either token names: its refresh tokens and every access token issued from it.
    const ended = refreshToken === undefined ? undefined : await sessions.refreshTokens.end(refreshToken);
    if (ended !== undefined && !(await sessions.revocations.revokeLogin(ended.family, ended.reused ? 'reused' : 'revoked', sessions.accessTokens.newestExpiry()))) {
      return fail(503, REVOCATIONS_FULL);
    }
    let loggedOut = ended?.reused === false;
    if (hasBearer) {
      const bearer = await this.bearer(sessions, headers);
      if (bearer.ok) {
        const { family, jti, exp } = bearer.claims;
        if (family !== undefined) await sessions.refreshTokens.endFamily(family);
        // the login's revocation covers its every token; a token without one (minted elsewhere with JWT_SECRET) is revoked alone
        const revoked = family === undefined ? await sessions.revocations.revokeToken(jti, exp) : await sessions.revocations.revokeLogin(family, 'revoked', sessions.accessTokens.newestExpiry());
        if (!revoked) return fail(503, REVOCATIONS_FULL);
        loggedOut = true;
      }
    }
    if (!loggedOut) return fail(401, 'nothing to log out: the tokens given are invalid, expired or already revoked');
    return ok({ message: 'logged out' });
  }

  async me(headers: AuthHeaders): Promise<AuthResult> {
    const { sessions } = this;
    if (sessions === undefined) return DISABLED;
    const bearer = await this.bearer(sessions, headers);
    if (!bearer.ok) return fail(bearer.status, bearer.error);
    const { user, claims } = bearer;
    return ok({ username: user.username, role: user.role, expires_at: new Date(claims.exp * 1000).toISOString() });
  }

  async listUsers(): Promise<AuthResult> {
    const { sessions } = this;
    if (sessions === undefined) return DISABLED;
    return ok(await sessions.users.list());
  }

  async createUser(body: unknown): Promise<AuthResult> {
    const { sessions } = this;
    if (sessions === undefined) return DISABLED;
    const fields = stringFields(body, 'create user', ['username', 'password', 'role']);
    if (typeof fields === 'string') return fail(400, fields);
    const { username, password, role } = fields;
    if (!USERNAME_PATTERN.test(username)) return fail(400, 'username must be 1 to 64 letters, digits or . _ @ -');
    if (password.length < MIN_PASSWORD_LENGTH) return fail(400, `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    if (!(ROLES as readonly string[]).includes(role)) return fail(400, `role must be admin, editor or viewer (got ${JSON.stringify(role)})`);
    const exists = () => fail(409, `user "${username}" already exists (delete it first or pick another username)`);
    if ((await sessions.users.get(username)) !== undefined) return exists();
    const hash = await hashPasswordParts(password);
    // Another request, on this instance or another, may have taken the name while the hash ran.
    if (!(await sessions.users.create({ username, role: role as Role }, hash))) return exists();
    return ok({ username, role }, 201);
  }

  async deleteUser(username: string): Promise<AuthResult> {
    const { sessions } = this;
    if (sessions === undefined) return DISABLED;
    const user = await sessions.users.get(username);
    if (!user) return fail(404, `user "${username}" not found`);
    if (user.role === 'admin' && (await sessions.users.list()).filter((u) => u.role === 'admin').length === 1) {
      return fail(409, `cannot delete "${username}": it is the last admin (create another admin first)`);
    }
    if (!(await sessions.users.delete(username))) return fail(404, `user "${username}" not found`);
    // Its access tokens stop working because the account is gone (a new one of that name is another); refresh tokens are dropped here.
    await sessions.refreshTokens.endUser(username);
    return ok({ message: `deleted user "${username}"` });
  }

  /** The answer of a login or refresh: an access token of the login `refresh.family` and its refresh token. */
  private async tokens(sessions: Sessions, user: Account, refresh: { token: string; family: string }) {
    return {
      access_token: await sessions.accessTokens.sign(user, user.account, refresh.family),
      refresh_token: refresh.token,
      token_type: 'Bearer',
      expires_in: this.accessTtlSeconds,
      user: { username: user.username, role: user.role },
    };
  }

  private async bearer(sessions: Sessions, headers: AuthHeaders): Promise<Bearer> {
    const unauthorized = (error: string): Bearer => ({ ok: false, status: 401, error });
    const value = header(headers, 'authorization');
    if (value === undefined || value === '') return unauthorized(TOKEN_ERRORS.missing);
    const match = /^Bearer +(\S+) *$/i.exec(value);
    if (!match) return unauthorized(TOKEN_ERRORS.malformed);
    const verified = await sessions.accessTokens.verify(match[1]);
    if (!verified.ok) return unauthorized(TOKEN_ERRORS[verified.reason]);
    const user = await sessions.users.get(verified.claims.username);
    // A token outlives neither its user nor a re-creation of that name (another account).
    if (!user || user.role !== verified.claims.role || user.account !== verified.claims.account) return unauthorized(TOKEN_ERRORS.unknownUser);
    return { ok: true, user: { username: user.username, role: user.role }, claims: verified.claims };
  }
}

/**
 * Builds the admin API's authentication; throws MockError MOCK_ERR_AUTH_CONFIG on bad settings.
 * `stores`: where its logins live when it is on (the server's, which instances and workers share); a
 * store of its own in memory by default.
 */
export function createAuth(options: AuthOptions, stores: StoreFactory = new MemoryStores()): Auth {
  return new Authenticator(options, stores);
}

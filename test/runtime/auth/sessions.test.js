// runtime/control/auth login, refresh rotation, logout revocation, me and expiry on a fake clock.
import t from 'tap';
import { randomBytes, scryptSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { createAuth } from '../../../dist/runtime/control/auth/index.js';

const quiet = { warn() {} };
const START = Date.parse('2026-03-01T12:00:00.000Z');

function setup(extra = {}) {
  const clock = { t: START };
  const auth = createAuth({ enabled: true, seedDevUsers: true, logger: quiet, now: () => clock.t, ...extra });
  return { auth, clock };
}
const bearer = (token) => ({ authorization: `Bearer ${token}` });

// Every login checks a scrypt hash (about 100 ms at the server's cost), and setup() hashes the three
// development users again. The first two tests log in as the development users; the others, which
// log in dozens of times, as configured users of the same names, roles and passwords whose
// password_hash has a cheap cost (N = 16): the same check and the same tokens, without the wait.
function cheapHash(password) {
  const salt = randomBytes(16);
  return `scrypt$16$8$1$${salt.toString('base64')}$${scryptSync(password, salt, 32, { N: 16, r: 8, p: 1 }).toString('base64')}`;
}
const USERS = ['admin', 'editor', 'viewer'].map((role) => ({ username: role, role, password_hash: cheapHash(`${role}-dev-password`) }));
const configured = (extra = {}) => setup({ seedDevUsers: false, users: USERS, ...extra });
const ROOT = [{ username: 'root', role: 'admin', password_hash: cheapHash('root-password') }];

t.test('login returns tokens, expiry and the user', async (t) => {
  const { auth } = setup();
  const result = await auth.login({ username: 'editor', password: 'editor-dev-password' });
  t.equal(result.status, 200);
  const { data } = result;
  t.strictSame(Object.keys(data).sort(), ['access_token', 'expires_in', 'refresh_token', 'token_type', 'user']);
  t.equal(data.token_type, 'Bearer');
  t.equal(data.expires_in, 900);
  t.strictSame(data.user, { username: 'editor', role: 'editor' });
  t.match(data.refresh_token, /^[A-Za-z0-9_-]{43}$/);

  t.strictSame(decodeProtectedHeader(data.access_token), { alg: 'HS256', typ: 'JWT' });
  const claims = decodeJwt(data.access_token);
  t.equal(claims.sub, 'editor');
  t.equal(claims.role, 'editor');
  t.equal(claims.iss, 'mock');
  t.equal(claims.iat, START / 1000);
  t.equal(claims.exp, START / 1000 + 900);
  t.match(claims.jti, /^[0-9a-f-]{36}$/);

  const again = await auth.login({ username: 'editor', password: 'editor-dev-password' });
  t.not(decodeJwt(again.data.access_token).jti, claims.jti, 'each token has its own jti');
  t.not(again.data.refresh_token, data.refresh_token);

  t.strictSame(await auth.me(bearer(data.access_token)), {
    status: 200,
    data: { username: 'editor', role: 'editor', expires_at: '2026-03-01T12:15:00.000Z' },
  });
});

t.test('wrong credentials get one message whether or not the user exists', async (t) => {
  const { auth } = setup();
  const expected = { status: 401, error: 'invalid username or password' };
  t.strictSame(await auth.login({ username: 'admin', password: 'editor-dev-password' }), expected);
  t.strictSame(await auth.login({ username: 'nobody', password: 'admin-dev-password' }), expected);
  t.strictSame(await auth.login({ username: 'Admin', password: 'admin-dev-password' }), expected, 'names are case-sensitive');
});

t.test('malformed login bodies are 400 naming the field', async (t) => {
  const { auth } = configured();
  const notObject = { status: 400, error: 'login body must be a JSON object with username, password' };
  t.strictSame(await auth.login(undefined), notObject);
  t.strictSame(await auth.login('admin'), notObject);
  t.strictSame(await auth.login(['admin', 'x']), notObject);
  t.strictSame(await auth.login({ password: 'x' }), { status: 400, error: 'login body field username must be a non-empty string' });
  t.strictSame(await auth.login({ username: 'admin', password: 42 }), {
    status: 400,
    error: 'login body field password must be a non-empty string',
  });
});

t.test('refresh rotates: the new pair works, the old refresh token does not, and its reuse revokes the family (RFC 9700 4.14.2)', async (t) => {
  const { auth, clock } = configured();
  const first = (await auth.login({ username: 'admin', password: 'admin-dev-password' })).data;
  clock.t += 60_000;
  const second = await auth.refresh({ refresh_token: first.refresh_token });
  t.equal(second.status, 200);
  t.equal(second.data.token_type, 'Bearer');
  t.equal(second.data.expires_in, 900);
  t.strictSame(second.data.user, { username: 'admin', role: 'admin' });
  t.equal(decodeJwt(second.data.access_token).exp, START / 1000 + 60 + 900);
  t.not(second.data.refresh_token, first.refresh_token);

  const third = await auth.refresh({ refresh_token: second.data.refresh_token });
  t.equal(third.status, 200, 'the rotated token works once');
  const other = (await auth.login({ username: 'admin', password: 'admin-dev-password' })).data;
  const write = (token) => auth.authorize({ method: 'POST', endpoint: 'env', headers: bearer(token) });
  t.equal((await write(third.data.access_token)).ok, true);

  // a used token again: a thief and the owner both hold it, and nobody can tell which one this is
  const reused = await auth.refresh({ refresh_token: first.refresh_token });
  t.strictSame(reused, {
    status: 401,
    error: 'refresh token was already used, so every token of its login is revoked in case a copy was stolen (log in again at POST /__mock/auth/login)',
  });
  t.equal((await auth.refresh({ refresh_token: third.data.refresh_token })).status, 401, 'the token rotated from it is revoked');
  for (const token of [second.data.access_token, third.data.access_token]) {
    t.strictSame(await write(token), {
      ok: false,
      status: 401,
      error: 'access token was revoked: a refresh token of its login was used twice, so a copy may have been stolen (log in again at POST /__mock/auth/login)',
    }, 'and so are the access tokens of the login');
  }
  t.equal((await write(other.access_token)).ok, true, 'another login of the same user is untouched');
  t.equal((await auth.refresh({ refresh_token: other.refresh_token })).status, 200);
  t.strictSame(await auth.refresh({}), { status: 400, error: 'refresh body field refresh_token must be a non-empty string' });
  t.strictSame(await auth.refresh({ refresh_token: 'made-up' }), {
    status: 401,
    error: 'refresh token is invalid, expired or already used (log in again at POST /__mock/auth/login)',
  });
});

t.test('access tokens expire on the clock; refresh tokens after their own lifetime', async (t) => {
  const { auth, clock } = configured({ accessTtlSeconds: 60, refreshTtlSeconds: 600 });
  const { data } = await auth.login({ username: 'editor', password: 'editor-dev-password' });
  t.equal(data.expires_in, 60);
  const write = () => auth.authorize({ method: 'POST', endpoint: 'mocks', headers: bearer(data.access_token) });

  clock.t = START + 59_000;
  t.strictSame(await write(), { ok: true, user: { username: 'editor', role: 'editor' } });
  clock.t = START + 60_000;
  t.strictSame(await write(), {
    ok: false,
    status: 401,
    error: 'access token has expired (get a new one at POST /__mock/auth/refresh or log in at POST /__mock/auth/login)',
  });
  t.equal((await auth.me(bearer(data.access_token))).status, 401);

  const renewed = await auth.refresh({ refresh_token: data.refresh_token });
  t.equal(renewed.status, 200);
  clock.t += 600_000;
  t.equal((await auth.refresh({ refresh_token: renewed.data.refresh_token })).status, 401, 'refresh token expired');
});

t.test('logout revokes the access token and the refresh token', async (t) => {
  const { auth } = configured();
  const { data } = await auth.login({ username: 'admin', password: 'admin-dev-password' });
  const other = (await auth.login({ username: 'admin', password: 'admin-dev-password' })).data;
  const headers = bearer(data.access_token);
  t.strictSame(await auth.authorize({ method: 'POST', endpoint: 'env', headers }), { ok: true, user: { username: 'admin', role: 'admin' } });

  t.strictSame(await auth.logout(headers, { refresh_token: data.refresh_token }), { status: 200, data: { message: 'logged out' } });
  t.strictSame(await auth.authorize({ method: 'POST', endpoint: 'env', headers }), {
    ok: false,
    status: 401,
    error: 'access token was revoked by logout (log in again at POST /__mock/auth/login)',
  });
  t.equal((await auth.me(headers)).status, 401);
  t.equal((await auth.refresh({ refresh_token: data.refresh_token })).status, 401);
  t.strictSame(await auth.logout(headers, { refresh_token: data.refresh_token }), {
    status: 401,
    error: 'nothing to log out: the tokens given are invalid, expired or already revoked',
  });

  // The other session is untouched.
  t.equal((await auth.me(bearer(other.access_token))).status, 200);
  t.strictSame(await auth.logout(bearer(other.access_token), undefined), { status: 200, data: { message: 'logged out' } });
  t.equal((await auth.me(bearer(other.access_token))).status, 401);
  // It used to stay alive, so a logout with the access token left a 7-day credential behind; the
  // access token names its login (`fam`), and logout ends the whole login.
  t.strictSame(await auth.refresh({ refresh_token: other.refresh_token }), {
    status: 401,
    error: 'refresh token is invalid, expired or already used (log in again at POST /__mock/auth/login)',
  }, 'logout by access token ends its refresh token too');
});

t.test('logout ends every access token of its login, whichever token names it', async (t) => {
  const { auth } = configured();
  const write = (token) => auth.authorize({ method: 'POST', endpoint: 'env', headers: bearer(token) });
  const first = (await auth.login({ username: 'admin', password: 'admin-dev-password' })).data;
  const second = (await auth.refresh({ refresh_token: first.refresh_token })).data;
  t.strictSame(await auth.logout({}, { refresh_token: second.refresh_token }), { status: 200, data: { message: 'logged out' } });
  for (const token of [first.access_token, second.access_token]) {
    t.strictSame(await write(token), { ok: false, status: 401, error: 'access token was revoked by logout (log in again at POST /__mock/auth/login)' });
  }
});

t.test('a user keeps 20 logins: a new one ends the least recently used, revoked ones first', async (t) => {
  const { auth } = configured();
  const login = async () => (await auth.login({ username: 'viewer', password: 'viewer-dev-password' })).data;
  const refresh = (session) => auth.refresh({ refresh_token: session.refresh_token });
  const sessions = [];
  for (let i = 0; i < 20; i++) sessions.push(await login());
  const editor = (await auth.login({ username: 'editor', password: 'editor-dev-password' })).data;
  sessions[0] = (await refresh(sessions[0])).data;
  sessions.push(await login());
  t.equal((await refresh(sessions[1])).status, 401, 'the least recently used login ended');
  for (const i of [0, 2, 19, 20]) {
    const renewed = await refresh(sessions[i]);
    t.equal(renewed.status, 200, `login ${i} goes on`);
    sessions[i] = renewed.data;
  }
  t.equal((await refresh(editor)).status, 200, "another user's logins do not count");

  // a login revoked for a reuse is kept to recognise more reuses, but goes before live ones
  const stolen = sessions[2];
  const renewed = (await refresh(stolen)).data;
  t.equal((await refresh(stolen)).status, 401, 'reused: the login is revoked');
  t.equal((await refresh(renewed)).status, 401);
  sessions.push(await login());
  for (const i of [0, 3, 19, 20, 21]) t.equal((await refresh(sessions[i])).status, 200, `login ${i} still goes on`);
});

t.test('a login remembers its 32 newest used refresh tokens: older ones are only invalid', async (t) => {
  const { auth } = configured();
  const first = (await auth.login({ username: 'admin', password: 'admin-dev-password' })).data;
  const used = [first.refresh_token];
  let current = first;
  for (let i = 0; i < 33; i++) {
    current = (await auth.refresh({ refresh_token: current.refresh_token })).data;
    used.push(current.refresh_token);
  }
  used.pop(); // the live one
  t.equal(used.length, 33);
  t.strictSame(await auth.refresh({ refresh_token: used[0] }), {
    status: 401,
    error: 'refresh token is invalid, expired or already used (log in again at POST /__mock/auth/login)',
  }, 'forgotten: refused, the login goes on');
  const next = await auth.refresh({ refresh_token: current.refresh_token });
  t.equal(next.status, 200);
  t.match((await auth.refresh({ refresh_token: used[2] })).error, /already used, so every token of its login is revoked/, 'a remembered one revokes the login');
  t.equal((await auth.refresh({ refresh_token: next.data.refresh_token })).status, 401);
});

t.test('expired logins are forgotten at the next login', async (t) => {
  const { auth, clock } = configured({ refreshTtlSeconds: 600 });
  const login = async () => (await auth.login({ username: 'viewer', password: 'viewer-dev-password' })).data;
  for (let i = 0; i < 20; i++) await login();
  clock.t += 600_000;
  const fresh = [];
  for (let i = 0; i < 20; i++) fresh.push(await login());
  for (const session of fresh) t.equal((await auth.refresh({ refresh_token: session.refresh_token })).status, 200, 'expired logins took no room');
});

t.test('logout with only a refresh token, and bad logout bodies', async (t) => {
  const { auth } = configured();
  const { data } = await auth.login({ username: 'viewer', password: 'viewer-dev-password' });
  t.strictSame(await auth.logout({}, { refresh_token: data.refresh_token }), { status: 200, data: { message: 'logged out' } });
  t.equal((await auth.refresh({ refresh_token: data.refresh_token })).status, 401);
  t.strictSame(await auth.logout({}, {}), {
    status: 400,
    error: 'logout needs refresh_token in the body or an Authorization: Bearer <access token> header',
  });
  t.strictSame(await auth.logout({}, 'x'), { status: 400, error: 'logout body must be a JSON object with refresh_token, or empty' });
  t.strictSame(await auth.logout({}, { refresh_token: 7 }), {
    status: 400,
    error: 'logout body field refresh_token must be a non-empty string',
  });
});

t.test('tokens signed elsewhere, or unsigned, are refused', async (t) => {
  const { auth } = setup({ jwtSecret: 'a'.repeat(32), users: ROOT });
  const other = setup({ jwtSecret: 'b'.repeat(32), users: ROOT }).auth;
  const foreign = (await other.login({ username: 'root', password: 'root-password' })).data.access_token;
  const invalid = {
    status: 401,
    error: 'access token is not valid for this server (log in at POST /__mock/auth/login for a new one)',
  };
  t.strictSame(await auth.me(bearer(foreign)), invalid);

  const now = Math.floor(START / 1000);
  const payload = Buffer.from(JSON.stringify({ sub: 'root', role: 'admin', iss: 'mock', iat: now, exp: now + 900, jti: 'x' })).toString('base64url');
  const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
  t.strictSame(await auth.me(bearer(unsigned)), invalid);

  const key = new TextEncoder().encode('a'.repeat(32));
  const badRole = await new SignJWT({ role: 'superuser' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('root')
    .setIssuer('mock')
    .setIssuedAt(now)
    .setExpirationTime(now + 900)
    .setJti('y')
    .sign(key);
  t.strictSame(await auth.me(bearer(badRole)), invalid, 'a role outside admin, editor, viewer');

  // Same secret, so the same server accepts its own token across instances (a restart with JWT_SECRET).
  const restarted = setup({ jwtSecret: 'a'.repeat(32), users: ROOT }).auth;
  const own = (await auth.login({ username: 'root', password: 'root-password' })).data.access_token;
  t.equal((await restarted.me(bearer(own))).status, 200);
});

t.test('auth disabled: login, refresh, logout, me and users answer 404', async (t) => {
  const off = createAuth({ enabled: false, seedDevUsers: true, logger: quiet });
  const disabled = {
    status: 404,
    error: 'authentication is disabled (set admin.auth.enabled: true or MOCK_ADMIN_AUTH_ENABLED=true)',
  };
  t.strictSame(await off.login({ username: 'admin', password: 'admin-dev-password' }), disabled);
  t.strictSame(await off.refresh({ refresh_token: 'x' }), disabled);
  t.strictSame(await off.logout({}, { refresh_token: 'x' }), disabled);
  t.strictSame(await off.me({ authorization: 'Bearer x' }), disabled);
  t.strictSame(await off.listUsers(), disabled);
  t.strictSame(await off.createUser({ username: 'a', password: 'password1', role: 'admin' }), disabled);
  t.strictSame(await off.deleteUser('admin'), disabled);
});

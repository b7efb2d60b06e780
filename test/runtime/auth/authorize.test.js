// runtime/control/auth authorize(): open reads, hosted-mode management token, JWT role checks per endpoint.
import t from 'tap';
import { createAuth, accessFor } from '../../../dist/runtime/control/auth/index.js';

const quiet = { warn() {} };
const auth = createAuth({ enabled: true, seedDevUsers: true, logger: quiet });

const bearerFor = async (username) => {
  const { status, data } = await auth.login({ username, password: `${username}-dev-password` });
  if (status !== 200) throw new Error(`login ${username} gave ${status}`);
  return { authorization: `Bearer ${data.access_token}` };
};
const [admin, editor, viewer] = await Promise.all(['admin', 'editor', 'viewer'].map(bearerFor));
const as = (headers, method, endpoint) => auth.authorize({ method, endpoint, headers });

t.test('reads are open without any token, except auth/me and auth/users', async (t) => {
  for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) {
    for (const endpoint of ['mocks', 'config', 'logs', 'env', 'fixtures/download', 'smoke/run']) {
      t.strictSame(await as({}, method, endpoint), { ok: true, user: null }, `${method} ${endpoint}`);
    }
  }
  const me = await as({}, 'GET', 'auth/me');
  t.equal(me.status, 401);
  t.match(me.error, /^missing Authorization header: send "Authorization: Bearer <access token>" \(log in at POST \/__mock\/auth\/login/);
  t.strictSame(await as(viewer, 'GET', 'auth/me'), { ok: true, user: { username: 'viewer', role: 'viewer' } });
  t.equal((await as({}, 'GET', 'auth/users')).status, 401);
  t.strictSame(await as(editor, 'GET', 'auth/users'), { ok: false, status: 403, error: 'role editor may not GET auth/users (needs admin)' });
  t.strictSame(await as(admin, 'GET', 'auth/users'), { ok: true, user: { username: 'admin', role: 'admin' } });
});

t.test('writes need a bearer token; login, refresh and logout do not', async (t) => {
  const missing = await as({}, 'POST', 'mocks');
  t.equal(missing.ok, false);
  t.equal(missing.status, 401);
  t.match(missing.error, /log in at POST \/__mock\/auth\/login/);
  const malformed = await as({ authorization: 'Basic YWRtaW46eA==' }, 'POST', 'mocks');
  t.equal(malformed.status, 401);
  t.match(malformed.error, /^Authorization header is not "Bearer <access token>"/);
  const garbage = await as({ authorization: 'Bearer not.a.jwt' }, 'POST', 'mocks');
  t.equal(garbage.status, 401);
  t.match(garbage.error, /^access token is not valid for this server/);
  for (const endpoint of ['auth/login', 'auth/refresh', 'auth/logout']) {
    t.strictSame(await as({}, 'POST', endpoint), { ok: true, user: null }, endpoint);
  }
});

t.test('viewer writes nothing', async (t) => {
  t.strictSame(await as(viewer, 'POST', 'mocks'), { ok: false, status: 403, error: 'role viewer may not POST mocks (needs editor or admin)' });
  t.strictSame(await as(viewer, 'DELETE', 'fixtures/abc'), {
    ok: false,
    status: 403,
    error: 'role viewer may not DELETE fixtures/abc (needs editor or admin)',
  });
  t.strictSame(await as(viewer, 'post', 'config/latency'), {
    ok: false,
    status: 403,
    error: 'role viewer may not POST config/latency (needs admin)',
  });
});

t.test('editor writes mocks and fixtures only', async (t) => {
  const editorUser = { ok: true, user: { username: 'editor', role: 'editor' } };
  for (const [method, endpoint] of [
    ['POST', 'mocks'],
    ['PUT', 'mocks/abc'],
    ['DELETE', 'mocks/abc'],
    ['POST', 'fixtures'],
    ['PUT', 'fixtures/f1'],
    ['POST', 'fixtures/delete'],
    ['POST', 'fixtures/delete-bulk'],
    ['PUT', 'overrides'],
    ['POST', 'smoke/run'],
  ]) {
    t.strictSame(await as(editor, method, endpoint), editorUser, `${method} ${endpoint}`);
  }
  for (const [method, endpoint] of [
    ['POST', 'config'],
    ['POST', 'config/latency'],
    ['POST', 'env'],
    ['POST', 'files/save'],
    ['POST', 'validation'],
    ['POST', 'servers/restart'],
    ['POST', 'logs/clear'],
    ['POST', 'auth/users'],
    ['DELETE', 'auth/users/viewer'],
    // Prefix rows cover what is below a name, not names that merely start the same.
    ['POST', 'mocksfoo'],
  ]) {
    t.strictSame(
      await as(editor, method, endpoint),
      { ok: false, status: 403, error: `role editor may not ${method} ${endpoint} (needs admin)` },
      `${method} ${endpoint}`,
    );
  }
});

t.test('admin writes everything', async (t) => {
  const adminUser = { ok: true, user: { username: 'admin', role: 'admin' } };
  for (const [method, endpoint] of [
    ['POST', 'mocks'],
    ['POST', 'fixtures/delete'],
    ['POST', 'config/faults'],
    ['POST', 'env'],
    ['POST', 'files/save'],
    ['POST', 'validation'],
    ['POST', 'servers/restart'],
    ['POST', 'logs/clear'],
    ['POST', 'auth/users'],
    ['DELETE', 'auth/users/viewer'],
    ['POST', 'chaos/some-new-endpoint'],
  ]) {
    t.strictSame(await as(admin, method, endpoint), adminUser, `${method} ${endpoint}`);
  }
});

t.test('the permission table answers for unknown endpoints with admin-only writes', async (t) => {
  t.equal(accessFor('POST', 'something/new'), 'admin');
  t.equal(accessFor('GET', 'something/new'), 'open');
  t.equal(accessFor('PATCH', 'mocks/1'), 'editor');
  t.equal(accessFor('GET', 'auth/me'), 'user');
});

t.test('state machines: reads open, writes for editors', async (t) => {
  t.equal(accessFor('GET', 'state'), 'open');
  t.equal(accessFor('GET', 'state/orders/ord_1'), 'open');
  t.equal(accessFor('DELETE', 'state'), 'editor', 'reset all');
  t.equal(accessFor('DELETE', 'state/orders'), 'editor');
  t.equal(accessFor('PUT', 'state/orders/ord_1'), 'editor');
});

t.test('auth disabled allows everything', async (t) => {
  const off = createAuth({ enabled: false, seedDevUsers: true, logger: quiet });
  t.equal(off.enabled, false);
  for (const [method, endpoint] of [
    ['POST', 'mocks'],
    ['POST', 'auth/users'],
    ['POST', 'servers/restart'],
    ['GET', 'auth/me'],
    ['GET', 'auth/users'],
  ]) {
    t.strictSame(await off.authorize({ method, endpoint, headers: {} }), { ok: true, user: null }, `${method} ${endpoint}`);
  }
});

t.test('hosted mode: writes need the management token, reads stay open', async (t) => {
  const token = 'hosted-token-0123456789abcdefghij';
  const hosted = createAuth({ enabled: false, seedDevUsers: true, managementToken: token, logger: quiet });
  const expected = {
    ok: false,
    status: 401,
    error: 'missing or wrong X-Mock-Management-Token header (hosted mode requires it on writes)',
  };
  const call = (method, endpoint, headers = {}) => hosted.authorize({ method, endpoint, headers });
  t.strictSame(await call('POST', 'mocks'), expected, 'missing');
  t.strictSame(await call('POST', 'mocks', { 'x-mock-management-token': 'wrong' }), expected, 'wrong');
  t.strictSame(await call('POST', 'mocks', { 'x-mock-management-token': `${token}x` }), expected, 'longer');
  t.strictSame(await call('POST', 'mocks', { 'x-mock-management-token': token }), { ok: true, user: null }, 'right');
  t.strictSame(await call('DELETE', 'mocks/1', { 'x-mock-management-token': [token] }), { ok: true, user: null }, 'array header');
  t.strictSame(await call('GET', 'mocks'), { ok: true, user: null }, 'reads open');
  t.strictSame(await call('OPTIONS', 'config'), { ok: true, user: null }, 'preflight open');
  // With JWT auth off there is nothing to log in to, so login is a write like any other.
  t.strictSame(await call('POST', 'auth/login'), expected);
});

t.test('hosted mode with JWT auth: login and refresh are exempt, everything else needs both', async (t) => {
  const token = 'hosted-token-0123456789abcdefghij';
  const both = createAuth({ enabled: true, seedDevUsers: true, managementToken: token, logger: quiet });
  const call = (method, endpoint, headers = {}) => both.authorize({ method, endpoint, headers });
  t.strictSame(await call('POST', 'auth/login'), { ok: true, user: null });
  t.strictSame(await call('POST', 'auth/refresh'), { ok: true, user: null });
  t.equal((await call('POST', 'auth/logout')).status, 401);
  t.strictSame(await call('GET', 'mocks'), { ok: true, user: null });

  const { data } = await both.login({ username: 'editor', password: 'editor-dev-password' });
  const bearer = { authorization: `Bearer ${data.access_token}` };
  const noManagement = await call('POST', 'mocks', bearer);
  t.equal(noManagement.status, 401);
  t.match(noManagement.error, /X-Mock-Management-Token/);
  const noBearer = await call('POST', 'mocks', { 'x-mock-management-token': token });
  t.equal(noBearer.status, 401);
  t.match(noBearer.error, /Authorization/);
  t.strictSame(await call('POST', 'mocks', { ...bearer, 'x-mock-management-token': token }), {
    ok: true,
    user: { username: 'editor', role: 'editor' },
  });
});

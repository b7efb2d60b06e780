// Admin API authentication through the real CLI over HTTP (docs/admin.md "Authentication"):
// the self-hosted default (no auth), JWT login with the development users and roles, configured
// users with JWT_SECRET, tokens (me, refresh, logout, expiry, forgery), user management, hosted
// mode with the management token, and the startup errors for secrets that are too short.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { buildOnce, root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { readAnswer } from '../helpers/admin.js';
import { until } from '../helpers/wait.js';

const SPEC = path.join(root, 'examples', 'petstore.yaml');
// One build for every server of this file, made first: the servers start side by side.
const OUT = await buildOnce(SPEC);
// The tests run two at a time (t.jobs = 2): each has servers and folders of its own.
t.jobs = 2;

// The tests decide every auth setting themselves: whatever the caller's shell has is dropped.
const CLEAN_ENV = {
  MOCK_ADMIN_AUTH_ENABLED: undefined,
  JWT_SECRET: undefined,
  MOCK_DISABLE_DEV_SEED_USERS: undefined,
  MOCK_MANAGEMENT_TOKEN: undefined,
};

const DEV_USERS = {
  admin: 'admin-dev-password',
  editor: 'editor-dev-password',
  viewer: 'viewer-dev-password',
};
const DEV_WARNING = /development users are seeded \(admin \/ admin-dev-password, editor \/ editor-dev-password, viewer \/ viewer-dev-password\)[^\n]*MOCK_DISABLE_DEV_SEED_USERS=true/;

/** `mock serve` on the petstore with the admin server on its own port; cwd is a fresh directory (files/save writes there). */
async function serve(t, { env = {}, config } = {}) {
  const cwd = tmpdir();
  const args = ['--spec', SPEC, '--out', OUT, '--admin', '--admin-port', '0'];
  if (config !== undefined) {
    const file = path.join(cwd, 'mock.yaml');
    writeFileSync(file, config);
    args.push('--config', file);
  }
  const server = await startMock(args, { cwd, env: { ...CLEAN_ENV, ...env } });
  t.teardown(() => server.stop());
  t.ok(server.adminUrl, 'the admin server announced its address');
  return { ...server, cwd, log: () => server.stdout + server.stderr };
}

/**
 * One HTTP request; the body is JSON unless given as a string. `connection: close`: a kept-alive
 * connection holds `mock serve` open after SIGTERM until the client drops it (about 4 s each stop).
 */
async function call(base, method, p, { token, body, headers = {} } = {}) {
  const h = { connection: 'close', ...headers };
  if (token !== undefined) h.authorization = `Bearer ${token}`;
  let payload;
  if (body !== undefined) {
    h['content-type'] = 'application/json';
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(base + p, { method, headers: h, body: payload });
  return readAnswer(res);
}

const login = (base, username, password) => call(base, 'POST', '/__mock/auth/login', { body: { username, password } });

async function tokensOf(t, base, username, password) {
  const res = await login(base, username, password);
  t.equal(res.status, 200, `${username} logs in`);
  return res.json.data;
}

/** The claims of a JWT, read without verifying it. */
const claimsOf = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));

/** An HS256 token shaped like the server's own, signed with `secret` (`acc`: the account of a user from mock.yaml). */
function mint(secret, { sub, role, iat, exp, iss = 'mock', jti = 'e2e-minted', acc = `configured:${sub}` }) {
  return new SignJWT({ role, acc })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuer(iss)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(jti)
    .sign(new TextEncoder().encode(secret));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Waits until `probe()` is true (the server's log is written asynchronously). */
async function eventually(probe, ms = 3000) {
  const end = Date.now() + ms;
  while (!probe() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return probe();
}

const mockRecord = (name) => ({ name, method: 'GET', path: `/e2e-auth/${name}`, response: { body: { made_by: name } }, status_code: 200 });

const countOf = (text, needle) => text.split(needle).length - 1;

// ---------------------------------------------------------------------------------------------
t.test('self-hosted default (no auth settings): writes are open and login is 404', async (t) => {
  const s = await serve(t);

  const created = await call(s.adminUrl, 'POST', '/__mock/api/mocks', { body: mockRecord('open') });
  t.equal(created.status, 201, 'POST /__mock/api/mocks works without any header');
  t.equal(created.json.success, true);
  const viaManagement = await call(s.url, 'POST', '/__mock/mocks', { body: mockRecord('open-mgmt') });
  t.equal(viaManagement.status, 201, 'so does POST /__mock/mocks on the HTTP mock port');
  const served = await call(s.url, 'GET', '/e2e-auth/open');
  t.equal(served.status, 200);
  t.same(served.json, { made_by: 'open' }, 'the runtime mock answers');

  const latency = await call(s.adminUrl, 'POST', '/__mock/config/latency', { body: { config_type: 'latency', data: { enabled: false, base_ms: 0 } } });
  t.equal(latency.status, 200, 'admin-only writes are open too');
  const overrides = await call(s.adminUrl, 'PUT', '/__mock/overrides', { body: [] });
  t.equal(overrides.status, 200);

  for (const [method, p, body] of [
    ['POST', '/__mock/auth/login', { username: 'admin', password: DEV_USERS.admin }],
    ['POST', '/__mock/api/auth/login', { username: 'admin', password: DEV_USERS.admin }],
    ['POST', '/__mock/auth/refresh', { refresh_token: 'x' }],
    ['POST', '/__mock/auth/logout', { refresh_token: 'x' }],
    ['GET', '/__mock/auth/me'],
    ['GET', '/__mock/auth/users'],
  ]) {
    const res = await call(s.adminUrl, method, p, { body });
    t.equal(res.status, 404, `${method} ${p} answers 404 with auth off`);
    t.equal(res.json?.success, false);
    t.match(res.json?.error, /authentication is disabled/);
    t.match(res.json?.error, /MOCK_ADMIN_AUTH_ENABLED=true/, 'the error says how to enable auth');
    t.match(res.json?.error, /admin\.auth\.enabled: true/);
  }
  // nothing about users or tokens when auth is off
  t.notMatch(s.log(), /development users/, 'no dev-users warning without auth');
});

// ---------------------------------------------------------------------------------------------
t.test('auth on with the development users (MOCK_ADMIN_AUTH_ENABLED=true, no JWT_SECRET)', async (t) => {
  const s = await serve(t, { env: { MOCK_ADMIN_AUTH_ENABLED: 'true' } });
  const admin = s.adminUrl;

  t.test('the startup warning names the three users, the admin address and MOCK_DISABLE_DEV_SEED_USERS, once', async (t) => {
    t.ok(await eventually(() => DEV_WARNING.test(s.log())), `warning in the log:\n${s.log()}`);
    t.match(s.log(), `anyone who can reach the admin API at ${admin} can log in`, 'names where the admin listens');
    t.match(s.log(), /JWT_SECRET is not set/);
    t.equal(countOf(s.log(), 'development users are seeded'), 1, 'one warning');
  });

  const tokens = {};
  t.test('login for admin, editor and viewer returns the documented body', async (t) => {
    for (const [username, password] of Object.entries(DEV_USERS)) {
      const res = await login(admin, username, password);
      t.equal(res.status, 200, `${username} logs in`);
      t.equal(res.json.success, true);
      const data = res.json.data;
      t.type(data.access_token, 'string');
      t.match(data.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the access token is a JWT');
      t.type(data.refresh_token, 'string');
      t.ok(data.refresh_token.length >= 16, 'a refresh token of some length');
      t.not(data.refresh_token, data.access_token);
      t.equal(data.token_type, 'Bearer');
      t.equal(data.expires_in, 900, 'access tokens last 15 minutes by default');
      t.same(data.user, { username, role: username });
      const claims = claimsOf(data.access_token);
      t.equal(claims.sub, username);
      t.equal(claims.role, username);
      t.equal(claims.iss, 'mock');
      t.equal(claims.exp - claims.iat, 900);
      t.type(claims.jti, 'string');
      t.equal(JSON.parse(Buffer.from(data.access_token.split('.')[0], 'base64url')).alg, 'HS256');
      tokens[username] = data.access_token;
    }
    t.not(tokens.admin, tokens.editor);
  });

  t.test('wrong password and unknown user get the same 401', async (t) => {
    const wrong = await login(admin, 'admin', 'not-the-password');
    const unknown = await login(admin, 'nobody-here', 'admin-dev-password');
    t.equal(wrong.status, 401);
    t.equal(unknown.status, 401);
    t.equal(wrong.json.success, false);
    t.match(wrong.json.error, /invalid username or password/);
    t.equal(wrong.json.error, unknown.json.error, 'the message does not tell which was wrong');
    t.equal(wrong.json.data, null);
    t.notMatch(wrong.text, /access_token/);
    const editorWithAdminPassword = await login(admin, 'editor', DEV_USERS.admin);
    t.equal(editorWithAdminPassword.status, 401, "another user's password does not work");
  });

  t.test('malformed login bodies are 400', async (t) => {
    const notJson = await call(admin, 'POST', '/__mock/auth/login', { body: 'username=admin&password=x' });
    t.equal(notJson.status, 400, 'a body that is not JSON');
    t.match(notJson.json.error, /JSON/);
    const noPassword = await call(admin, 'POST', '/__mock/auth/login', { body: { username: 'admin' } });
    t.equal(noPassword.status, 400, 'no password');
    t.match(noPassword.json.error, /password/);
    const emptyPassword = await call(admin, 'POST', '/__mock/auth/login', { body: { username: 'admin', password: '' } });
    t.equal(emptyPassword.status, 400, 'an empty password');
    t.match(emptyPassword.json.error, /password/);
    const noUsername = await call(admin, 'POST', '/__mock/auth/login', { body: { password: 'x' } });
    t.equal(noUsername.status, 400, 'no username');
    t.match(noUsername.json.error, /username/);
    const array = await call(admin, 'POST', '/__mock/auth/login', { body: ['admin', DEV_USERS.admin] });
    t.equal(array.status, 400, 'an array');
    const empty = await call(admin, 'POST', '/__mock/auth/login');
    t.equal(empty.status, 400, 'no body at all');
  });

  t.test('GET under /__mock is open for everybody, with or without a token', async (t) => {
    const reads = [
      [admin, '/__mock/dashboard'],
      [admin, '/__mock/logs'],
      [admin, '/__mock/config'],
      [admin, '/__mock/mocks'],
      [admin, '/__mock/api/mocks'],
      [admin, '/__mock/overrides'],
      [admin, '/__mock/env'],
      [admin, '/__mock/servers/restart/status'],
      [s.url, '/__mock/mocks'],
      [s.url, '/__mock/health'],
    ];
    for (const who of [undefined, 'viewer', 'editor', 'admin']) {
      for (const [base, p] of reads) {
        const res = await call(base, 'GET', p, { token: who && tokens[who] });
        t.equal(res.status, 200, `GET ${p} on the ${base === admin ? 'admin' : 'mock'} port as ${who ?? 'nobody'}`);
      }
    }
  });

  t.test('GET /__mock/smoke/run starts requests: it needs the editor role, as the writes it resembles', async (t) => {
    const none = await call(admin, 'GET', '/__mock/smoke/run');
    t.equal(none.status, 401, 'without a login');
    t.match(none.json.error, /missing Authorization header/);
    const viewer = await call(admin, 'GET', '/__mock/api/smoke/run', { token: tokens.viewer });
    t.equal(viewer.status, 403, 'as a viewer');
    t.match(viewer.json.error, /role viewer may not POST smoke\/run \(needs editor or admin\)/);
    const editor = await call(admin, 'GET', '/__mock/smoke/run', { token: tokens.editor });
    t.equal(editor.status, 200, 'an editor runs it');
    t.match(editor.json.data.message, /no smoke-test fixtures/);
    const page = await call(admin, 'GET', '/__mock/smoke/run', { token: tokens.admin, headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' } });
    t.equal(page.status, 403, 'a browser request without the browser token, whoever is logged in');
    t.match(page.json.error, /X-Mock-Admin-Token/);
  });

  t.test('the mocked API never needs a token', async (t) => {
    t.equal((await call(s.url, 'GET', '/v1/pets/1')).status, 200);
    t.equal((await call(s.url, 'POST', '/v1/pets', { body: { name: 'Tom', kind: 'cat' } })).status, 201);
    t.equal((await call(s.url, 'DELETE', '/v1/pets/1')).status, 204);
  });

  t.test('writes to mocks: 401 without a token, 403 for viewer, allowed for editor and admin', async (t) => {
    const before = (await call(admin, 'GET', '/__mock/api/mocks')).json.data.length;
    // the admin port under both prefixes, and the HTTP mock port's management router
    const places = [
      [admin, '/__mock/api/mocks'],
      [admin, '/__mock/mocks'],
      [s.url, '/__mock/mocks'],
    ];
    for (const [base, p] of places) {
      const where = `${base === admin ? 'admin' : 'mock'} port ${p}`;
      const none = await call(base, 'POST', p, { body: mockRecord('nobody') });
      t.equal(none.status, 401, `POST ${where} without a token`);
      t.equal(none.json.success, false);
      t.match(none.json.error, /Authorization/, 'the 401 says which header is missing');
      t.match(none.json.error, /POST \/__mock\/auth\/login/, 'and where to log in');

      const garbage = await call(base, 'POST', p, { body: mockRecord('garbage'), headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
      t.equal(garbage.status, 401, `POST ${where} with Basic credentials`);

      const viewer = await call(base, 'POST', p, { token: tokens.viewer, body: mockRecord('viewer') });
      t.equal(viewer.status, 403, `POST ${where} as viewer`);
      t.match(viewer.json.error, /role viewer/, 'the 403 names the role');
      t.match(viewer.json.error, /needs editor or admin/, 'and the roles that may');
    }
    for (const p of ['/__mock/api/mocks/', '/__mock/mocks?x=1', '/__mock/api/mocks/?x=1']) {
      t.equal((await call(admin, 'POST', p, { body: mockRecord('variant') })).status, 401, `POST ${p} without a token`);
      t.equal((await call(admin, 'POST', p, { token: tokens.viewer, body: mockRecord('variant') })).status, 403, `POST ${p} as viewer`);
    }
    const after = (await call(admin, 'GET', '/__mock/api/mocks')).json.data.length;
    t.equal(after, before, 'refused writes created nothing');

    for (const [base, p] of places) {
      const where = `${base === admin ? 'admin' : 'mock'} port ${p}`;
      for (const who of ['editor', 'admin']) {
        const name = `${who}-${base === admin ? 'a' : 'm'}-${p.includes('/api/') ? 'api' : 'plain'}`;
        const created = await call(base, 'POST', p, { token: tokens[who], body: mockRecord(name) });
        t.equal(created.status, 201, `POST ${where} as ${who}`);
        const id = created.json.data.id;
        t.same((await call(s.url, 'GET', `/e2e-auth/${name}`)).json, { made_by: name }, 'the mock serves without a token');

        const update = { ...mockRecord(name), response: { body: { made_by: name, updated: true } } };
        t.equal((await call(base, 'PUT', `${p}/${id}`, { body: update })).status, 401, `PUT ${where}/{id} without a token`);
        const viewerPut = await call(base, 'PUT', `${p}/${id}`, { token: tokens.viewer, body: update });
        t.equal(viewerPut.status, 403, `PUT ${where}/{id} as viewer`);
        t.match(viewerPut.json.error, /role viewer/);
        const put = await call(base, 'PUT', `${p}/${id}`, { token: tokens[who], body: update });
        t.equal(put.status, 200, `PUT ${where}/{id} as ${who}`);
        t.same((await call(s.url, 'GET', `/e2e-auth/${name}`)).json, { made_by: name, updated: true });

        t.equal((await call(base, 'DELETE', `${p}/${id}`)).status, 401, `DELETE ${where}/{id} without a token`);
        const viewerDelete = await call(base, 'DELETE', `${p}/${id}`, { token: tokens.viewer });
        t.equal(viewerDelete.status, 403, `DELETE ${where}/{id} as viewer`);
        t.match(viewerDelete.json.error, /role viewer/);
        const del = await call(base, 'DELETE', `${p}/${id}`, { token: tokens[who] });
        t.equal(del.status, 200, `DELETE ${where}/{id} as ${who}`);
        t.equal((await call(s.url, 'GET', `/e2e-auth/${name}`)).status, 404, 'the mock is gone');
      }
    }
    // the collection forms: DELETE /__mock/api/mocks with the id in the query
    const made = await call(admin, 'POST', '/__mock/api/mocks', { token: tokens.editor, body: mockRecord('by-query') });
    t.equal(made.status, 201);
    const viewerDelete = await call(admin, 'DELETE', `/__mock/api/mocks?id=${made.json.data.id}`, { token: tokens.viewer });
    t.equal(viewerDelete.status, 403, 'DELETE /__mock/api/mocks?id= as viewer');
    const byQuery = await call(admin, 'DELETE', `/__mock/api/mocks?id=${made.json.data.id}`, { token: tokens.editor });
    t.equal(byQuery.status, 200, 'DELETE /__mock/api/mocks?id= as editor');
  });

  t.test('writes by role: editor manages mocks and overrides only, admin everything', async (t) => {
    const matrix = [
      { method: 'PUT', path: '/__mock/overrides', body: () => [], needs: 'editor', ok: 200 },
      { method: 'PUT', path: '/__mock/api/overrides', body: () => ({ rules: [] }), needs: 'editor', ok: 200 },
      { method: 'POST', path: '/__mock/config/latency', body: () => ({ config_type: 'latency', data: { enabled: false, base_ms: 0 } }), needs: 'admin', ok: 200 },
      { method: 'POST', path: '/__mock/api/config/latency', body: () => ({ enabled: false }), needs: 'admin', ok: 200 },
      { method: 'POST', path: '/__mock/config', body: () => ({ latency: { enabled: false } }), needs: 'admin', ok: 200 },
      { method: 'POST', path: '/__mock/env', body: (who) => ({ key: 'MOCK_E2E_AUTH_MARKER', value: who ?? 'nobody' }), needs: 'admin', ok: 200 },
      { method: 'POST', path: '/__mock/files/save', body: (who) => ({ file_path: 'e2e-auth-saved.txt', content: `saved by ${who ?? 'nobody'}` }), needs: 'admin', ok: 200 },
      { method: 'POST', path: '/__mock/logs/clear', needs: 'admin', ok: 200 },
      { method: 'POST', path: '/__mock/validation', body: () => ({ mode: 'enforce' }), needs: 'admin', ok: 200 },
      { method: 'POST', path: '/__mock/auth/users', body: () => ({ username: 'matrix-viewer', password: 'matrix-viewer-pw', role: 'viewer' }), needs: 'admin', ok: 201 },
      { method: 'POST', path: '/__mock/servers/restart', body: () => ({ reason: 'admin-auth e2e' }), needs: 'admin', ok: 200 },
    ];
    for (const row of matrix) {
      const { method, path: p, needs } = row;
      const send = (who) => call(admin, method, p, { token: who && tokens[who], body: row.body?.(who) });

      const none = await send(undefined);
      t.equal(none.status, 401, `${method} ${p} without a token`);
      t.match(none.json.error, /Authorization/);

      const viewer = await send('viewer');
      t.equal(viewer.status, 403, `${method} ${p} as viewer`);
      t.match(viewer.json.error, /role viewer/, 'the 403 names the role');
      t.match(viewer.json.error, needs === 'admin' ? /needs admin\)/ : /needs editor or admin\)/);

      const editor = await send('editor');
      if (needs === 'editor') {
        t.equal(editor.status, row.ok, `${method} ${p} as editor`);
      } else {
        t.equal(editor.status, 403, `${method} ${p} as editor`);
        t.match(editor.json.error, /role editor/, 'the 403 names the role');
        t.match(editor.json.error, /needs admin\)/);
      }

      const adminRes = await send('admin');
      t.equal(adminRes.status, row.ok, `${method} ${p} as admin: ${adminRes.text.slice(0, 200)}`);
      t.equal(adminRes.json.success, true);
    }

    // only the admin's writes took effect
    const env = await call(admin, 'GET', '/__mock/env');
    t.equal(env.json.data.MOCK_E2E_AUTH_MARKER, 'admin', 'the env variable holds the value the admin set');
    const saved = path.join(s.cwd, 'e2e-auth-saved.txt');
    t.equal(existsSync(saved) && readFileSync(saved, 'utf8'), 'saved by admin', 'files/save wrote the admin version');
    const config = await call(admin, 'GET', '/__mock/config');
    t.equal(config.json.data.latency.enabled, false, 'latency stays disabled');
    t.equal(config.json.data.validation.mode, 'enforce');

    // the restart finishes and the mocked API keeps answering
    let status;
    const end = Date.now() + 30_000;
    do {
      status = (await call(admin, 'GET', '/__mock/servers/restart/status')).json.data;
      if (!status.in_progress) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < end);
    t.equal(status.in_progress, false, 'the restart finished');
    t.equal(status.success, true, `the restart succeeded: ${JSON.stringify(status)}`);
    t.equal(status.reason, 'admin-auth e2e', 'it is the admin’s restart');
    t.equal((await call(s.url, 'GET', '/v1/pets/1')).status, 200);
    t.equal((await call(admin, 'GET', '/__mock/logs')).status, 200);
  });

  t.test('GET /__mock/auth/me', async (t) => {
    for (const who of ['admin', 'editor', 'viewer']) {
      const me = await call(admin, 'GET', '/__mock/auth/me', { token: tokens[who] });
      t.equal(me.status, 200, `me as ${who}`);
      t.same(Object.keys(me.json.data).sort(), ['expires_at', 'role', 'username']);
      t.equal(me.json.data.username, who);
      t.equal(me.json.data.role, who);
      t.equal(me.json.data.expires_at, new Date(claimsOf(tokens[who]).exp * 1000).toISOString(), 'expires_at is the token’s exp');
    }
    const apiPrefix = await call(admin, 'GET', '/__mock/api/auth/me', { token: tokens.viewer });
    t.equal(apiPrefix.status, 200, '/__mock/api/auth/me too');
    const none = await call(admin, 'GET', '/__mock/auth/me');
    t.equal(none.status, 401, 'me without a token');
    t.match(none.json.error, /Authorization/);
    const garbage = await call(admin, 'GET', '/__mock/auth/me', { token: 'not.a.jwt' });
    t.equal(garbage.status, 401, 'me with a garbage token');
  });

  t.test('forged and garbage tokens are 401', async (t) => {
    const claims = claimsOf(tokens.admin);
    const forged = await mint('another-secret-that-is-long-enough-0123456789', { sub: 'admin', role: 'admin', iat: claims.iat, exp: claims.exp });
    const escalated = (() => {
      // the editor's token with role admin in the payload and the original signature
      const [h, , sig] = tokens.editor.split('.');
      const payload = Buffer.from(JSON.stringify({ ...claimsOf(tokens.editor), role: 'admin' })).toString('base64url');
      return `${h}.${payload}.${sig}`;
    })();
    const unsigned = (() => {
      const h = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${h}.${p}.`;
    })();
    for (const [what, token] of [
      ['signed with another secret', forged],
      ['with a tampered role claim', escalated],
      ['with alg none', unsigned],
      ['that is garbage', 'garbage'],
      ['that is a refresh token', (await tokensOf(t, admin, 'editor', DEV_USERS.editor)).refresh_token],
    ]) {
      const write = await call(admin, 'POST', '/__mock/api/mocks', { token, body: mockRecord('forged') });
      t.equal(write.status, 401, `a write with a token ${what}`);
      t.match(write.json.error, /access token is not valid|Authorization header/, write.json.error);
      const me = await call(admin, 'GET', '/__mock/auth/me', { token });
      t.equal(me.status, 401, `me with a token ${what}`);
      const users = await call(admin, 'GET', '/__mock/auth/users', { token });
      t.equal(users.status, 401, `GET auth/users with a token ${what}`);
    }
    const malformed = await call(admin, 'POST', '/__mock/api/mocks', { body: mockRecord('x'), headers: { authorization: `Token ${tokens.admin}` } });
    t.equal(malformed.status, 401, 'an Authorization header that is not Bearer');
    t.match(malformed.json.error, /Bearer/);
  });

  t.test('refresh gives a new pair; the old refresh token presented again revokes the pair rotated from it (RFC 9700)', async (t) => {
    const first = await tokensOf(t, admin, 'viewer', DEV_USERS.viewer);
    const refreshed = await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: first.refresh_token } });
    t.equal(refreshed.status, 200);
    const second = refreshed.json.data;
    t.type(second.access_token, 'string');
    t.type(second.refresh_token, 'string');
    t.equal(second.token_type, 'Bearer');
    t.equal(second.expires_in, 900);
    t.same(second.user, { username: 'viewer', role: 'viewer' });
    t.not(second.refresh_token, first.refresh_token, 'a new refresh token');
    t.not(second.access_token, first.access_token, 'a new access token');
    const me = await call(admin, 'GET', '/__mock/auth/me', { token: second.access_token });
    t.equal(me.status, 200, 'the new access token works');
    t.equal(me.json.data.username, 'viewer');

    const third = await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: second.refresh_token } });
    t.equal(third.status, 200, 'the new refresh token works');
    const other = await tokensOf(t, admin, 'viewer', DEV_USERS.viewer);

    // a used token again: its owner and a thief both hold it, so the whole login ends
    const again = await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: first.refresh_token } });
    t.equal(again.status, 401, 'the old refresh token works only once');
    t.match(again.json.error, /refresh token was already used, so every token of its login is revoked .*log in again at POST \/__mock\/auth\/login/);
    const rotated = await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: third.json.data.refresh_token } });
    t.equal(rotated.status, 401, 'the refresh token rotated from it is revoked');
    for (const token of [second.access_token, third.json.data.access_token]) {
      const revoked = await call(admin, 'GET', '/__mock/auth/me', { token });
      t.equal(revoked.status, 401, 'and the access tokens of that login');
      t.match(revoked.json.error, /a refresh token of its login was used twice/);
    }
    t.equal((await call(admin, 'GET', '/__mock/auth/me', { token: other.access_token })).status, 200, 'another login of the same user goes on');
    t.equal((await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: other.refresh_token } })).status, 200);
    const bogus = await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: 'made-up-refresh-token' } });
    t.equal(bogus.status, 401, 'an unknown refresh token');
    const missing = await call(admin, 'POST', '/__mock/auth/refresh', { body: {} });
    t.equal(missing.status, 400, 'no refresh_token');
    t.match(missing.json.error, /refresh_token/);
  });

  t.test('logout ends the access token and the refresh token', async (t) => {
    const session = await tokensOf(t, admin, 'admin', DEV_USERS.admin);
    const ok = await call(admin, 'POST', '/__mock/api/mocks', { token: session.access_token, body: mockRecord('before-logout') });
    t.equal(ok.status, 201, 'the token works before logout');

    const out = await call(admin, 'POST', '/__mock/auth/logout', { token: session.access_token, body: { refresh_token: session.refresh_token } });
    t.equal(out.status, 200, 'logout');
    t.equal(out.json.success, true);

    const write = await call(admin, 'POST', '/__mock/api/mocks', { token: session.access_token, body: mockRecord('after-logout') });
    t.equal(write.status, 401, 'a write with the logged-out access token');
    t.match(write.json.error, /revoked/);
    t.equal((await call(admin, 'GET', '/__mock/auth/me', { token: session.access_token })).status, 401, 'me with it');
    const refresh = await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: session.refresh_token } });
    t.equal(refresh.status, 401, 'the logged-out refresh token');
    const twice = await call(admin, 'POST', '/__mock/auth/logout', { token: session.access_token, body: { refresh_token: session.refresh_token } });
    t.equal(twice.status, 401, 'logging out again has nothing to end');

    // other sessions of the same user live on
    t.equal((await call(admin, 'GET', '/__mock/auth/me', { token: tokens.admin })).status, 200, 'the earlier admin session still works');
  });

  t.test('user management as admin', async (t) => {
    const list = await call(admin, 'GET', '/__mock/auth/users', { token: tokens.admin });
    t.equal(list.status, 200);
    t.ok(Array.isArray(list.json.data));
    const byName = Object.fromEntries(list.json.data.map((u) => [u.username, u.role]));
    t.match(byName, { admin: 'admin', editor: 'editor', viewer: 'viewer', 'matrix-viewer': 'viewer' }, 'usernames and roles');
    for (const u of list.json.data) {
      t.notOk('password' in u || 'password_hash' in u || 'hash' in u, `no password fields for ${u.username}`);
    }
    t.notMatch(list.text, /scrypt|password/i, 'never a hash');
    t.equal((await call(admin, 'GET', '/__mock/api/auth/users', { token: tokens.admin })).status, 200, 'under /__mock/api too');

    for (const who of ['editor', 'viewer']) {
      const read = await call(admin, 'GET', '/__mock/auth/users', { token: tokens[who] });
      t.equal(read.status, 403, `GET auth/users as ${who}`);
      t.match(read.json.error, new RegExp(`role ${who}`));
      const create = await call(admin, 'POST', '/__mock/auth/users', { token: tokens[who], body: { username: 'sneaky', password: 'sneaky-password', role: 'admin' } });
      t.equal(create.status, 403, `POST auth/users as ${who}`);
      t.match(create.json.error, new RegExp(`role ${who}`));
      const del = await call(admin, 'DELETE', '/__mock/auth/users/viewer', { token: tokens[who] });
      t.equal(del.status, 403, `DELETE auth/users/viewer as ${who}`);
      t.match(del.json.error, new RegExp(`role ${who}`));
    }
    t.equal((await call(admin, 'GET', '/__mock/auth/users')).status, 401, 'GET auth/users without a token');
    t.equal((await call(admin, 'DELETE', '/__mock/auth/users/viewer')).status, 401, 'DELETE auth/users/viewer without a token');
    t.equal((await login(admin, 'sneaky', 'sneaky-password')).status, 401, 'the refused create made nobody');

    const created = await call(admin, 'POST', '/__mock/auth/users', { token: tokens.admin, body: { username: 'carol', password: 'carol-password', role: 'editor' } });
    t.equal(created.status, 201, 'create carol');
    t.same(created.json.data, { username: 'carol', role: 'editor' });
    t.notMatch(created.text, /carol-password|scrypt/);
    const carol = await tokensOf(t, admin, 'carol', 'carol-password');
    t.same(carol.user, { username: 'carol', role: 'editor' });
    t.equal((await call(admin, 'POST', '/__mock/api/mocks', { token: carol.access_token, body: mockRecord('carol') })).status, 201, 'carol writes mocks');
    const carolLatency = await call(admin, 'POST', '/__mock/config/latency', { token: carol.access_token, body: { enabled: false } });
    t.equal(carolLatency.status, 403, 'but is an editor');
    t.match(carolLatency.json.error, /role editor/);

    const duplicate = await call(admin, 'POST', '/__mock/auth/users', { token: tokens.admin, body: { username: 'carol', password: 'other-password', role: 'admin' } });
    t.equal(duplicate.status, 409, 'a taken name');
    t.match(duplicate.json.error, /carol/);
    const devDuplicate = await call(admin, 'POST', '/__mock/auth/users', { token: tokens.admin, body: { username: 'viewer', password: 'other-password', role: 'admin' } });
    t.equal(devDuplicate.status, 409, 'a development user’s name is taken too');
    t.equal((await login(admin, 'carol', 'other-password')).status, 401, 'the duplicate did not change the password');

    const badRole = await call(admin, 'POST', '/__mock/auth/users', { token: tokens.admin, body: { username: 'dave', password: 'dave-password', role: 'root' } });
    t.equal(badRole.status, 400, 'an unknown role');
    const shortPassword = await call(admin, 'POST', '/__mock/auth/users', { token: tokens.admin, body: { username: 'dave', password: 'short', role: 'viewer' } });
    t.equal(shortPassword.status, 400, 'a short password');

    const deleted = await call(admin, 'DELETE', '/__mock/auth/users/carol', { token: tokens.admin });
    t.equal(deleted.status, 200, 'delete carol');
    t.equal((await login(admin, 'carol', 'carol-password')).status, 401, 'carol can no longer log in');
    t.equal((await call(admin, 'POST', '/__mock/api/mocks', { token: carol.access_token, body: mockRecord('carol-2') })).status, 401, 'her access token ends');
    t.equal((await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: carol.refresh_token } })).status, 401, 'and her refresh token');
    t.equal((await call(admin, 'DELETE', '/__mock/auth/users/carol', { token: tokens.admin })).status, 404, 'deleting her again');
    t.notOk((await call(admin, 'GET', '/__mock/auth/users', { token: tokens.admin })).json.data.some((u) => u.username === 'carol'), 'gone from the list');

    // a new account under the old name is somebody else: the deleted account's tokens stay dead
    const again = await call(admin, 'POST', '/__mock/auth/users', { token: tokens.admin, body: { username: 'carol', password: 'new-carol-password', role: 'editor' } });
    t.equal(again.status, 201, 'a new carol');
    t.equal((await login(admin, 'carol', 'carol-password')).status, 401, 'the old password does not open the new account');
    const resurrected = await call(admin, 'POST', '/__mock/api/mocks', { token: carol.access_token, body: mockRecord('carol-3') });
    t.equal(resurrected.status, 401, 'the deleted account’s access token does not work for the new account');
    t.equal((await call(admin, 'GET', '/__mock/auth/me', { token: carol.access_token })).status, 401, 'me with it neither');
    t.equal((await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: carol.refresh_token } })).status, 401, 'nor the old refresh token');
    t.equal((await call(admin, 'DELETE', '/__mock/auth/users/carol', { token: tokens.admin })).status, 200, 'the new carol is deleted again');

    const lastAdmin = await call(admin, 'DELETE', '/__mock/auth/users/admin', { token: tokens.admin });
    t.equal(lastAdmin.status, 409, 'the last admin cannot be deleted');
    t.match(lastAdmin.json.error, /last admin/);
    t.equal((await call(admin, 'GET', '/__mock/auth/me', { token: tokens.admin })).status, 200, 'the admin still exists');
  });

});

// ---------------------------------------------------------------------------------------------
// On a server of its own, so that the locks it provokes (the address for 2 s, then 4 s) hold up no
// other test, and its wait overlaps their work. The lock reads the real clock, which only time
// moves; the virtual clock would let an admin API client lift it. So the test waits out the first
// lock (2 s) once and asserts the second's Retry-After instead of waiting it: the unit tests
// (test/runtime/auth/login-throttle.test.js) move a fake clock through every lock.
t.test('login throttling: five failures lock the user and the address, with a growing Retry-After the virtual clock does not shorten', async (t) => {
  const s = await serve(t, { env: { MOCK_ADMIN_AUTH_ENABLED: 'true' } });
  const admin = s.adminUrl;
  const { access_token: token } = await tokensOf(t, admin, 'admin', DEV_USERS.admin);
  t.equal((await login(admin, 'viewer', DEV_USERS.viewer)).status, 200, 'a success first');
  for (let i = 1; i <= 5; i++) t.equal((await login(admin, 'viewer', `guess-${i}`)).status, 401, `guess ${i} is checked`);
  const locked = await login(admin, 'viewer', DEV_USERS.viewer);
  t.equal(locked.status, 429, 'the right password is refused while locked');
  t.equal(locked.headers.get('retry-after'), '2', 'Retry-After in seconds');
  t.match(locked.json, { success: false, data: null, error: /too many failed logins.*try again in 2 s/ });
  t.equal((await login(admin, 'editor', DEV_USERS.editor)).status, 429, 'another user from the same address waits too');

  t.equal((await call(admin, 'POST', '/__mock/time/enable', { token, body: { enabled: true } })).status, 200, 'time travel on');
  t.equal((await call(admin, 'POST', '/__mock/time/advance', { token, body: { duration: '2h' } })).status, 200, 'the virtual clock two hours on');
  const travelled = await login(admin, 'viewer', DEV_USERS.viewer);
  t.equal(travelled.status, 429, 'the lock holds: it is not on the virtual clock');
  t.match(travelled.headers.get('retry-after'), /^[12]$/, 'with what is left of its 2 s');

  // a try refused while locked is not a failure: polling with a wrong password waits the lock out
  const checked = await until(async () => {
    const answer = await login(admin, 'viewer', 'guess-6');
    return answer.status === 429 ? undefined : answer;
  }, 10_000, 'the first lock to end');
  t.equal(checked.status, 401, 'once the lock ends, a try is checked again');
  const longer = await login(admin, 'viewer', DEV_USERS.viewer);
  t.equal(longer.status, 429, 'and a failure after a lock locks again');
  t.equal(longer.headers.get('retry-after'), '4', 'for twice as long');
  t.match(longer.json.error, /try again in 4 s/);
});

// ---------------------------------------------------------------------------------------------
t.test('JWT_SECRET and admin.auth.users: configured users only, token lifetime from the config', async (t) => {
  const secret = 'e2e-jwt-secret-0123456789-abcdefghijklmnop';
  const hashed = await runMock(['admin', 'hash-password', 'bob-hashed-password']);
  t.equal(hashed.code, 0, `hash-password: ${hashed.stderr}`);
  const hash = hashed.stdout.trim();
  t.match(hash, /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/, 'a scrypt hash on one line');
  t.notMatch(hash, /bob-hashed-password/);

  const config = [
    'admin:',
    '  auth:',
    '    enabled: true',
    '    session_timeout_seconds: 120',
    '    users:',
    '      - username: alice',
    '        role: editor',
    '        password: alice-plain-password',
    '      - username: bob',
    '        role: admin',
    `        password_hash: "${hash}"`,
    '',
  ].join('\n');
  const s = await serve(t, { config, env: { JWT_SECRET: secret } });
  const admin = s.adminUrl;

  t.test('no development users and no warning about them', async (t) => {
    for (const [username, password] of Object.entries(DEV_USERS)) {
      const res = await login(admin, username, password);
      t.equal(res.status, 401, `${username} / ${password} is not a user`);
      t.match(res.json.error, /invalid username or password/);
    }
    await new Promise((r) => setTimeout(r, 200));
    t.notMatch(s.log(), /development users/, 'no dev-users warning');
  });

  let alice, bob;
  t.test('configured users log in with their roles: plain password and password_hash', async (t) => {
    alice = await tokensOf(t, admin, 'alice', 'alice-plain-password');
    t.same(alice.user, { username: 'alice', role: 'editor' });
    bob = await tokensOf(t, admin, 'bob', 'bob-hashed-password');
    t.same(bob.user, { username: 'bob', role: 'admin' });
    t.equal((await login(admin, 'bob', hash)).status, 401, 'the hash itself is not the password');
    t.equal((await login(admin, 'alice', 'alice-wrong-password')).status, 401);

    t.equal((await call(admin, 'POST', '/__mock/api/mocks', { token: alice.access_token, body: mockRecord('alice') })).status, 201, 'alice (editor) writes mocks');
    const aliceLatency = await call(admin, 'POST', '/__mock/config/latency', { token: alice.access_token, body: { enabled: false } });
    t.equal(aliceLatency.status, 403, 'alice may not change latency');
    t.match(aliceLatency.json.error, /role editor/);
    t.equal((await call(admin, 'POST', '/__mock/config/latency', { token: bob.access_token, body: { enabled: false } })).status, 200, 'bob (admin) may');
    const users = await call(admin, 'GET', '/__mock/auth/users', { token: bob.access_token });
    t.equal(users.status, 200);
    t.same(users.json.data.map((u) => [u.username, u.role]).sort(), [['alice', 'editor'], ['bob', 'admin']], 'exactly the configured users');
    t.notMatch(users.text, /scrypt|password/i);
  });

  t.test('the access token lives session_timeout_seconds', async (t) => {
    for (const session of [alice, bob]) {
      const claims = claimsOf(session.access_token);
      t.equal(claims.exp - claims.iat, 120, `exp - iat for ${claims.sub}`);
      t.equal(session.expires_in, 120, 'expires_in says the same');
      t.ok(Math.abs(claims.iat - nowSeconds()) < 60, 'issued now');
    }
    const me = await call(admin, 'GET', '/__mock/auth/me', { token: alice.access_token });
    t.equal(me.json.data.expires_at, new Date(claimsOf(alice.access_token).exp * 1000).toISOString());
    const refreshed = await call(admin, 'POST', '/__mock/auth/refresh', { body: { refresh_token: alice.refresh_token } });
    t.equal(refreshed.status, 200);
    const c = claimsOf(refreshed.json.data.access_token);
    t.equal(c.exp - c.iat, 120, 'refreshed tokens too');
    alice = refreshed.json.data;
  });

  t.test('tokens are signed with JWT_SECRET: expired ones are 401 naming expiry', async (t) => {
    const now = nowSeconds();
    const valid = await mint(secret, { sub: 'bob', role: 'admin', iat: now - 10, exp: now + 110, jti: 'e2e-valid' });
    const accepted = await call(admin, 'POST', '/__mock/api/mocks', { token: valid, body: mockRecord('minted') });
    t.equal(accepted.status, 201, 'a token signed with the same secret is accepted (so the secret is JWT_SECRET)');

    const expired = await mint(secret, { sub: 'bob', role: 'admin', iat: now - 300, exp: now - 180, jti: 'e2e-expired' });
    const write = await call(admin, 'POST', '/__mock/api/mocks', { token: expired, body: mockRecord('expired') });
    t.equal(write.status, 401, 'a write with an expired token');
    t.match(write.json.error, /expired/, 'the error names expiry');
    t.match(write.json.error, /auth\/refresh|auth\/login/, 'and how to get a new token');
    const me = await call(admin, 'GET', '/__mock/auth/me', { token: expired });
    t.equal(me.status, 401, 'me with an expired token');
    t.match(me.json.error, /expired/);

    const otherSecret = await mint('not-the-configured-secret-0123456789abcdef', { sub: 'bob', role: 'admin', iat: now, exp: now + 100 });
    const forged = await call(admin, 'POST', '/__mock/api/mocks', { token: otherSecret, body: mockRecord('forged') });
    t.equal(forged.status, 401, 'a token signed with another secret');
    t.match(forged.json.error, /not valid/);

    const wrongRole = await mint(secret, { sub: 'alice', role: 'admin', iat: now, exp: now + 100 });
    const escalation = await call(admin, 'POST', '/__mock/config/latency', { token: wrongRole, body: { enabled: false } });
    t.equal(escalation.status, 401, 'a well-signed token whose role is not the user’s');
    const ghost = await mint(secret, { sub: 'mallory', role: 'admin', iat: now, exp: now + 100 });
    t.equal((await call(admin, 'POST', '/__mock/api/mocks', { token: ghost, body: mockRecord('ghost') })).status, 401, 'a well-signed token of no user');
    const otherIssuer = await mint(secret, { sub: 'bob', role: 'admin', iat: now, exp: now + 100, iss: 'someone-else' });
    t.equal((await call(admin, 'POST', '/__mock/api/mocks', { token: otherIssuer, body: mockRecord('issuer') })).status, 401, 'a token of another issuer');
  });

  t.test('read endpoints, which are open, never show the secret', async (t) => {
    for (const p of ['/__mock/env', '/__mock/config', '/__mock/dashboard', '/__mock/server-config']) {
      const res = await call(admin, 'GET', p);
      t.equal(res.status, 200, p);
      t.notMatch(res.text, secret, `${p} does not contain JWT_SECRET`);
      t.notMatch(res.text, /alice-plain-password|scrypt\$/, `${p} does not contain passwords`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
t.test('MOCK_DISABLE_DEV_SEED_USERS=true without JWT_SECRET: no development users', async (t) => {
  const s = await serve(t, { env: { MOCK_ADMIN_AUTH_ENABLED: 'true', MOCK_DISABLE_DEV_SEED_USERS: 'true' } });
  for (const [username, password] of Object.entries(DEV_USERS)) {
    const res = await login(s.adminUrl, username, password);
    t.equal(res.status, 401, `${username} is not seeded`);
    t.match(res.json.error, /invalid username or password/);
  }
  t.equal((await call(s.adminUrl, 'POST', '/__mock/api/mocks', { body: mockRecord('x') })).status, 401, 'auth is still on');
  t.equal((await call(s.adminUrl, 'GET', '/__mock/api/mocks')).status, 200, 'reads stay open');
  t.ok(await eventually(() => /no users/.test(s.log())), `a warning that nobody can log in:\n${s.log()}`);
  t.notMatch(s.log(), /development users are seeded/, 'no dev-users warning');
});

// ---------------------------------------------------------------------------------------------
t.test('hosted mode: MOCK_MANAGEMENT_TOKEN guards writes, reads and the mocked API stay open', async (t) => {
  const token = 'e2e-management-token-0123456789';
  const s = await serve(t, { env: { MOCK_MANAGEMENT_TOKEN: token } });
  const admin = s.adminUrl;
  const withToken = (value) => ({ 'x-mock-management-token': value });

  for (const [base, p] of [
    [admin, '/__mock/api/mocks'],
    [admin, '/__mock/mocks'],
    [s.url, '/__mock/mocks'],
  ]) {
    const where = `${base === admin ? 'admin' : 'mock'} port ${p}`;
    const none = await call(base, 'POST', p, { body: mockRecord('hosted-none') });
    t.equal(none.status, 401, `POST ${where} without the header`);
    t.equal(none.json.success, false);
    t.match(none.json.error, /X-Mock-Management-Token/, 'the error names the header');
    const wrong = await call(base, 'POST', p, { body: mockRecord('hosted-wrong'), headers: withToken('wrong-management-token-000000') });
    t.equal(wrong.status, 401, `POST ${where} with a wrong token`);
    t.match(wrong.json.error, /X-Mock-Management-Token/);
    const prefix = await call(base, 'POST', p, { body: mockRecord('hosted-prefix'), headers: withToken(token.slice(0, -1)) });
    t.equal(prefix.status, 401, `POST ${where} with a prefix of the token`);
    const bearer = await call(base, 'POST', p, { body: mockRecord('hosted-bearer'), token });
    t.equal(bearer.status, 401, `POST ${where} with the token as a bearer token instead`);
  }
  t.equal((await call(admin, 'GET', '/__mock/api/mocks')).json.data.length, 0, 'refused writes created nothing');

  const created = await call(admin, 'POST', '/__mock/api/mocks', { body: mockRecord('hosted'), headers: withToken(token) });
  t.equal(created.status, 201, 'the right token');
  const id = created.json.data.id;
  t.same((await call(s.url, 'GET', '/e2e-auth/hosted')).json, { made_by: 'hosted' }, 'the mock serves without the token');
  t.equal((await call(s.url, 'POST', '/__mock/mocks', { body: mockRecord('hosted-mgmt'), headers: withToken(token) })).status, 201, 'on the mock port too');
  t.equal((await call(admin, 'PUT', `/__mock/api/mocks/${id}`, { body: mockRecord('hosted') })).status, 401, 'PUT without it');
  t.equal((await call(admin, 'DELETE', `/__mock/api/mocks/${id}`)).status, 401, 'DELETE without it');
  t.equal((await call(admin, 'DELETE', `/__mock/api/mocks/${id}`, { headers: withToken(token) })).status, 200, 'DELETE with it');

  for (const [method, p, body, okStatus] of [
    ['PUT', '/__mock/overrides', [], 200],
    ['POST', '/__mock/config/latency', { config_type: 'latency', data: { enabled: false, base_ms: 0 } }, 200],
    ['POST', '/__mock/config', { latency: { enabled: false } }, 200],
    ['POST', '/__mock/env', { key: 'MOCK_E2E_HOSTED_MARKER', value: 'set' }, 200],
    ['POST', '/__mock/logs/clear', undefined, 200],
    ['POST', '/__mock/validation', { mode: 'enforce' }, 200],
    ['POST', '/__mock/files/save', { file_path: 'hosted.txt', content: 'hosted' }, 200],
    // an action though a GET
    ['GET', '/__mock/smoke/run', undefined, 200],
  ]) {
    const none = await call(admin, method, p, { body });
    t.equal(none.status, 401, `${method} ${p} without the header`);
    t.match(none.json.error, /X-Mock-Management-Token/);
    const ok = await call(admin, method, p, { body, headers: withToken(token) });
    t.equal(ok.status, okStatus, `${method} ${p} with it: ${ok.text.slice(0, 200)}`);
  }

  for (const [base, p] of [
    [admin, '/__mock/health'],
    [s.url, '/__mock/health'],
    [admin, '/__mock/dashboard'],
    [admin, '/__mock/logs'],
    [admin, '/__mock/config'],
    [admin, '/__mock/api/mocks'],
    [admin, '/__mock/overrides'],
    [admin, '/__mock/routes'],
    [admin, '/__mock/env'],
    [s.url, '/__mock/mocks'],
  ]) {
    const res = await call(base, 'GET', p);
    t.equal(res.status, 200, `GET ${p} without the token`);
    t.notMatch(res.text, token, `GET ${p} does not show the token`);
  }
  t.equal((await call(s.url, 'GET', '/v1/pets/1')).status, 200, 'the mocked API: GET');
  t.equal((await call(s.url, 'POST', '/v1/pets', { body: { name: 'Tom', kind: 'cat' } })).status, 201, 'the mocked API: POST');
  t.equal((await call(s.url, 'DELETE', '/v1/pets/1')).status, 204, 'the mocked API: DELETE');

  const loginRes = await call(admin, 'POST', '/__mock/auth/login', { body: { username: 'admin', password: DEV_USERS.admin }, headers: withToken(token) });
  t.equal(loginRes.status, 404, 'JWT auth stays off in hosted mode unless enabled');
});

// ---------------------------------------------------------------------------------------------
/** `mock serve` that must fail at startup; returns its exit code and output. */
async function failedStart(env) {
  const cwd = tmpdir();
  try {
    const server = await startMock(['--spec', SPEC, '--out', OUT, '--admin', '--admin-port', '0'], { cwd, env: { ...CLEAN_ENV, ...env }, timeoutMs: 60_000 });
    await server.stop();
    return { started: true, code: 0, stdout: server.stdout, stderr: server.stderr };
  } catch (err) {
    return { started: false, code: err.code, stdout: err.stdout ?? '', stderr: err.stderr ?? String(err) };
  }
}

t.test('a JWT_SECRET under 32 characters stops mock serve with one line naming it', async (t) => {
  const secret = 'almost-long-enough-real-secret!';
  t.equal(secret.length, 31);
  const res = await failedStart({ MOCK_ADMIN_AUTH_ENABLED: 'true', JWT_SECRET: secret });
  t.equal(res.started, false, 'the server does not start');
  t.not(res.code, 0, `exit code ${res.code}`);
  const lines = res.stderr.trim().split('\n');
  t.equal(lines.length, 1, `one line on stderr:\n${res.stderr}`);
  t.match(lines[0], /JWT_SECRET/);
  t.match(lines[0], /32/, 'it says how long it must be');
  t.notMatch(res.stderr, /^\s+at /m, 'no stack trace');
  t.notMatch(res.stdout, /serving on/);
  t.notMatch(res.stderr + res.stdout, secret, 'the rejected secret is not written to the log');
});

t.test('a management token under 16 characters stops mock serve naming MOCK_MANAGEMENT_TOKEN', async (t) => {
  const res = await failedStart({ MOCK_MANAGEMENT_TOKEN: 'short-token' });
  t.equal(res.started, false, 'the server does not start');
  t.not(res.code, 0, `exit code ${res.code}`);
  const lines = res.stderr.trim().split('\n');
  t.equal(lines.length, 1, `one line on stderr:\n${res.stderr}`);
  t.match(lines[0], /MOCK_MANAGEMENT_TOKEN/);
  t.match(lines[0], /16/, 'it says how long it must be');
  t.notMatch(res.stdout, /serving on/);
});

t.test('the development users on an admin reachable from other machines stop the server with one line', async (t) => {
  const serveArgs = ['serve', '--spec', SPEC, '--out', OUT, '--http-port', '0'];
  const exposures = [
    ['mock serve --admin-host 0.0.0.0', [...serveArgs, '--host', '127.0.0.1', '--admin', '--admin-port', '0', '--admin-host', '0.0.0.0'], 'admin.bind, --admin-host, MOCK_ADMIN_HOST'],
    ['mock serve --admin-embed on 0.0.0.0 (server.bind)', [...serveArgs, '--host', '0.0.0.0', '--admin-embed'], 'server.bind, --host'],
    ['mock admin --host 0.0.0.0', ['admin', '--port', '0', '--host', '0.0.0.0'], 'admin.bind, --host'],
  ];
  // side by side: each stops at startup
  const results = await Promise.all(exposures.map(([, args]) => runMock(args, { cwd: tmpdir(), env: { ...CLEAN_ENV, MOCK_ADMIN_AUTH_ENABLED: 'true' }, timeoutMs: 30_000 })));
  for (const [i, [what, , setting]] of exposures.entries()) {
    const res = results[i];
    t.equal(res.code, 1, `${what}: exit code 1`);
    const lines = res.stderr.trim().split('\n');
    t.equal(lines.length, 1, `${what}: one line on stderr:\n${res.stderr}`);
    t.match(lines[0], `admin auth is on without JWT_SECRET, which seeds development users with published passwords, and the admin API listens on 0.0.0.0 (${setting}), beyond this machine:`);
    t.match(lines[0], /set JWT_SECRET and admin\.auth\.users, or turn the development users off \(MOCK_DISABLE_DEV_SEED_USERS=true, admin\.auth\.seed_dev_users: false\), or bind the admin to 127\.0\.0\.1$/, 'naming the fixes');
    t.notMatch(res.stderr, /^\s+at /m, 'no stack trace');
    t.notMatch(res.stdout, /serving on|admin on/, 'nothing was served');
  }
  // the same exposure without the development users starts
  const secret = 'a-jwt-secret-of-enough-length-0123456789';
  await Promise.all(
    [{ JWT_SECRET: secret }, { MOCK_DISABLE_DEV_SEED_USERS: 'true' }].map(async (env) => {
      const started = await startMock([...serveArgs.slice(1), '--host', '127.0.0.1', '--admin', '--admin-port', '0', '--admin-host', '0.0.0.0'], {
        cwd: tmpdir(),
        env: { ...CLEAN_ENV, MOCK_ADMIN_AUTH_ENABLED: 'true', ...env },
      });
      t.match(started.adminUrl, /^http:\/\/localhost:\d+$/, `${Object.keys(env)[0]}: the exposed admin starts`);
      await started.stop();
    }),
  );
});

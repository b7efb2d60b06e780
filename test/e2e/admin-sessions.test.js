// Admin logins end where they should, through `mock serve --admin` and real HTTP requests
// (docs/admin.md "Authentication"): logout with only the access token ends its whole login (the
// refresh token too, and the access tokens issued before a refresh), and a user keeps at most 20
// logins: the next one ends the least recently used, so repeated logins cannot pile up refresh
// tokens for the 7 days they last.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';
import { readAnswer } from '../helpers/admin.js';

const MAX_LOGINS = 20;
const dir = tmpdir();
writeFileSync(path.join(dir, 'mock.yaml'), 'admin:\n  auth:\n    enabled: true\n    users: [{ username: ann, role: admin, password: ann-password-1 }]\n');
const server = await startMock(['--spec', path.join(root, 'examples', 'petstore.yaml'), '--out', path.join(dir, 'out'), '-c', path.join(dir, 'mock.yaml'), '--admin', '--admin-port', '0'], {
  cwd: dir,
  env: { JWT_SECRET: 'e2e-sessions-secret-0123456789abcdef', MOCK_ADMIN_AUTH_ENABLED: undefined, MOCK_MANAGEMENT_TOKEN: undefined },
});
t.teardown(() => server.stop());

async function call(method, endpoint, { token, body } = {}) {
  const headers = { connection: 'close' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return readAnswer(await fetch(`${server.adminUrl}/__mock/${endpoint}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}
async function login(t) {
  const res = await call('POST', 'auth/login', { body: { username: 'ann', password: 'ann-password-1' } });
  t.equal(res.status, 200, 'logged in');
  return res.json.data;
}
const refresh = (session) => call('POST', 'auth/refresh', { body: { refresh_token: session.refresh_token } });
const me = (token) => call('GET', 'auth/me', { token });

t.test('logout with only the access token ends its login: the refresh token and earlier access tokens too', async (t) => {
  const first = await login(t);
  const renewed = (await refresh(first)).json.data;
  const other = await login(t);

  const out = await call('POST', 'auth/logout', { token: renewed.access_token });
  t.equal(out.status, 200, 'logged out with the access token alone');
  const after = await refresh(renewed);
  t.equal(after.status, 401, 'its refresh token no longer works');
  t.match(after.json.error, /refresh token is invalid, expired or already used/);
  t.equal((await me(renewed.access_token)).status, 401, 'the access token it was sent with');
  const earlier = await me(first.access_token);
  t.equal(earlier.status, 401, 'the access token issued before the refresh');
  t.match(earlier.json.error, /revoked by logout/);

  t.equal((await me(other.access_token)).status, 200, 'another login of the same user goes on');
  t.equal((await refresh(other)).status, 200);
});

t.test(`a user keeps ${MAX_LOGINS} logins: the next one ends the least recently used`, async (t) => {
  // the login left by the test above is the least recently used: the first logins here end it
  const sessions = [];
  for (let i = 0; i < MAX_LOGINS; i++) sessions.push(await login(t));
  const used = await refresh(sessions[0]);
  t.equal(used.status, 200, 'the oldest login is used again: now the most recent');
  sessions[0] = used.json.data;

  sessions.push(await login(t));
  const ended = await refresh(sessions[1]);
  t.equal(ended.status, 401, 'the least recently used login ended');
  t.match(ended.json.error, /log in again/);
  for (const [i, session] of sessions.entries()) {
    if (i === 1) continue;
    t.equal((await refresh(session)).status, 200, `login ${i} goes on`);
  }
});

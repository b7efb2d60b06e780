// Admin logins across two `mock serve` instances on one real redis-server (state.store redis, one
// JWT_SECRET): log in through A, refresh through B; the old refresh token reused through A revokes
// the login on both; one token taken through both at once is rotated once; a logout through B makes
// the access token refused by A; a user created through A logs in through B; the login throttle
// counts the failures made through both. Without JWT_SECRET, admin auth on Redis does not start.
import t from 'tap';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';
import { redisForFile, writeOrdersProject } from '../helpers/shared-state.js';

const redis = await redisForFile(t);
const dir = tmpdir();
writeOrdersProject(dir);
appendFileSync(path.join(dir, 'mock.yaml'), 'admin:\n  auth:\n    enabled: true\n    users: [{ username: ann, role: admin, password: ann-password-1 }]\n');
const env = {
  MOCK_STATE_STORE: 'redis',
  MOCK_REDIS_URL: redis.url,
  MOCK_REDIS_KEY_PREFIX: `test-${process.pid}:`,
  JWT_SECRET: 'redis-sessions-secret-0123456789abcdef',
  MOCK_ADMIN_AUTH_ENABLED: undefined,
  MOCK_MANAGEMENT_TOKEN: undefined,
};
const out = path.join(dir, 'out');
const A = await startMock(['--out', out, '--admin-embed'], { cwd: dir, env });
const B = await startMock(['--out', out, '--admin-embed'], { cwd: dir, env });
t.teardown(() => Promise.all([A.stop(), B.stop()]));

async function send(server, method, endpoint, body, token) {
  const headers = { connection: 'close', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) };
  const res = await fetch(`${server.url}/__mock/${endpoint}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
  const json = await res.json();
  return { status: res.status, json };
}
const login = (server, username = 'ann', password = 'ann-password-1') => send(server, 'POST', 'auth/login', { username, password });
const refresh = (server, session) => send(server, 'POST', 'auth/refresh', { refresh_token: session.refresh_token });
/** An admin write (reads need no token). */
const write = (server, token) => send(server, 'POST', 'logs/clear', undefined, token);

t.test('logged in through A, refreshed through B; the old refresh token reused through A revokes the login on both', async (t) => {
  const first = await login(A);
  t.equal(first.status, 200, first.json.error ?? 'logged in through A');
  const second = await refresh(B, first.json.data);
  t.equal(second.status, 200, second.json.error ?? 'B rotates the refresh token A issued');
  for (const server of [A, B]) t.equal((await write(server, second.json.data.access_token)).status, 200, 'the access token B issued works on both');
  const third = await refresh(A, second.json.data);
  t.equal(third.status, 200, 'A rotates the one B issued');

  const reused = await refresh(A, first.json.data);
  t.equal(reused.status, 401);
  t.match(reused.json.error, /already used, so every token of its login is revoked/, 'A knows the token was used');
  for (const server of [A, B]) {
    const refused = await write(server, third.json.data.access_token);
    t.equal(refused.status, 401);
    t.match(refused.json.error, /a refresh token of its login was used twice/, 'the login is revoked on both instances');
  }
  t.equal((await refresh(B, third.json.data)).status, 401, 'its newest refresh token too');
});

t.test('one refresh token taken through both instances at once: one rotates it, the other finds it used', async (t) => {
  const session = (await login(B)).json.data;
  const answers = await Promise.all([refresh(A, session), refresh(B, session)]);
  t.same(answers.map((a) => a.status).sort(), [200, 401], answers.map((a) => a.json.error).join('\n'));
  const winner = answers.find((a) => a.status === 200).json.data;
  t.match(answers.find((a) => a.status === 401).json.error, /was already used, so every token of its login is revoked/, 'the other instance saw it used, a reuse');
  for (const server of [A, B]) t.equal((await refresh(server, winner)).status, 401, "so the winner's login is revoked as well");
});

t.test('a logout through B makes the access token refused by A', async (t) => {
  const session = (await login(A)).json.data;
  t.equal((await write(A, session.access_token)).status, 200);
  const loggedOut = await send(B, 'POST', 'auth/logout', undefined, session.access_token);
  t.equal(loggedOut.status, 200, loggedOut.json.error ?? 'logged out through B');
  const refused = await write(A, session.access_token);
  t.equal(refused.status, 401, 'A, which issued it, refuses it');
  t.match(refused.json.error, /revoked by logout/);
  t.equal((await refresh(A, session)).status, 401, 'and its refresh token');
});

t.test('a user created through A logs in through B', async (t) => {
  const admin = (await login(A)).json.data.access_token;
  const created = await send(A, 'POST', 'auth/users', { username: 'lee', password: 'lee-password-1', role: 'viewer' }, admin);
  t.equal(created.status, 201, created.json.error ?? 'created through A');
  const lee = await login(B, 'lee', 'lee-password-1');
  t.equal(lee.status, 200, lee.json.error ?? 'logged in through B');
  t.same(lee.json.data.user, { username: 'lee', role: 'viewer' });
  t.equal((await send(B, 'DELETE', 'auth/users/lee', undefined, admin)).status, 200);
  t.equal((await login(A, 'lee', 'lee-password-1')).status, 401, 'deleted through B, refused by A');
});

// last: five failures lock the client's address too
t.test('the login throttle counts the failures made through both instances', async (t) => {
  t.equal((await login(B)).status, 200, "a success clears this address's failures of the tests before");
  for (const server of [A, B, A, B, A]) t.equal((await login(server, 'ann', 'wrong-password')).status, 401);
  for (const server of [A, B]) t.equal((await login(server)).status, 429, 'five failures spread over both lock the user on each');
});

t.test('admin auth on Redis without JWT_SECRET: one line, exit 1, before anything serves', async (t) => {
  const run = await runMock(['serve', '--out', out, '--admin-embed', '--http-port', '0', '--host', '127.0.0.1'], { cwd: dir, env: { ...env, JWT_SECRET: undefined } });
  t.equal(run.code, 1);
  t.match(run.stderr, /admin auth with state\.store redis needs JWT_SECRET .*set JWT_SECRET to the same random value on each/);
  t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  t.notMatch(run.stdout, /serving on/);
});

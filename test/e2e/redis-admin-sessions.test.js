// Admin logins across two `mock serve` instances on one real redis-server (state.store redis, one
// JWT_SECRET): log in through A, refresh through B; the old refresh token reused through A revokes
// the login on both; one token taken through both at once is rotated once; a logout through B makes
// the access token refused by A; a user created through A logs in through B; the login throttle
// counts the failures made through both. Without JWT_SECRET, admin auth on Redis does not start.
import t from 'tap';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';
import { adminSessionScenarios } from '../helpers/admin-sessions.js';
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
  return { status: res.status, json: await res.json() };
}
const ann = { username: 'ann', password: 'ann-password-1' };
const side = (name, server) => ({ name, call: (method, endpoint, body, token) => send(server, method, endpoint, body, token) });

adminSessionScenarios(t, { one: side('A', A), two: side('B', B), admin: ann, second: ann });

t.test('admin auth on Redis without JWT_SECRET: one line, exit 1, before anything serves', async (t) => {
  const run = await runMock(['serve', '--out', out, '--admin-embed', '--http-port', '0', '--host', '127.0.0.1'], { cwd: dir, env: { ...env, JWT_SECRET: undefined } });
  t.equal(run.code, 1);
  t.match(run.stderr, /admin auth with state\.store redis needs JWT_SECRET .*set JWT_SECRET to the same random value on each/);
  t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  t.notMatch(run.stdout, /serving on/);
});

// state.store redis (docs/configuration.md, "State"): two `mock serve` processes on one real
// redis-server share their state. A state-machine resource created through A, moved through B,
// read through A; a chaos rate limit that holds across both; a runtime mock made through A's admin
// answering on B; admin writes answered once Redis holds them; a new instance serving what Redis
// holds from its first request; Redis unreachable at start (one line, password redacted, exit 1); Redis killed
// while serving (answers, no hang) and started again (serving again, with what was written before).
import t from 'tap';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';
import { freePort, redisForFile, writeOrdersProject } from '../helpers/shared-state.js';

const redis = await redisForFile(t);
const dir = tmpdir();
writeOrdersProject(dir);
const env = { MOCK_STATE_STORE: 'redis', MOCK_REDIS_URL: redis.url, MOCK_REDIS_KEY_PREFIX: `test-${process.pid}:` };
const out = path.join(dir, 'out');
const A = await startMock(['--out', out, '--admin-embed'], { cwd: dir, env });
const B = await startMock(['--out', out, '--admin-embed'], { cwd: dir, env });
t.teardown(() => Promise.all([A.stop(), B.stop()]));

async function send(server, method, target, body) {
  const res = await fetch(`${server.url}${target}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, text, json: /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined };
}

/** Polls `probe` until it answers true; answers how many polls it took (every 20 ms), Infinity past `most`. */
async function pollsUntil(probe, most = 250) {
  for (let polls = 1; polls <= most; polls++) {
    if (await probe()) return polls;
    await new Promise((r) => setTimeout(r, 20));
  }
  return Infinity;
}

t.test('a state-machine resource created through A, moved through B, read through A', async (t) => {
  t.equal((await send(A, 'POST', '/orders', { id: 'o-1' })).status, 201);
  const moved = await send(B, 'PUT', '/orders/o-1/process');
  t.equal(moved.status, 200, 'B knows the order A created');
  t.same(moved.json, { id: 'o-1', status: 'processing' });
  t.same((await send(A, 'GET', '/orders/o-1')).json, { id: 'o-1', status: 'processing' }, 'A sees the move B made');
  t.equal((await send(A, 'PUT', '/orders/o-1/process')).status, 409, 'a transition no longer allowed is refused on A too');
});

t.test('a runtime mock created through A answers on B once the notification arrives', async (t) => {
  const created = await send(A, 'POST', '/__mock/mocks', { method: 'GET', path: '/shared', response: { body: { from: 'a runtime mock' } } });
  t.equal(created.status, 201);
  const polls = await pollsUntil(async () => (await send(B, 'GET', '/shared')).status === 200);
  t.ok(polls < Infinity, `B answers with A's mock (after ${polls} poll(s) of 20 ms)`);
  t.same((await send(B, 'GET', '/shared')).json, { from: 'a runtime mock' });
  t.equal((await send(B, 'DELETE', `/__mock/mocks/${created.json.data?.id ?? created.json.id}`)).status, 200, 'deleted through B');
  t.ok((await pollsUntil(async () => (await send(A, 'GET', '/shared')).status === 404)) < Infinity, 'gone from A');
});

t.test('a chaos rate limit set through A holds across A and B together', async (t) => {
  const set = await send(A, 'PUT', '/__mock/api/chaos/config', { rate_limit: { enabled: true, requests_per_second: 0.001, burst_size: 4 } });
  t.equal(set.status, 200, set.text);
  // B applies the settings from the notification: a GET of the live settings shows when
  t.ok((await pollsUntil(async () => (await send(B, 'GET', '/__mock/api/chaos/config')).json?.data?.rate_limit?.enabled === true)) < Infinity, 'B has the settings');
  const statuses = [];
  for (let i = 0; i < 8; i++) statuses.push((await send(i % 2 === 0 ? A : B, 'GET', '/orders/none')).status);
  t.equal(statuses.filter((s) => s === 429).length, 4, `4 of 8 requests pass, whichever instance they reach: ${statuses.join(' ')}`);
  t.equal((await send(B, 'PUT', '/__mock/api/chaos/config', { rate_limit: { enabled: false } })).status, 200);
  t.ok((await pollsUntil(async () => (await send(A, 'GET', '/orders/none')).status !== 429)) < Infinity, 'switched off through B, A serves again');
});

/** Redis answers nothing for `ms` (DEBUG SLEEP on a connection of its own), from about 50 ms after the call. */
async function slowRedis(ms) {
  spawn('redis-cli', ['-p', String(redis.port), 'DEBUG', 'SLEEP', String(ms / 1000)], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 50));
}

t.test('an admin write answers once Redis holds it: the instance that took it serves it at once', async (t) => {
  // each write meets a Redis that answers 300 ms late: an answer sent before Redis had it would be read back wrong
  await slowRedis(300);
  const latency = await send(A, 'POST', '/__mock/config/latency', { base_ms: 7, jitter_ms: 0 });
  t.equal(latency.status, 200, latency.text);
  t.match((await send(A, 'GET', '/__mock/config')).json, { data: { latency: { enabled: true, base_ms: 7 } } }, 'the latency, read right after the answer');
  await slowRedis(300);
  const mock = await send(A, 'POST', '/__mock/mocks', { method: 'GET', path: '/at-once', response: { body: { at: 'once' } } });
  t.equal(mock.status, 201, mock.text);
  t.equal((await send(A, 'GET', '/at-once')).status, 200, 'the runtime mock answers the next request');
  await slowRedis(300);
  const clock = await send(A, 'POST', '/__mock/time/set', { time: '2030-01-02T03:04:05Z' });
  t.equal(clock.status, 200, clock.text);
  t.match((await send(A, 'GET', '/__mock/time')).text, /2030-01-02T03:04/, 'the virtual clock, read right after the answer');
  t.equal((await send(A, 'POST', '/__mock/config/latency', { enabled: false })).status, 200);
  t.equal((await send(A, 'POST', '/__mock/time/enable', { enabled: false })).status, 200);
  t.equal((await send(A, 'DELETE', `/__mock/mocks/${mock.json.data?.id ?? mock.json.id}`)).status, 200);
});

t.test('a new instance serves what Redis holds from its first request, not its configuration', async (t) => {
  const rules = [{ name: 'shared', match: { method: 'GET', path: '/orders/*' }, status: 418 }];
  t.equal((await send(A, 'PUT', '/__mock/overrides', rules)).status, 200);
  const C = await startMock(['--out', out, '--admin-embed'], { cwd: dir, env });
  t.teardown(() => C.stop());
  t.equal((await send(C, 'GET', '/orders/anything')).status, 418, "C's first request meets the rule A made");
  t.equal((await send(C, 'PUT', '/__mock/overrides', [])).status, 200);
  t.ok((await pollsUntil(async () => (await send(A, 'GET', '/orders/o-1')).status !== 418)) < Infinity, 'cleared through C, gone from A');
});

t.test('Redis unreachable at start: one line naming the URL without its password, exit 1', async (t) => {
  const closed = await freePort();
  const res = await runMock(['serve', '--http-port', '0', '--out', out], { cwd: dir, env: { ...env, MOCK_REDIS_URL: `redis://user:s3cret@127.0.0.1:${closed}` } });
  t.equal(res.code, 1);
  const said = (res.stdout + res.stderr).trim();
  t.match(said, new RegExp(`^state\\.redis_url: cannot reach redis://user:\\[redacted\\]@127\\.0\\.0\\.1:${closed} \\(connect ECONNREFUSED`));
  t.equal(said.split('\n').length, 1, 'one line');
  t.match(said, /MOCK_REDIS_URL/, 'names the fix');
  t.notMatch(said, /s3cret/, 'never the password');
});

t.test('Redis killed while serving: answers without hanging; started again: serving, with what was written before', async (t) => {
  t.equal((await send(A, 'POST', '/orders', { id: 'o-2' })).status, 201);
  await redis.kill();
  const lost = await send(A, 'GET', '/orders/o-2');
  t.equal(lost.status, 503, `a stateful route fails closed: ${lost.text}`);
  t.match(lost.text, /MOCK_ERR_STATE_STORE_UNAVAILABLE/);
  const refused = await send(A, 'PUT', '/__mock/api/chaos/config', { bulkhead: { enabled: true } });
  t.equal(refused.status, 503, `an admin write fails too: ${refused.text}`);
  t.match(refused.text, /the state store cannot be reached.*the change was not made/);
  await redis.start();
  // ioredis retries every 100 ms, 200 ms, ... up to 2 s: back within a few seconds
  const polls = await pollsUntil(async () => (await send(B, 'GET', '/orders/o-2')).status !== 503, 750);
  t.ok(polls < Infinity, `serving again once Redis is back (after ${polls} poll(s))`);
  t.same((await send(B, 'GET', '/orders/o-2')).json, { id: 'o-2', status: 'pending' }, 'the order written before the loss');
  t.same((await send(A, 'GET', '/orders/o-1')).json, { id: 'o-1', status: 'processing' });
});

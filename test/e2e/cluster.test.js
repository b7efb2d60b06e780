// A cluster for real (issue 38, section 3): scripts/cluster.sh starts three `mock serve` instances
// sharing their state in a real redis-server, behind a real haproxy balancing them round robin
// with health checks on /__mock/health (HTTP/1.1, which uWebSockets.js needs). Through haproxy's
// port: an order created on one instance moves on another and is read on the third; a runtime mock
// created through one instance's admin answers on all three; a rate limit of 50 requests a second
// holds for the three together; an instance killed with SIGKILL loses nothing and haproxy's check
// takes it out; Redis restarted under load: stateful routes answer 503 meanwhile, then serve again.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { root, tmpdir } from '../helpers/cli.js';
import { withoutRecorder } from '../helpers/plain-node.js';
import { freePort, RedisServer, writeOrdersProject } from '../helpers/shared-state.js';

const installed = (tool, arg) => spawnSync(tool, [arg], { stdio: 'ignore' }).error === undefined;
if (!(installed('haproxy', '-v') && installed('redis-server', '--version')) && process.env.CI !== 'true') {
  t.skip('haproxy or redis-server is not installed (apt-get install -y haproxy redis-server)');
  process.exit(0);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// run by the test, so that it can be killed and started again under load
const redis = await RedisServer.start();
t.teardown(() => redis.kill());
const dir = tmpdir();
writeOrdersProject(dir, { '/ping': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { example: { pong: true } } } } } } } });

const [port, statsPort, firstPort] = [await freePort(), await freePort(), await freePort()];
const ports = [firstPort, firstPort + 1, firstPort + 2];
for (const p of ports.slice(1)) {
  if (
    !(await new Promise((resolve) =>
      net
        .createServer()
        .once('error', () => resolve(false))
        .listen(p, '127.0.0.1', function () {
          this.close(() => resolve(true));
        }),
    ))
  ) {
    t.skip(`port ${p} is taken; run again`);
    process.exit(0);
  }
}
const args = [
  '--instances',
  '3',
  '--port',
  String(port),
  '--stats-port',
  String(statsPort),
  '--first-port',
  String(firstPort),
  '--redis-url',
  redis.url,
  '--',
  '--config',
  'mock.yaml',
  '--admin-embed',
];
// through env: NODE_OPTIONS without tap's recorder for the mock processes the script starts (helpers/plain-node.js)
const cluster = spawn('/usr/bin/env', [`NODE_OPTIONS=${withoutRecorder(process.env.NODE_OPTIONS)}`, 'bash', path.join(root, 'scripts/cluster.sh'), ...args], {
  cwd: dir,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let said = '';
cluster.stdout.on('data', (d) => (said += d));
cluster.stderr.on('data', (d) => (said += d));
t.teardown(() => cluster.kill('SIGTERM'));
process.on('exit', () => cluster.kill('SIGTERM'));
for (let waited = 0; !said.includes('cluster: ready'); waited += 100) {
  if (waited > 90_000 || cluster.exitCode !== null) throw new Error(`scripts/cluster.sh did not get ready:\n${said}`);
  await sleep(100);
}
const pids = [...said.matchAll(/mock instance \d on \S+ \(pid (\d+)/g)].map((m) => Number(m[1]));
const via = `http://127.0.0.1:${port}`;

async function send(base, method, target, body) {
  const res = await fetch(`${base}${target}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, instance: res.headers.get('x-mock-instance'), text, json: /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined };
}

/** haproxy's view of each instance: mock1 → UP / DOWN … */
async function states() {
  const csv = await (await fetch(`http://127.0.0.1:${statsPort}/;csv`)).text();
  return Object.fromEntries(
    csv
      .split('\n')
      .map((line) => line.split(','))
      .filter((f) => f[0] === 'mocks' && /^mock\d$/.test(f[1]))
      .map((f) => [f[1], f[17]]),
  );
}

async function until(probe, what, ms = 10_000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await probe()) return true;
  throw new Error(`${what}: not within ${ms} ms`);
}

t.test('the script starts what it says, and haproxy sees three instances up', async (t) => {
  t.equal(pids.length, 3, said);
  t.same(await states(), { mock1: 'UP', mock2: 'UP', mock3: 'UP' });
});

t.test('an order created through one instance moves through another and is read through the third', async (t) => {
  const created = await send(via, 'POST', '/orders', { id: 'o-1' });
  const moved = await send(via, 'PUT', '/orders/o-1/process');
  const read = await send(via, 'GET', '/orders/o-1');
  t.same([created.status, moved.status, read.status], [201, 200, 200], `${created.text} ${moved.text} ${read.text}`);
  t.equal(new Set([created.instance, moved.instance, read.instance]).size, 3, `three instances answered: ${created.instance}, ${moved.instance}, ${read.instance}`);
  t.same(read.json, { id: 'o-1', status: 'processing' });
});

t.test("a runtime mock created through one instance's admin answers on all three", async (t) => {
  const created = await send(`http://127.0.0.1:${ports[0]}`, 'POST', '/__mock/mocks', { method: 'GET', path: '/shared', response: { body: { shared: true } } });
  t.equal(created.status, 201, created.text);
  await until(async () => {
    const answers = await Promise.all([0, 1, 2].map(() => send(via, 'GET', '/shared')));
    return answers.every((a) => a.status === 200) && new Set(answers.map((a) => a.instance)).size === 3;
  }, 'every instance answering with the mock');
  t.same((await send(via, 'GET', '/shared')).json, { shared: true });
});

t.test('a rate limit of 50 requests a second holds for the three together', async (t) => {
  const rps = 50;
  const burst = 10;
  const set = await send(`http://127.0.0.1:${ports[1]}`, 'PUT', '/__mock/api/chaos/config', { rate_limit: { enabled: true, requests_per_second: rps, burst_size: burst } });
  t.equal(set.status, 200, set.text);
  await until(
    async () => (await Promise.all([0, 1, 2].map(() => send(`http://127.0.0.1:${ports[2]}`, 'GET', '/__mock/api/chaos/config')))).every((a) => a.json?.data?.rate_limit?.enabled),
    'the setting on the third instance',
  );
  // a full bucket, then 8 clients as fast as they go for 3 s, through haproxy
  await sleep(1000 * (burst / rps) + 100);
  const counts = { 200: 0, 429: 0, other: 0 };
  const instances = new Set();
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (Date.now() - started < 3000) {
        const answer = await send(via, 'GET', '/ping');
        counts[answer.status === 200 || answer.status === 429 ? answer.status : 'other']++;
        instances.add(answer.instance);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const allowed = burst + rps * seconds;
  t.equal(counts.other, 0, 'every answer a 200 or a 429');
  t.ok(counts[429] > counts[200], `most requests refused: ${counts[200]} passed, ${counts[429]} refused`);
  // the bucket is one Redis key for every instance, taken by compare-and-set: within a tenth (and a few requests in flight at the edges)
  t.ok(Math.abs(counts[200] - allowed) <= allowed * 0.1 + 8, `${counts[200]} passed in ${seconds.toFixed(2)} s; the bucket allows ${allowed.toFixed(0)}`);
  t.equal(instances.size, 3, 'spread over the three instances');
  t.equal((await send(`http://127.0.0.1:${ports[1]}`, 'PUT', '/__mock/api/chaos/config', { rate_limit: { enabled: false } })).status, 200);
  await until(async () => (await Promise.all([0, 1, 2].map(() => send(via, 'GET', '/ping')))).every((a) => a.status === 200), 'the limit off everywhere');
});

t.test("an instance killed with SIGKILL loses nothing, and haproxy's check takes it out", async (t) => {
  process.kill(pids[2], 'SIGKILL');
  // requests meanwhile are retried on the others (retries, option redispatch)
  const meanwhile = await Promise.all(Array.from({ length: 12 }, () => send(via, 'GET', '/orders/o-1')));
  t.same(
    meanwhile.map((a) => a.status),
    Array(12).fill(200),
    'every request answered while haproxy finds out',
  );
  // fall 2, inter 500ms: down after two failed checks (UP 1/2 in between)
  await until(async () => /^DOWN/.test((await states()).mock3), 'mock3 marked down', 5000);
  t.match(await states(), { mock1: 'UP', mock2: 'UP', mock3: /^DOWN/ });
  const after = await Promise.all(Array.from({ length: 4 }, () => send(via, 'GET', '/orders/o-1')));
  t.same(
    after.map((a) => a.json),
    Array(4).fill({ id: 'o-1', status: 'processing' }),
    'the order is still there',
  );
  t.same(new Set(after.map((a) => a.instance)), new Set(['mock1', 'mock2']));
});

t.test('Redis restarted under load: stateful routes answer 503 meanwhile, then the cluster serves again', async (t) => {
  let stop = false;
  const seen = [];
  const load = (async () => {
    while (!stop) {
      const answer = await send(via, 'GET', '/orders/o-1');
      seen.push(answer.status);
      await sleep(10);
    }
  })();
  await sleep(200);
  await redis.kill();
  await until(async () => seen.slice(-3).every((s) => s === 503) && seen.length >= 3, 'stateful requests refused while Redis is away');
  const lost = await send(via, 'GET', '/orders/o-1');
  t.equal(lost.status, 503, lost.text);
  t.match(lost.text, /MOCK_ERR_STATE_STORE_UNAVAILABLE/);
  t.equal((await send(via, 'GET', '/ping')).status, 200, 'a route without state is served meanwhile');
  await redis.start();
  await until(async () => seen.slice(-3).every((s) => s === 200) && seen.length >= 3, 'serving again once Redis is back', 15_000);
  stop = true;
  await load;
  t.same((await send(via, 'GET', '/orders/o-1')).json, { id: 'o-1', status: 'processing' }, 'with what was written before');
  t.notOk(
    seen.some((s) => s !== 200 && s !== 503),
    `only 200s and 503s under load: ${[...new Set(seen)].join(', ')}`,
  );
});

// `mock serve --workers N` (issue 38, section 1): N processes serve the same ports (uWebSockets.js
// with SO_REUSEPORT, node:http through node:cluster), their state held by the primary for all of
// them. Every request goes on a connection of its own, so the kernel (or node:cluster) picks a
// worker for each: an order created on one worker moves on another; a runtime mock created through
// one worker's admin answers on all of them, and its answer says how many applied it; a global rate
// limit holds for the workers together; one admin API shows every worker's log, live stream,
// counts, coverage and Prometheus metrics; an admin token one worker issued works on all of them;
// GraphQL mutations are read on any worker; a worker killed with SIGKILL is started again and
// serves what the others created; SIGTERM drains them all. Bad counts and a port in use are one
// line each.
import t from 'tap';
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import WebSocket from 'ws';
import path from 'node:path';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { writeOrdersProject } from '../helpers/shared-state.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One request on a connection of its own (no keep-alive pool): each may land on another worker. */
function send(base, method, target, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${target}`,
      { method, agent: false, headers: { connection: 'close', ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text, json: /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A request tried again (up to five times, 100 ms apart) when its connection is reset, as a client of a server behind SO_REUSEPORT does. */
async function retried(request) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (e) {
      if (e.code !== 'ECONNRESET' || attempt === 5) throw e;
      await sleep(100);
    }
  }
}

async function workers(base) {
  return (await send(base, 'GET', '/__mock/health')).json.workers;
}

const counts = async (base) => Object.fromEntries((await workers(base)).map((w) => [w.worker, w.requests]));

/** Requests each worker answered, once their next report (every second) is in. */
async function served(base) {
  await sleep(1200);
  return counts(base);
}

/** Requests each worker answered, read again until `until` holds (up to 5 s): a busy machine may send a report late. */
async function servedUntil(base, until) {
  let now = await counts(base);
  for (let waited = 0; waited < 5000 && !until(now); waited += 200) {
    await sleep(200);
    now = await counts(base);
  }
  return now;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const dir = tmpdir();
writeOrdersProject(dir, { '/ping': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { example: { pong: true } } } } } } } });
// one server for most tests (each start costs seconds): admin authentication on (JWT_SECRET unset), metrics, GraphQL, the recorder
const shop = path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql');
const server = await startMock(['--config', 'mock.yaml', '--workers', '2', '--admin-embed', '--metrics', '--metrics-port', '0', '--graphql-schema', shop, '--graphql-port', '0', '--seed', '3', '--recorder', '--recorder-db', 'recordings.db'], {
  cwd: dir,
  env: { MOCK_ADMIN_AUTH_ENABLED: 'true', JWT_SECRET: '' },
});
t.teardown(() => server.stop());
const base = server.url;
const login = await send(base, 'POST', '/__mock/auth/login', { username: 'admin', password: 'admin-dev-password' });
const token = login.json.data.access_token;
/** An admin write, which needs the token (reads need none). */
const admin = (method, target, body) => send(base, method, target, body, { authorization: `Bearer ${token}` });

t.test('the start says how many workers serve, and health lists them', async (t) => {
  t.match(server.stdout, /mock: 2 workers \(pids \d+, \d+\) share these ports; their state is held by this process for all of them/);
  const health = (await send(base, 'GET', '/__mock/health')).json;
  t.equal(health.status, 'healthy');
  t.equal(health.workers.length, 2);
  t.same(
    health.workers.map((w) => w.worker),
    [1, 2],
  );
  t.equal(new Set(health.workers.map((w) => w.pid)).size, 2, 'two processes');
  t.ok(health.workers.every((w) => w.state === 'serving' && w.restarts === 0 && !Number.isNaN(Date.parse(w.started_at))));
  t.ok([1, 2].includes(health.worker), 'the answer says which worker gave it');
});

t.test('connections are spread over both workers, and an order moves on whichever worker gets each step', async (t) => {
  const before = await served(base);
  const reads = [];
  for (let i = 0; i < 12; i++) {
    const id = `o-${i}`;
    const created = await send(base, 'POST', '/orders', { id });
    const moved = await send(base, 'PUT', `/orders/${id}/process`);
    reads.push({ created: created.status, moved: moved.status, read: (await send(base, 'GET', `/orders/${id}`)).json });
  }
  // without the state every worker shares, a step landing on the other worker would find no order
  t.same(
    reads,
    Array.from({ length: 12 }, (_, i) => ({ created: 201, moved: 200, read: { id: `o-${i}`, status: 'processing' } })),
  );
  const after = await servedUntil(base, (now) => now[1] > before[1] && now[2] > before[2]);
  t.ok(after[1] > before[1] && after[2] > before[2], `both workers answered: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
});

t.test('one request log and one set of counts for all the workers: each request once, newest first', async (t) => {
  const metrics = async () => (await send(base, 'GET', '/__mock/metrics')).json.data;
  const pings = async () => (await send(base, 'GET', '/__mock/coverage')).json.data.routes['/ping'].methods.GET.request_count;
  const total = async () => (await send(base, 'GET', '/__mock/stats')).json.data.total_requests;
  const cleared = await admin('POST', '/__mock/logs/clear');
  t.equal(cleared.status, 200, cleared.text);
  const before = await metrics();
  const [coveredBefore, totalBefore] = [await pings(), await total()];
  for (let i = 0; i < 10; i++) t.equal((await send(base, 'GET', `/ping?n=${i}`)).status, 200);
  const logs = (await send(base, 'GET', '/__mock/logs')).json.data;
  t.same(
    logs.map((entry) => entry.query),
    Array.from({ length: 10 }, (_, i) => `n=${9 - i}`),
    'every request once, newest first, whichever worker answered it',
  );
  t.equal(new Set(logs.map((entry) => entry.id.split('-')[0])).size, 2, 'entries of both workers (their ids have a prefix per process)');
  t.same(
    (await send(base, 'GET', '/__mock/logs?limit=3')).json.data.map((entry) => entry.id),
    logs.slice(0, 3).map((entry) => entry.id),
  );
  const after = await metrics();
  t.equal(after.requests_by_endpoint['GET /ping'] - (before.requests_by_endpoint['GET /ping'] ?? 0), 10, 'the counts of both workers summed');
  t.ok(after.total_requests >= 10 && after.response_time_percentiles.p99 >= after.response_time_percentiles.p50);
  t.equal((await pings()) - coveredBefore, 10, "coverage counts both workers' requests");
  // the Prometheus endpoint (the first worker serves it) counts every worker's requests too
  const exposition = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  const scraped = [...exposition.matchAll(/^mock_http_requests_total\{method="GET",route="\/ping",status="200"[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  t.equal(scraped, after.requests_by_endpoint['GET /ping'], 'mock_http_requests_total sums both workers');
  t.equal((await total()) - totalBefore, 10, "stats count both workers' requests");
  const again = await admin('POST', '/__mock/logs/clear');
  t.equal(again.json.data.cleared, 10, "both workers' logs cleared");
  t.same((await send(base, 'GET', '/__mock/logs')).json.data, []);
});

t.test("the dashboard's per-route table and recent requests are every worker's", async (t) => {
  const row = async () => (await send(base, 'GET', '/__mock/dashboard')).json.data.routes.find((r) => r.method === 'GET' && r.path === '/ping');
  const before = await row();
  for (let i = 0; i < 10; i++) t.equal((await send(base, 'GET', `/ping?dash=${i}`)).status, 200);
  const dashboard = (await send(base, 'GET', '/__mock/dashboard')).json.data;
  const after = dashboard.routes.find((r) => r.method === 'GET' && r.path === '/ping');
  t.equal(after.request_count - before.request_count, 10, 'both workers counted');
  t.equal((after.response_codes['200'] ?? 0) - (before.response_codes['200'] ?? 0), 10);
  t.ok(after.last_request !== null && (before.last_request === null || after.last_request >= before.last_request), 'the latest request of any worker');
  t.same(
    dashboard.recent_logs.slice(0, 10).map((entry) => entry.query),
    Array.from({ length: 10 }, (_, i) => `dash=${9 - i}`),
    "recent requests of every worker, newest first",
  );
  t.equal(new Set(dashboard.recent_logs.slice(0, 10).map((entry) => entry.id.split('-')[0])).size, 2, 'entries of both workers');
});

t.test('every worker records into the one database, and a listing shows every request answered before it', async (t) => {
  const listing = async () => (await send(base, 'GET', '/__mock/recorder/recordings?limit=10')).json.data;
  const before = await listing();
  const answered = await served(base);
  for (let i = 0; i < 10; i++) t.equal((await send(base, 'GET', `/ping?rec=${i}`)).status, 200);
  const after = await listing();
  const by = await servedUntil(base, (now) => now[1] > answered[1] && now[2] > answered[2]);
  t.ok(by[1] > answered[1] && by[2] > answered[2], `both workers answered some: ${JSON.stringify(answered)} → ${JSON.stringify(by)}`);
  t.equal(after.total - before.total, 10, "each request once, at once: every worker wrote what it queued before the listing was read");
  // ids follow the batches as the workers wrote them (every 50 ms each), not the answers' order across workers
  t.same(
    after.recordings.map((r) => r.query).sort(),
    Array.from({ length: 10 }, (_, i) => `rec=${i}`),
  );
  t.equal(after.recorder.recorded - before.recorder.recorded, 10, "the figures add up every worker's");
  t.match(after.recorder, { queued: 0, dropped: 0 });
});

t.test("the live stream of one worker shows every worker's requests", async (t) => {
  const events = [];
  const stream = await new Promise((resolve, reject) => {
    const req = http.get(`${base}/__mock/logs/sse?path=/ping`, { agent: false }, (res) => {
      res.setEncoding('utf8');
      let buffered = '';
      res.on('data', (d) => {
        buffered += d;
        for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
          const data = /^data: (.*)$/m.exec(buffered.slice(0, end));
          if (data) events.push(JSON.parse(data[1]));
          buffered = buffered.slice(end + 2);
        }
      });
      resolve(req);
    });
    req.on('error', reject);
  });
  t.teardown(() => stream.destroy());
  // the other worker hears that a stream has a client before it forwards
  await sleep(300);
  const before = await served(base);
  for (let i = 0; i < 12; i++) await send(base, 'GET', `/ping?live=${i}`);
  for (let waited = 0; events.length < 12 && waited < 5000; waited += 50) await sleep(50);
  t.same(events.map((entry) => entry.query).sort(), Array.from({ length: 12 }, (_, i) => `live=${i}`).sort(), 'each request once, whichever worker answered it');
  const after = await servedUntil(base, (now) => now[1] > before[1] && now[2] > before[2]);
  t.ok(after[1] > before[1] && after[2] > before[2], 'both workers answered some');
});

t.test("the dashboards' per-second figures count every worker's requests", async (t) => {
  const stream = new WebSocket(`${base.replace('http', 'ws')}/__mock/ws`, { headers: { authorization: `Bearer ${token}` } });
  const metrics = [];
  stream.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.type === 'metrics') metrics.push(message.data);
  });
  await new Promise((resolve, reject) => {
    stream.once('open', resolve);
    stream.once('error', reject);
  });
  t.teardown(() => stream.close());
  for (let waited = 0; metrics.length === 0 && waited < 5000; waited += 50) await sleep(50);
  const first = metrics.at(-1);
  t.ok(first !== undefined, 'a metrics message every second');
  const before = await served(base);
  for (let i = 0; i < 20; i++) await send(base, 'GET', `/ping?tick=${i}`);
  // the message whose total takes in the last request carries that second's rate too (one interval)
  for (let waited = 0; metrics.at(-1).total_requests - first.total_requests < 20 && waited < 5000; waited += 50) await sleep(50);
  const last = metrics.at(-1);
  t.equal(last.total_requests - first.total_requests, 20, 'the total counts both workers');
  const counted = metrics.slice(metrics.indexOf(first) + 1).reduce((sum, m) => sum + Math.round(m.requests_per_second * 1), 0);
  t.ok(counted >= 18 && counted <= 22, `the per-second rates add up to the requests made: ${counted}`);
  const after = await servedUntil(base, (now) => now[1] > before[1] && now[2] > before[2]);
  t.ok(after[1] > before[1] && after[2] > before[2], 'both workers answered some');
});

t.test("a runtime mock created through one worker's admin answers on every worker, once the write answered", async (t) => {
  const created = await admin('POST', '/__mock/mocks', { method: 'GET', path: '/shared', response: { body: { shared: true } } });
  t.equal(created.status, 201, created.text);
  t.equal(created.headers['x-mock-workers-applied'], '2', 'both workers held it before the answer');
  const before = await served(base);
  const answers = await Promise.all(Array.from({ length: 16 }, () => send(base, 'GET', '/shared')));
  t.same(
    answers.map((a) => a.json),
    Array(16).fill({ shared: true }),
  );
  const after = await servedUntil(base, (now) => now[1] > before[1] && now[2] > before[2]);
  t.ok(after[1] > before[1] && after[2] > before[2], 'both workers answered it');
});

t.test('a rate limit holds for the workers together', async (t) => {
  const rps = 20;
  const burst = 5;
  const set = await admin('PUT', '/__mock/api/chaos/config', { rate_limit: { enabled: true, requests_per_second: rps, burst_size: burst } });
  t.equal(set.status, 200, set.text);
  t.equal(set.headers['x-mock-workers-applied'], '2');
  await sleep(1000 * (burst / rps) + 100);
  const counts = { 200: 0, 429: 0, other: 0 };
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (Date.now() - started < 2000) {
        const answer = await send(base, 'GET', '/ping');
        counts[answer.status === 200 || answer.status === 429 ? answer.status : 'other']++;
      }
    }),
  );
  const allowed = burst + (rps * (Date.now() - started)) / 1000;
  t.equal(counts.other, 0, 'every answer a 200 or a 429');
  // one bucket for both workers: per-worker buckets would let twice as many through
  t.ok(Math.abs(counts[200] - allowed) <= allowed * 0.15 + 6, `${counts[200]} passed (${counts[429]} refused); the bucket allows ${allowed.toFixed(0)}`);
  t.equal((await admin('PUT', '/__mock/api/chaos/config', { rate_limit: { enabled: false } })).status, 200);
});

t.test("a token one worker's admin API issued is valid on every worker, JWT_SECRET unset", async (t) => {
  t.equal(login.status, 200, login.text);
  // a write (reads need no token): twelve connections of their own, which the kernel spreads over both workers
  t.equal((await send(base, 'POST', '/__mock/logs/clear')).status, 401, 'refused without a token');
  const answers = await Promise.all(Array.from({ length: 12 }, () => admin('POST', '/__mock/logs/clear')));
  t.same(
    answers.map((a) => a.status),
    Array(12).fill(200),
    answers.map((a) => a.text).join('\n'),
  );
});

t.test('GraphQL mutations on one worker are read on every worker, and objects created at once get ids of their own', async (t) => {
  const graphqlUrl = new URL(/GraphQL on (http:\/\/\S+)/.exec(server.stdout)[1]);
  const gql = async (query, variables) => (await send(graphqlUrl.origin, 'POST', graphqlUrl.pathname, { query, variables })).json;
  const created = await Promise.all(Array.from({ length: 8 }, (_, i) => gql('mutation ($n: String!) { createUser(input: {name: $n, email: "e@example.com"}) { id name } }', { n: `user-${i}` })));
  t.same(
    created.map((answer) => answer.data?.createUser.name),
    Array.from({ length: 8 }, (_, i) => `user-${i}`),
    JSON.stringify(created),
  );
  const ids = created.map((answer) => answer.data.createUser.id);
  t.equal(new Set(ids).size, 8, `eight ids: ${ids.join(' ')}`);
  const read = await Promise.all(ids.map((id) => gql('query ($id: ID!) { user(id: $id) { name } }', { id })));
  t.same(
    read.map((answer) => answer.data?.user?.name),
    Array.from({ length: 8 }, (_, i) => `user-${i}`),
    'each read on a connection of its own, whichever worker answers',
  );
});

t.test("a query's answer each worker keeps (graphql.answer_cache_bytes) is dropped when a mutation on another worker changes the store", async (t) => {
  const graphqlUrl = new URL(/GraphQL on (http:\/\/\S+)/.exec(server.stdout)[1]);
  const gql = async (query, variables) => (await send(graphqlUrl.origin, 'POST', graphqlUrl.pathname, { query, variables })).json;
  const USER = 'query ($id: ID!) { user(id: $id) { name } }';
  // on connections of their own: every worker answers some, and keeps the answer
  const generated = await Promise.all(Array.from({ length: 8 }, () => gql(USER, { id: 'kept-1' })));
  t.equal(new Set(generated.map((answer) => answer.data?.user?.name)).size, 1, JSON.stringify(generated));
  t.same(await gql('mutation { updateUser(id: "kept-1", input: { name: "Changed" }) { name } }'), { data: { updateUser: { name: 'Changed' } } });
  const read = await Promise.all(Array.from({ length: 8 }, () => gql(USER, { id: 'kept-1' })));
  t.same(
    read.map((answer) => answer.data?.user?.name),
    Array(8).fill('Changed'),
    'no worker answers what it kept before the mutation',
  );
});

t.test('a worker killed with SIGKILL is started again, says so, and serves what the others hold', async (t) => {
  const [first, second] = await workers(base);
  process.kill(second.pid, 'SIGKILL');
  // the other worker keeps serving meanwhile; a connection the killed worker's listening socket had
  // queued, not accepted yet, is reset by the kernel (SO_REUSEPORT), and a client tries it again
  const meanwhile = await Promise.all(Array.from({ length: 6 }, () => retried(() => send(base, 'GET', '/orders/o-1'))));
  t.same(
    meanwhile.map((a) => a.status),
    Array(6).fill(200),
  );
  let now;
  for (let waited = 0; waited < 30_000; waited += 200) {
    now = await retried(() => workers(base));
    if (now.length === 2 && now[1].pid !== second.pid && now[1].restarts === 1 && now[1].state === 'serving') break;
    await sleep(200);
  }
  t.equal(now[0].pid, first.pid, 'the first worker was left alone');
  t.not(now[1].pid, second.pid, 'a new process for worker 2');
  t.equal(now[1].restarts, 1);
  t.match(server.stdout + server.stderr, new RegExp(`worker 2 \\(pid ${second.pid}\\) stopped \\(SIGKILL\\); starting another`));
  // the new worker serves the runtime mock and the orders made before it started
  const before = await served(base);
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(base, 'GET', i % 2 === 0 ? '/shared' : '/orders/o-3')));
  t.same(
    answers.map((a) => a.json),
    Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? { shared: true } : { id: 'o-3', status: 'processing' })),
  );
  const after = await servedUntil(base, (now) => now[2] > before[2]);
  t.ok(after[2] > before[2], 'the new worker answered some');
});

t.test('a restart through the admin API restarts every worker', async (t) => {
  const restarted = await admin('POST', '/__mock/servers/restart', { reason: 'test' });
  t.equal(restarted.status, 200, restarted.text);
  t.equal(restarted.json.data.message, 'Server restart initiated on 2 worker(s)');
  for (let waited = 0; waited < 10_000; waited += 200) {
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(base, 'GET', '/ping').catch(() => ({ status: 0 }))));
    if (answers.every((a) => a.status === 200)) break;
    await sleep(200);
  }
  t.same(
    (await Promise.all(Array.from({ length: 8 }, () => send(base, 'GET', '/ping')))).map((a) => a.status),
    Array(8).fill(200),
    'serving again',
  );
  let status;
  for (let waited = 0; waited < 10_000; waited += 200) {
    status = (await send(base, 'GET', '/__mock/servers/restart/status')).json.data;
    if (!status.in_progress) break;
    await sleep(200);
  }
  t.match(status, { in_progress: false, success: true, reason: 'test' }, 'done on every worker');
  t.same(
    status.workers.map((w) => [w.worker, w.success, w.reason]),
    [
      [1, true, 'test'],
      [2, true, 'test'],
    ],
    "each worker's restart",
  );
});

t.test('SIGTERM drains every worker and ends with exit code 0', async (t) => {
  const pids = (await workers(base)).map((w) => w.pid);
  t.equal(await server.stop(), 0);
  for (let waited = 0; waited < 5000 && pids.some(alive); waited += 100) await sleep(100);
  t.same(pids.filter(alive), [], 'no worker left running');
});

t.test('node:http workers share the port through node:cluster, serve HTTP/1.0, log to a file each, and answer a GraphQL query alike without --seed', async (t) => {
  const logDir = tmpdir();
  const node = await startMock(['--config', 'mock.yaml', '--workers', '2', '--http-backend', 'node', '--log-file', path.join(logDir, 'mock.log'), '--graphql-schema', shop, '--graphql-port', '0', '--admin-embed'], {
    cwd: dir,
    env: { MOCK_LOG_LEVEL: 'info' },
  });
  t.teardown(() => node.stop());
  t.match(node.stdout, /\(node:http\)\n(?:.*\n)*?mock: 2 workers/);
  const before = await served(node.url);
  const answers = await Promise.all(Array.from({ length: 12 }, () => send(node.url, 'GET', '/ping')));
  t.same(
    answers.map((a) => a.status),
    Array(12).fill(200),
  );
  const after = await servedUntil(node.url, (now) => now[1] > before[1] && now[2] > before[2]);
  t.ok(after[1] > before[1] && after[2] > before[2], `both workers answered: ${JSON.stringify(after)}`);
  const curl = spawnSync('curl', ['-s', '--http1.0', `${node.url}/ping`], { encoding: 'utf8' });
  t.equal(curl.stdout, JSON.stringify({ pong: true }));
  // no --seed: the primary draws GraphQL's seed once for every worker, so a query answers alike on each
  const graphqlUrl = new URL(/GraphQL on (http:\/\/\S+)/.exec(node.stdout)[1]);
  const bodies = await Promise.all(Array.from({ length: 12 }, () => send(graphqlUrl.origin, 'POST', graphqlUrl.pathname, { query: '{ me { id name email } users { id name } }' })));
  const logged = (await send(node.url, 'GET', '/__mock/logs?limit=12')).json.data;
  t.equal(new Set(logged.map((entry) => entry.id.split('-')[0])).size, 2, 'both workers answered queries');
  t.equal(new Set(bodies.map((b) => b.text)).size, 1, `one answer: ${bodies[0].text.slice(0, 120)}`);
  t.equal(await node.stop(), 0);
  // one rotating file has one writer: worker 1 writes the file named, worker 2 one of its own
  for (const file of ['mock.log', 'mock-worker-2.log']) t.match(readFileSync(path.join(logDir, file), 'utf8'), /GET \/ping 200/, `${file} holds its worker's requests`);
});

t.test('a bad number of workers, and a port in use, are one line each', async (t) => {
  for (const [given, said] of [
    [['--workers', '0'], /--workers: expected a number of workers from 1 to 256, or auto, got 0/],
    [['--workers', 'many'], /Expected a number of workers \(1 to 256\) or auto but received: many/],
  ]) {
    const run = await runMock(['serve', '--config', 'mock.yaml', ...given], { cwd: dir });
    t.not(run.code, 0);
    t.match(run.stderr, said);
  }
  const env = await runMock(['serve', '--config', 'mock.yaml', '--print-config'], { cwd: dir, env: { MOCK_WORKERS: 'auto' } });
  t.match(env.stdout, /workers: auto/);
  const taken = net.createServer();
  await new Promise((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const port = taken.address().port;
  const run = await runMock(['serve', '--config', 'mock.yaml', '--workers', '2', '--http-port', String(port), '--host', '127.0.0.1'], { cwd: dir, timeoutMs: 60_000 });
  t.not(run.code, 0);
  t.match(run.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
  t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
});

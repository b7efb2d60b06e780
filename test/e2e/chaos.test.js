// Chaos through the CLI, observed by real clients: per-route latency and faults from mock.yaml
// (core.routes), the Chaos API changing fault injection, rate limits, shaping, circuit breaker and
// bulkhead at run time, connection-level faults seen by curl and raw sockets (its exit codes are
// part of the contract), profiles over the API and `mock chaos profile`, and bad input refused.
import t from 'tap';
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { curl, needsCurl, root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { onceAcrossBackends } from '../helpers/node-http.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');

const dir = tmpdir();
// core.routes is part of the build: the max-connections server below keeps it, so it finds this build fresh
const ROUTES = `core:
  routes:
    - path: /v1/pets/{petId}
      method: GET
      latency: { enabled: true, distribution: normal, mean_ms: 40, std_dev_ms: 5 }
    - path: /v1/health
      fault_injection: { enabled: true, probability: 1, fault_types: [{ type: http_error, status_code: 503, message: health is down }] }
`;
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `specs: [${JSON.stringify(petstore)}]
seed: 7
${ROUTES}observability:
  chaos:
    enabled: true
`,
);

const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--admin-embed']);
t.teardown(() => server.stop());
const api = (endpoint) => `${server.url}/__mock/api/${endpoint}`;

async function send(method, endpoint, body) {
  const response = await fetch(api(endpoint), { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** Chaos back to how the server started, latency off, counters zero. */
async function calm() {
  await send('POST', 'chaos/config/reset');
  await send('POST', 'config/latency', { enabled: false });
  await send('POST', 'chaos/stats/reset');
}

t.test('per-route latency from core.routes: delayed, stamped, sampled', async (t) => {
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/pets/1`);
  const elapsed = performance.now() - started;
  t.equal(response.status, 200);
  const injected = Number(response.headers.get('x-mock-injected-latency-ms'));
  t.ok(injected > 15 && injected < 70, `a normal(40, 5) delay: ${injected} ms`);
  t.ok(elapsed >= injected - 2, `the client waited for it (${elapsed.toFixed(0)} ms)`);
  t.ok(response.headers.has('x-mock-injected-jitter-ms'));
  const samples = (await send('GET', 'chaos/metrics/latency')).body.data.samples;
  t.ok(samples.length >= 1 && typeof samples.at(-1).timestamp === 'string', 'the Chaos API keeps the sample');
  const stats = (await send('GET', 'chaos/metrics/latency/stats')).body.data;
  t.ok(stats.total_requests >= 1 && stats.max_latency_ms >= stats.min_latency_ms && 'p99_ms' in stats);
});

t.test('per-route faults from core.routes: status, message, X-Mock-Fault', async (t) => {
  const response = await fetch(`${server.url}/v1/health`);
  t.equal(response.status, 503);
  t.equal(response.headers.get('x-mock-fault'), 'http_error;status=503');
  const problem = await response.json();
  t.equal(problem.code, 'MOCK_ERR_CHAOS_HTTP_ERROR');
  t.match(problem.detail, /health is down/);
  t.equal((await fetch(`${server.url}/v1/pets`)).status, 200, 'other routes are untouched');
});

t.test('route-chaos API replaces the route chaos at run time', async (t) => {
  const set = await send('PUT', 'route-chaos', { route: 'GET /v1/health', fault_injection: { enabled: false } });
  t.equal(set.status, 200);
  t.equal((await fetch(`${server.url}/v1/health`)).status, 200, 'the fault is off');
  t.equal((await send('PUT', 'route-chaos', { route: 'GET /nope', fault_injection: { enabled: false } })).status, 400, 'an unknown route is refused');
  t.equal((await send('PUT', 'route-chaos', { route: 'GET /v1/pets', latency: { enabled: true, distribution: 'normal', mean_ms: 5 } })).status, 400, 'normal without std_dev_ms is refused');
  await send('DELETE', 'route-chaos?route=' + encodeURIComponent('GET /v1/health'));
  t.equal((await fetch(`${server.url}/v1/health`)).status, 503, 'deleted: core.routes applies again');
});

t.test('fault injection: sequential pattern, request matcher, counters', async (t) => {
  await calm();
  const put = await send('PUT', 'chaos/config/faults', {
    enabled: true,
    http_errors: [502],
    error_pattern: { type: 'sequential', sequence: [502, 504], repeat: false },
    request_matcher: { headers: [{ name: 'X-Chaos' }] },
  });
  t.equal(put.status, 200, JSON.stringify(put.body));
  t.equal((await fetch(`${server.url}/v1/pets`)).status, 200, 'a request the matcher does not select passes');
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${server.url}/v1/pets`, { headers: { 'x-chaos': '1' } });
    statuses.push(response.status);
    if (response.status !== 200) t.equal(response.headers.get('x-mock-fault'), `http_error;status=${response.status}`);
  }
  t.same(statuses, [502, 504, 200, 200], 'the sequence once, then every request passes');
  const stats = (await send('GET', 'chaos/stats')).body.data;
  t.equal(stats.by_type.http_error, 2);
});

t.test('fault injection: a request matcher selects by JSONPath conditions on the body', async (t) => {
  await calm();
  const put = await send('PUT', 'chaos/config/faults', { enabled: true, http_errors: [503], http_error_probability: 1, request_matcher: { json_path: { '$.tag': { matches: 'chaos-[0-9]+' } } } });
  t.equal(put.status, 200, JSON.stringify(put.body));
  const post = (body) => fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  t.equal((await post({ name: 'Rex', tag: 'chaos-7' })).status, 503, 'a body the path selects a matching value from');
  t.not((await post({ name: 'Rex', tag: 'calm' })).status, 503, 'a value that does not match passes');
  t.not((await fetch(`${server.url}/v1/pets`)).status, 503, 'a request without a JSON body has nothing to select');
});

t.test('fault injection: burst of exactly count per window', async (t) => {
  await calm();
  await send('PUT', 'chaos/config/faults', { enabled: true, http_errors: [500], error_pattern: { type: 'burst', count: 3, interval_ms: 60000 } });
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await fetch(`${server.url}/v1/pets`)).status);
  t.same(statuses, [500, 500, 500, 200, 200, 200]);
});

t.test('connection faults as curl sees them: tcp_close (52), partial response (18)', { skip: needsCurl }, async (t) => {
  await calm();
  await send('PUT', 'chaos/config/faults', { enabled: true, connection_errors: true, connection_error_probability: 1, connection_error_kind: 'tcp_close' });
  const closed = await curl(`${server.url}/v1/pets`);
  t.equal(closed.code, 52, `curl: ${closed.stderr.trim()}`);
  await calm();
  await send('PUT', 'chaos/config/faults', { enabled: true, partial_responses: true, partial_response_probability: 1 });
  const partial = await curl(`${server.url}/v1/pets/1`);
  t.equal(partial.code, 18, `curl: ${partial.stderr.trim()}`);
  await calm();
  await send('PUT', 'chaos/config/faults', { enabled: true, connection_errors: true, connection_error_probability: 1 });
  const refused = await fetch(`${server.url}/v1/pets`);
  t.equal(refused.status, 503, 'the default kind is http_503');
  t.equal((await refused.json()).code, 'MOCK_ERR_CHAOS_CONNECTION');
});

t.test('timeouts: an injected one holds, then 504', async (t) => {
  await calm();
  await send('PUT', 'chaos/config/faults', { enabled: true, timeout_errors: true, timeout_probability: 1, timeout_ms: 150 });
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/pets`);
  t.equal(response.status, 504);
  t.ok(performance.now() - started >= 145, 'after timeout_ms');
  t.equal(response.headers.get('x-mock-fault'), 'timeout');
  await calm();
});

t.test('an answer slower than connection_timeout_ms is cut off (curl 52)', { skip: needsCurl }, async (t) => {
  await calm();
  // a latency 40 times the timeout: a server that waited it out could not close sooner than it
  const LATENCY_MS = 4000;
  await send('POST', 'config/latency', { enabled: true, base_ms: LATENCY_MS, jitter_ms: 0 });
  await send('PUT', 'chaos/config', { traffic_shaping: { enabled: true, connection_timeout_ms: 100 } });
  const started = performance.now();
  const cut = await curl(`${server.url}/v1/pets`);
  const elapsed = performance.now() - started;
  t.equal(cut.code, 52, `curl: ${cut.stderr.trim()}`);
  t.ok(elapsed >= 95, `not before the timeout (${elapsed.toFixed(0)} ms)`);
  t.ok(elapsed < LATENCY_MS, `closed at the timeout, not after the ${LATENCY_MS} ms latency (${elapsed.toFixed(0)} ms)`);
  await calm();
});

t.test('payload corruption: bit_flip flips exactly the bits it reports', async (t) => {
  await calm();
  await send('POST', 'route-chaos', { route: 'GET /v1/pets/{petId}', latency: { enabled: false } });
  const clean = Buffer.from(await (await fetch(`${server.url}/v1/pets/1`)).arrayBuffer());
  await send('PUT', 'chaos/config/faults', { enabled: true, payload_corruption: true, payload_corruption_probability: 1, corruption_type: 'bit_flip' });
  const response = await fetch(`${server.url}/v1/pets/1`);
  const corrupted = Buffer.from(await response.arrayBuffer());
  const reported = /^payload_corruption;bit_flip;bits=(\d+)$/.exec(response.headers.get('x-mock-fault'));
  t.ok(reported, response.headers.get('x-mock-fault'));
  let flipped = 0;
  for (let i = 0; i < clean.length; i++) for (let x = clean[i] ^ corrupted[i]; x; x >>= 1) flipped += x & 1;
  t.equal(corrupted.length, clean.length);
  t.equal(flipped, Number(reported[1]));
  await send('DELETE', 'route-chaos', { route: 'GET /v1/pets/{petId}' });
});

t.test('rate limit: burst then 429 with Retry-After from the bucket', async (t) => {
  await calm();
  await send('PUT', 'chaos/config', { rate_limit: { enabled: true, requests_per_second: 0.5, burst_size: 3, headers: true } });
  const statuses = [];
  let refused;
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${server.url}/v1/pets`);
    statuses.push(response.status);
    if (response.status === 429) refused = { headers: response.headers, body: await response.text() };
    else t.match(response.headers.get('ratelimit-policy'), /^"mock";q=3;w=6$/);
  }
  t.same(statuses, [200, 200, 200, 429]);
  t.equal(refused.body, 'Rate limit exceeded');
  const retryMs = Number(refused.headers.get('x-mock-retry-after-ms'));
  t.ok(retryMs > 1000 && retryMs <= 2000, `the next token comes in ${retryMs} ms`);
  t.equal(refused.headers.get('retry-after'), String(Math.ceil(retryMs / 1000)));
  const stats = (await send('GET', 'chaos/stats')).body.data;
  t.equal(stats.rate_limit_violations.global, 1);
  t.equal((await send('GET', 'health')).status, 200, 'the admin API is never limited');
  await calm();
});

t.test('packet loss: 408 and the connection closed', async (t) => {
  await calm();
  await send('PUT', 'chaos/config', { traffic_shaping: { enabled: true, packet_loss_percent: 100 } });
  const response = await fetch(`${server.url}/v1/pets`);
  t.equal(response.status, 408);
  t.equal(response.headers.get('x-mock-fault'), 'packet_loss');
  t.equal(response.headers.get('connection'), 'close');
  await calm();
});

t.test('bandwidth: the body is paced, the first byte is not', async (t) => {
  await calm();
  const body = { blob: 'x'.repeat(96 * 1024) };
  t.equal((await fetch(api('mocks'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'GET', path: '/big', response: { body } }) })).status, 201);
  await send('PUT', 'chaos/config', { traffic_shaping: { enabled: true, bandwidth_limit_bps: 64 * 1024 } });
  const started = performance.now();
  const response = await fetch(`${server.url}/big`);
  const firstByte = performance.now() - started;
  const size = (await response.arrayBuffer()).byteLength;
  const total = performance.now() - started;
  // the pace is a floor under the time (a loaded machine only adds to it): 96 KiB at 64 KiB/s take 1.5 s
  const paced = (size / (64 * 1024)) * 1000;
  t.ok(total >= paced * 0.8, `the body took ${total.toFixed(0)} ms, at least what 64 KiB/s allows (${paced.toFixed(0)} ms)`);
  t.ok(firstByte < total / 4, `the first byte is not paced: ${firstByte.toFixed(0)} ms of ${total.toFixed(0)} ms`);
  await calm();
});

t.test('circuit breaker: opens after failures, refuses, half-opens after its timeout', async (t) => {
  await calm();
  await send('PUT', 'chaos/config', { circuit_breaker: { enabled: true, failure_threshold: 2, success_threshold: 1, timeout_ms: 400 } });
  t.equal((await fetch(`${server.url}/v1/health`)).status, 503, 'failure 1 (route fault)');
  t.equal((await fetch(`${server.url}/v1/health`)).status, 503, 'failure 2');
  const open = await fetch(`${server.url}/v1/pets`);
  t.equal(open.status, 503, 'open: even a healthy route is refused');
  t.equal(open.headers.get('x-mock-fault'), 'circuit_open');
  t.equal((await send('GET', 'chaos/stats')).body.data.circuit_breaker.state, 'open');
  await new Promise((resolve) => setTimeout(resolve, 450));
  t.equal((await fetch(`${server.url}/v1/pets`)).status, 200, 'half-open lets a probe through, and it succeeds');
  t.equal((await send('GET', 'chaos/stats')).body.data.circuit_breaker.state, 'closed');
  await calm();
});

t.test('bulkhead: beyond max_concurrent_requests and the queue, 503', async (t) => {
  await calm();
  await send('POST', 'config/latency', { enabled: true, base_ms: 300, jitter_ms: 0 });
  await send('PUT', 'chaos/config', { bulkhead: { enabled: true, max_concurrent_requests: 1, max_queue_size: 1 } });
  const responses = await Promise.all([0, 1, 2].map(() => fetch(`${server.url}/v1/pets`)));
  const statuses = responses.map((r) => r.status).sort();
  t.same(statuses, [200, 200, 503], 'one runs, one waits, one is refused');
  const refused = responses.find((r) => r.status === 503);
  t.equal(refused.headers.get('x-mock-fault'), 'bulkhead_full');
  await calm();
  const stats = (await send('GET', 'chaos/stats')).body.data;
  t.equal(stats.bulkhead.active, 0, 'every place was given back');
});

t.test('profiles: built-ins, apply, custom create/export/delete/import, dashboard', async (t) => {
  await calm();
  const list = (await send('GET', 'chaos/profiles')).body.data;
  t.same(list.filter((p) => p.builtin).map((p) => p.name).sort(), ['cable', 'dialup', 'fast_3g', 'flaky_wifi', 'high_latency', 'slow_3g', 'unstable_connection']);
  const applied = await send('POST', 'chaos/profiles/slow_3g/apply');
  t.equal(applied.status, 200);
  t.equal(applied.body.data.settings.traffic_shaping.bandwidth_limit_bps, 50000);
  const dashboard = (await send('GET', 'dashboard')).body.data;
  t.equal(dashboard.latency_profile.name, 'slow_3g');
  t.equal(dashboard.latency_profile.base_ms, 2000);
  await calm();

  const custom = { name: 'tiny', description: 'a little slow', tags: ['test'], chaos_config: { latency: { enabled: true, fixed_delay_ms: 5 }, fault_injection: { enabled: false } } };
  t.equal((await send('POST', 'chaos/profiles', custom)).status, 201);
  t.equal((await send('POST', 'chaos/profiles', custom)).status, 409, 'a second create of the name is refused');
  const exported = await fetch(api('chaos/profiles/tiny/export?format=json'));
  t.match(exported.headers.get('content-disposition'), /tiny\.chaos\.json/);
  const document = await exported.json();
  t.same(document, { name: 'tiny', description: 'a little slow', tags: ['test'], chaos_config: custom.chaos_config });
  t.equal((await send('DELETE', 'chaos/profiles/tiny')).status, 200);
  t.equal((await send('GET', 'chaos/profiles/tiny')).status, 404);
  t.equal((await send('POST', 'chaos/profiles/import', document)).status, 201);
  t.equal((await send('DELETE', 'chaos/profiles/slow_3g')).status, 400, 'built-ins cannot be deleted');
  t.equal((await send('POST', 'chaos/profiles/nope/apply')).status, 404);
});

t.test('mock chaos profile list/apply/export/import against the running server', async (t) => {
  const target = ['--admin-url', server.url];
  const file = path.join(tmpdir(), 'cable.json');
  // the commands that change nothing run side by side
  const [list, exported, unreachable] = await Promise.all([
    runMock(['chaos', 'profile', 'list', ...target]),
    runMock(['chaos', 'profile', 'export', 'cable', '--output', file, ...target]),
    runMock(['chaos', 'profile', 'list', '--admin-url', 'http://127.0.0.1:9']),
  ]);
  t.equal(list.code, 0, list.stderr);
  t.match(list.stdout, /slow_3g\s+built-in\s+Chrome DevTools/);
  t.equal(exported.code, 0, exported.stderr);
  writeFileSync(file, JSON.stringify({ ...JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')), name: 'my_cable' }));
  const imported = await runMock(['chaos', 'profile', 'import', file, ...target]);
  t.equal(imported.code, 0, imported.stderr);
  const applied = await runMock(['chaos', 'profile', 'apply', 'my_cable', ...target]);
  t.equal(applied.code, 0, applied.stderr);
  t.equal((await send('GET', 'chaos/config')).body.data.active_profile, 'my_cable');
  await calm();
  t.equal(unreachable.code, 1);
  t.match(unreachable.stderr, /cannot reach the admin API at http:\/\/127\.0\.0\.1:9/);
});

t.test('bad chaos input over the API: 400 naming the key, nothing changed', async (t) => {
  const cases = [
    [{ http_error_probability: 2 }, /http_error_probability: expected a probability/],
    [{ error_pattern: { type: 'burst', count: 3, interval_ms: 0 } }, /interval_ms/],
    [{ request_matcher: { source_ips: ['10.0.0.0/33'] } }, /10\.0\.0\.0\/33/],
    [{ request_matcher: { min_body_size_bytes: -1 } }, /min_body_size_bytes/],
    [{ request_matcher: { json_path: { '$[': 'x' } } }, /request_matcher\.json_path/],
    [{ connection_error_kind: 'explode' }, /connection_error_kind: expected one of http_503, tcp_reset, tcp_close/],
    [{ surprise: true }, /surprise: unknown setting/],
    // the schema's words for a list item and a required key (issue 36: one schema for the Chaos API and mock.yaml)
    [{ http_errors: [503, 700] }, /^chaos\.fault_injection\.http_errors\[1\]: expected an HTTP status \(100-599\), got 700$/],
  ];
  for (const [body, message] of cases) {
    const answer = await send('PUT', 'chaos/config/faults', body);
    t.equal(answer.status, 400, JSON.stringify(body));
    t.match(answer.body.error, message);
  }
  t.equal((await send('GET', 'chaos/config')).body.data.fault_injection.http_error_probability, 0, 'nothing was applied');
  const fault = await send('PUT', 'route-chaos', { route: 'GET /v1/pets', fault_injection: { enabled: true, fault_types: [{ type: 'http_error' }] } });
  t.equal(fault.status, 400, 'an http_error fault needs its status_code, as in mock.yaml');
  t.equal(fault.body.error, 'fault_injection.fault_types[0].status_code: expected an HTTP status (100-599)');
  t.equal((await send('PUT', 'chaos/config', { traffic_shaping: { max_connections: 0 } })).status, 200, 'max_connections 0 (unlimited, the default) is taken');
  const empty = await fetch(api('chaos/config/faults'), { method: 'PUT' });
  t.equal(empty.status, 400, 'an update without a body says what to send');
});

t.test('bad chaos input in mock.yaml: serve stops naming the key', { skip: onceAcrossBackends('mock config validate serves nothing') }, async (t) => {
  const bad = tmpdir();
  writeFileSync(
    path.join(bad, 'mock.yaml'),
    `specs: [${JSON.stringify(petstore)}]
core:
  routes:
    - path: /v1/pets
      latency: { enabled: true, distribution: lognormal, p50_ms: 100, p99_ms: 50 }
observability:
  chaos:
    profile: warp_speed
    fault_injection:
      enabled: true
      error_pattern: { type: burst, count: 2, interval_ms: 0 }
      request_matcher: { source_ips: [not-an-ip] }
`,
  );
  const result = await runMock(['config', 'validate', '-c', path.join(bad, 'mock.yaml')]);
  t.equal(result.code, 1);
  const output = result.stdout + result.stderr;
  t.match(output, /observability\.chaos\.fault_injection\.error_pattern/);
  t.match(output, /not-an-ip/);
  t.match(output, /observability\.chaos\.profile.*warp_speed/);
  t.match(output, /core\.routes\[0\]\.latency/);
});

t.test('max connections: a connection beyond the limit gets 503 and is closed', async (t) => {
  writeFileSync(path.join(dir, 'limited.yaml'), `specs: [${JSON.stringify(petstore)}]\n${ROUTES}`);
  const limited = await startMock(['-c', path.join(dir, 'limited.yaml'), '--out', path.join(dir, 'out'), '--max-connections', '2']);
  t.teardown(() => limited.stop());
  const { port } = new URL(limited.url);
  const open = () =>
    new Promise((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
    });
  const sockets = [await open(), await open()];
  const third = await open();
  const answer = await new Promise((resolve) => {
    let text = '';
    third.on('data', (d) => (text += d));
    third.on('close', () => resolve(text));
    third.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });
  t.match(answer, /^HTTP\/1\.1 503 /);
  t.match(answer, /MOCK_ERR_CHAOS_CONNECTION_LIMIT/);
  for (const socket of sockets) socket.destroy();
});

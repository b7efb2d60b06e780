// The admin REST API end to end (SPEC "Endpoints → Admin API", docs/admin.md): the envelope, CORS,
// dashboard, health, routes, coverage, logs and their SSE stream, metrics, runtime configuration,
// env, restarts, and the ways the admin server is started (own port, embedded, disabled, `mock admin`).
//
// One main server (a copy of examples/petstore.yaml, admin started from MOCK_ADMIN_* variables)
// serves the subtests in order: the first traffic is sent by "after known traffic", so exact
// counts can be asserted there; runtime settings changed by a subtest are put back by it; the
// restart subtests come last because they change the description.
import t from 'tap';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { EventSource } from 'eventsource';
import { corpus, root, startMock, tmpdir } from '../helpers/cli.js';
import { ISO, envelope, failure, isRecentIso, pipelined, post, rawRequest, restartSettled, startAdminCommand } from '../helpers/admin.js';

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const work = tmpdir();
const specFile = path.join(work, 'petstore.yaml');
const petstoreText = readFileSync(path.join(root, 'examples/petstore.yaml'), 'utf8');
copyFileSync(path.join(root, 'examples/petstore.yaml'), specFile);

const SECRET = 'not-for-your-eyes-1234';
const server = await startMock(['--spec', specFile, '--out', path.join(work, 'generated')], {
  env: { MOCK_ADMIN_ENABLED: 'true', MOCK_ADMIN_PORT: '0', MOCK_SEED: '7', MOCK_X_TOKEN: SECRET },
});
t.teardown(() => server.stop());

const UA = 'admin-e2e/1';
const admin = (p, init) => fetch(`${server.adminUrl}${p}`, init);
const mock = (p, init = {}) => fetch(`${server.url}${p}`, { ...init, headers: { 'user-agent': UA, ...init.headers } });
const hostPort = (url) => new URL(url).host;
const PET = { name: 'Kit', kind: 'cat' };
const INVALID_PET = { kind: 'cat' }; // name is required
const postPet = (body, headers = {}) => mock('/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `data` of GET {base}/__mock/<name>, asserting the envelope. */
const get = async (t, name, base = server.adminUrl) => envelope(t, await fetch(`${base}/__mock/${name}`));
/** Drops the fields that change from one call to the next. */
// fields that move between two calls: the clock's readings among them
const stable = (value) => JSON.parse(JSON.stringify(value, (k, v) => (['timestamp', 'uptime_seconds', 'last_check', 'virtual_time', 'real_time'].includes(k) ? undefined : v)));

const PETSTORE_ROUTES = [
  { method: 'GET', path: '/v1/pets', operation_id: 'listPets', summary: 'List all pets', parameters: ['limit', 'kind'] },
  { method: 'POST', path: '/v1/pets', operation_id: 'createPet', summary: 'Create a pet', parameters: [] },
  { method: 'GET', path: '/v1/pets/{petId}', operation_id: 'showPetById', summary: 'Info for a specific pet', parameters: ['petId'] },
  { method: 'DELETE', path: '/v1/pets/{petId}', operation_id: 'deletePet', summary: 'Delete a pet', parameters: ['petId'] },
  { method: 'GET', path: '/v1/health', operation_id: 'health', summary: 'Liveness probe', parameters: [] },
];

t.test('the admin server starts from MOCK_ADMIN_ENABLED=true and MOCK_ADMIN_PORT=0', async (t) => {
  t.ok(server.adminUrl, `"admin on" line printed:\n${server.stdout}`);
  t.not(hostPort(server.adminUrl), hostPort(server.url), 'its own port, not the HTTP port');
  t.not(new URL(server.adminUrl).port, '9080', 'port 0 picked a free port');
});

t.test('GET /__mock and /__mock/api list the endpoints', async (t) => {
  const list = await get(t, '');
  t.same(await get(t, 'api'), list, 'both prefixes list the same');
  t.ok(Array.isArray(list) && list.length > 20, 'a list of endpoints');
  for (const entry of list) {
    t.same(Object.keys(entry).sort(), ['method', 'path']);
    t.match(entry.method, /^(GET|POST|PUT|DELETE)$/);
    t.match(entry.path, /^\/__mock\//);
  }
  const has = (method, p) => list.some((e) => e.method === method && e.path === p);
  for (const [method, p] of [
    ['GET', '/__mock/dashboard'],
    ['GET', '/__mock/health'],
    ['GET', '/__mock/server-info'],
    ['GET', '/__mock/server-config'],
    ['GET', '/__mock/stats'],
    ['POST', '/__mock/servers/restart'],
    ['GET', '/__mock/servers/restart/status'],
    ['GET', '/__mock/routes'],
    ['GET', '/__mock/coverage'],
    ['GET', '/__mock/logs'],
    ['POST', '/__mock/logs/clear'],
    ['GET', '/__mock/logs/sse'],
    ['GET', '/__mock/metrics'],
    ['GET', '/__mock/config'],
    ['POST', '/__mock/config'],
    ['POST', '/__mock/config/latency'],
    ['POST', '/__mock/config/faults'],
    ['POST', '/__mock/config/proxy'],
    ['POST', '/__mock/validation'],
    ['GET', '/__mock/env'],
    ['POST', '/__mock/env'],
    ['GET', '/__mock/mocks'],
    ['POST', '/__mock/mocks'],
  ]) {
    t.ok(has(method, p), `${method} ${p} is listed`);
  }
});

// the health check, the log stream and the HAR export (a file) are the GET endpoints that answer no envelope
t.test('every GET endpoint answers the envelope under /__mock/x and /__mock/api/x alike', async (t) => {
  const list = await get(t, '');
  const gets = list.filter((e) => e.method === 'GET' && !e.path.includes('{') && !['/__mock/health', '/__mock/logs/sse', '/__mock/fixtures/har'].includes(e.path) && !e.path.startsWith('/__mock/auth/'));
  t.ok(gets.length >= 12, `${gets.length} GET endpoints`);
  for (const { path: p } of gets) {
    const name = p.slice('/__mock/'.length);
    const short = await admin(`/__mock/${name}`);
    const long = await admin(`/__mock/api/${name}`);
    t.equal(long.status, short.status, `${name}: same status under both prefixes`);
    const a = await short.json();
    const b = await long.json();
    t.same(Object.keys(a).sort(), ['data', 'error', 'success', 'timestamp'], `${name}: envelope`);
    t.match(a.timestamp, ISO, `${name}: ISO timestamp`);
    t.equal(a.success, short.status < 400, `${name}: success matches the status`);
    t.equal(a.error === null, a.success, `${name}: error null exactly on success`);
    if (!a.success) t.equal(a.data, null, `${name}: data null on failure`);
    t.equal(b.success, a.success, `${name}: same outcome under /__mock/api`);
  }
  // endpoints whose data does not change between two calls answer the same data
  for (const name of ['routes', 'config', 'server-info', 'server-config', 'env', 'coverage', 'logs', 'mocks', 'servers/restart/status']) {
    t.same(stable(await get(t, `api/${name}`)), stable(await get(t, name)), `${name}: same data under both prefixes`);
  }
});

t.test('GET /__mock/health is the unwrapped health object', async (t) => {
  for (const p of ['/__mock/health', '/__mock/api/health']) {
    const res = await admin(p);
    t.equal(res.status, 200);
    t.equal(res.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS grant');
    const health = await res.json();
    t.same(Object.keys(health).sort(), ['issues', 'last_check', 'services', 'status'], 'no envelope');
    t.equal(health.status, 'healthy');
    t.same(health.services, { http: 'running', websocket: 'disabled', grpc: 'disabled', graphql: 'disabled' });
    isRecentIso(t, health.last_check, 'last_check');
    t.same(health.issues, []);
  }
});

// a dashboard served from this machine (any loopback origin is allowed by default; docs/admin.md "Security")
const DASHBOARD = 'http://localhost:5173';

t.test('CORS: answers echo an allowed origin; OPTIONS preflights get 204 with methods and headers', async (t) => {
  for (const p of ['/__mock/dashboard', '/__mock/api/config', '/__mock/nope']) {
    const res = await admin(p, { headers: { origin: DASHBOARD } });
    t.equal(res.headers.get('access-control-allow-origin'), DASHBOARD, `${p} (status ${res.status})`);
    t.match(res.headers.get('vary'), /Origin/, 'Vary: Origin');
  }
  for (const p of ['/__mock/config', '/__mock/api/mocks', '/__mock/logs/clear']) {
    const pre = await admin(p, {
      method: 'OPTIONS',
      headers: { origin: DASHBOARD, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    t.equal(pre.status, 204, `preflight of ${p}`);
    t.equal(pre.headers.get('access-control-allow-origin'), DASHBOARD);
    const methods = pre.headers.get('access-control-allow-methods') ?? '';
    for (const m of ['GET', 'POST', 'PUT', 'DELETE']) t.match(methods, new RegExp(`\\b${m}\\b`), `allows ${m}`);
    t.match(pre.headers.get('access-control-allow-headers') ?? '', /content-type/i, 'allows content-type');
    t.match(pre.headers.get('access-control-allow-headers') ?? '', /authorization/i, 'allows authorization');
    t.equal(await pre.text(), '', 'no body');
  }
  const mgmt = await fetch(`${server.url}/__mock/stats`, { headers: { origin: DASHBOARD } });
  t.equal(mgmt.headers.get('access-control-allow-origin'), DASHBOARD, 'the management router of the HTTP server too');
});

/**
 * Sends a request whose body is `size` bytes of "a" on a raw socket and resolves with the answer
 * (the server may close the connection before the whole body is written; that is expected).
 */
function oversized(baseUrl, p, size) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      const end = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine?.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
    socket.write(`POST ${p} HTTP/1.1\r\nHost: localhost\r\nOrigin: ${DASHBOARD}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!socket.write(chunk.subarray(0, n))) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

t.test('a body over 16 MiB is a 413 envelope, with CORS like every answer', async (t) => {
  const res = await oversized(server.adminUrl, '/__mock/files/save', 16 * 1024 * 1024 + 4096);
  t.equal(res.status, 413);
  const body = JSON.parse(res.body);
  t.match(body, { success: false, data: null, error: /exceeds 16777216 bytes/, timestamp: ISO });
  t.match(res.headers['content-type'], /^application\/json/);
  t.equal(res.headers['access-control-allow-origin'], DASHBOARD, 'a browser dashboard can read the 413 (docs/admin.md: every answer carries CORS)');
  t.equal((await admin('/__mock/health')).status, 200, 'the admin server answers afterwards');
});

t.test('before any traffic', async (t) => {
  const dash = await get(t, 'dashboard');
  t.same(Object.keys(dash).sort(), ['fault_config', 'latency_profile', 'proxy_config', 'recent_logs', 'routes', 'servers', 'system', 'time']);
  t.match(dash.time, { enabled: false, scale_factor: 1, pending_schedule: [] }, 'the clock: time travel off');
  const { system } = dash;
  t.equal(system.version, pkg.version, 'system.version is the package version');
  t.ok(Number.isInteger(system.uptime_seconds) && system.uptime_seconds >= 0, 'uptime_seconds');
  t.ok(system.memory_usage_mb > 0, `memory_usage_mb ${system.memory_usage_mb}`);
  t.type(system.cpu_usage_percent, 'number');
  t.ok(system.cpu_usage_percent >= 0, 'cpu_usage_percent >= 0');
  t.ok(Number.isInteger(system.active_threads) && system.active_threads >= 1, `active_threads ${system.active_threads}`);
  t.equal(system.total_routes, 5, 'five operations in petstore');
  t.equal(system.total_fixtures, 0);

  t.equal(dash.servers.length, 1);
  const [httpServer] = dash.servers;
  t.equal(httpServer.server_type, 'HTTP');
  t.equal(httpServer.address, hostPort(server.url), 'address is host:port of the HTTP URL');
  t.equal(httpServer.running, true);
  isRecentIso(t, httpServer.start_time, 'start_time', 600_000);
  t.ok(Number.isInteger(httpServer.uptime_seconds));
  t.equal(httpServer.total_requests, 0);
  t.ok('active_connections' in httpServer);
  // the default backend: uWebSockets.js where it loads, as the start line says
  t.match(httpServer, { library: /\(uWebSockets\.js/.test(server.stdout) ? 'uws' : 'node', http_version: '1.1' }, 'what serves the port, and its HTTP version');

  t.same(
    dash.routes.map((r) => `${r.method} ${r.path}`),
    PETSTORE_ROUTES.map((r) => `${r.method} ${r.path}`),
  );
  // CORS is on by default (docs/cors.md): the one stage every route runs
  for (const row of dash.routes) {
    t.same(row, { method: row.method, path: row.path, priority: 0, has_fixtures: false, latency_ms: 0, request_count: 0, last_request: null, error_count: 0, response_codes: {}, stages: ['cors'] }, `row ${row.method} ${row.path}`);
  }
  t.same(dash.recent_logs, []);
  t.match(dash.latency_profile, { name: String, base_ms: 0, jitter_ms: Number, tag_overrides: {} });
  t.same(dash.fault_config, { enabled: false, failure_rate: 0, status_codes: [500, 502, 503, 504], active_failures: 0 });
  t.same(dash.proxy_config, { enabled: false, upstream_url: null, timeout_seconds: 30, requests_proxied: 0 });

  const coverage = await get(t, 'coverage');
  t.equal(coverage.total_routes, 3, 'three documented paths');
  t.equal(coverage.covered_routes, 0);
  t.equal(coverage.coverage_percentage, 0);
  t.same(Object.keys(coverage.routes).sort(), ['/v1/health', '/v1/pets', '/v1/pets/{petId}']);

  const metrics = await get(t, 'metrics');
  t.same(metrics.requests_by_endpoint, {});
  t.same(metrics.error_rate_by_endpoint, {});
  t.same(metrics.response_time_percentiles, { p50: 0, p95: 0, p99: 0 });

  const stats = await get(t, 'stats');
  t.same(stats, { ...stats, total_requests: 0, active_mocks: 0, enabled_mocks: 0, registered_routes: 5 });
  t.same(Object.keys(stats).sort(), ['active_mocks', 'enabled_mocks', 'registered_routes', 'total_requests', 'uptime_seconds']);
  t.same(await get(t, 'servers/restart/status'), { in_progress: false, initiated_at: null, reason: null, success: null, completed_at: null, error: null });
  t.same(await get(t, 'logs'), []);
});

t.test('after known traffic (2× GET /v1/pets, GET /v1/pets/1, a 404 on /v1/pets/99)', async (t) => {
  const before = Date.now();
  for (let i = 0; i < 2; i++) t.equal((await mock('/v1/pets')).status, 200);
  t.equal((await mock('/v1/pets/1')).status, 200);
  t.equal((await mock('/v1/pets/99', { headers: { prefer: 'code=404' } })).status, 404);

  t.test('coverage: per-path routes, methods with request counts and response codes', async (t) => {
    const coverage = await get(t, 'coverage');
    // the server counts an answer just after writing it: on a loaded machine the client may read it
    // first, so the upper bound is when the count was read, not when the answer arrived
    const read = Date.now();
    t.equal(coverage.total_routes, 3);
    t.equal(coverage.covered_routes, 2);
    t.equal(coverage.coverage_percentage, 66.67);
    const pets = coverage.routes['/v1/pets'];
    t.equal(pets.path, '/v1/pets');
    t.same(pets.method.split(', ').sort(), ['GET', 'POST']);
    t.same(Object.keys(pets.methods).sort(), ['GET', 'POST']);
    t.match(pets.methods.GET, { request_count: 2, response_codes: { 200: 2 }, last_request: ISO });
    t.same(pets.methods.GET.response_codes, { 200: 2 });
    t.same(pets.methods.POST, { request_count: 0, response_codes: {}, last_request: null });
    t.equal(pets.total_requests, 2);
    t.equal(pets.covered_methods, 1);
    const pet = coverage.routes['/v1/pets/{petId}'];
    t.same(pet.methods.GET.response_codes, { 200: 1, 404: 1 }, 'the 404 is counted on its route');
    t.equal(pet.methods.GET.request_count, 2);
    t.equal(pet.methods.DELETE.request_count, 0);
    t.equal(pet.covered_methods, 1);
    const last = Date.parse(pet.methods.GET.last_request);
    t.ok(last >= before - 5 && last <= read, 'last_request is when the request was answered');
    t.same(coverage.routes['/v1/health'], { method: 'GET', path: '/v1/health', methods: { GET: { request_count: 0, response_codes: {}, last_request: null } }, total_requests: 0, covered_methods: 0 });
    t.same(await get(t, 'coverage', server.url), coverage, 'the HTTP server management router reports the same');
  });

  t.test('metrics: requests and error rates per endpoint, percentiles, resource series', async (t) => {
    const metrics = await get(t, 'metrics');
    t.equal(metrics.total_requests, 4);
    t.same(metrics.requests_by_endpoint, { 'GET /v1/pets': 2, 'GET /v1/pets/{petId}': 2 });
    t.same(metrics.error_rate_by_endpoint, { 'GET /v1/pets': 0, 'GET /v1/pets/{petId}': 0.5 }, 'one ok and one 404 on the same route: 0.5');
    const { p50, p95, p99 } = metrics.response_time_percentiles;
    t.ok(p50 > 0, `p50 ${p50} > 0`);
    t.ok(p50 <= p95 && p95 <= p99, `p50 ${p50} <= p95 ${p95} <= p99 ${p99}`);
    for (const series of ['memory_usage_over_time', 'cpu_usage_over_time']) {
      t.ok(Array.isArray(metrics[series]) && metrics[series].length >= 1, `${series} has samples`);
      for (const sample of metrics[series]) {
        t.equal(sample.length, 2, `${series}: [time, value]`);
        t.match(sample[0], ISO);
        t.type(sample[1], 'number');
      }
    }
    t.ok(metrics.memory_usage_over_time.every(([, mb]) => mb > 0), 'memory in MB > 0');
  });

  t.test('dashboard: total requests, route rows and recent logs', async (t) => {
    const dash = await get(t, 'dashboard');
    t.equal(dash.servers[0].total_requests, 4, 'total_requests counts the requests sent');
    const row = (method, p) => dash.routes.find((r) => r.method === method && r.path === p);
    t.match(row('GET', '/v1/pets'), { request_count: 2, error_count: 0, last_request: ISO, priority: 0, has_fixtures: false });
    t.ok(row('GET', '/v1/pets').latency_ms > 0, 'latency_ms is the mean response time');
    t.match(row('GET', '/v1/pets/{petId}'), { request_count: 2, error_count: 1, last_request: ISO });
    t.match(row('DELETE', '/v1/pets/{petId}'), { request_count: 0, error_count: 0, last_request: null, latency_ms: 0 });
    t.same(
      dash.recent_logs.map((e) => `${e.method} ${e.path} ${e.status_code}`),
      ['GET /v1/pets/99 404', 'GET /v1/pets/1 200', 'GET /v1/pets 200', 'GET /v1/pets 200'],
      'recent_logs newest first',
    );
  });

  t.test('stats on the admin server and on the HTTP server management router', async (t) => {
    for (const base of [server.adminUrl, server.url]) {
      const stats = await get(t, 'stats', base);
      t.same(Object.keys(stats).sort(), ['active_mocks', 'enabled_mocks', 'registered_routes', 'total_requests', 'uptime_seconds']);
      t.match(stats, { total_requests: 4, active_mocks: 0, enabled_mocks: 0, registered_routes: 5 }, base);
      t.ok(Number.isInteger(stats.uptime_seconds) && stats.uptime_seconds >= 0);
    }
    t.same(stable(await get(t, 'api/stats', server.url)), stable(await get(t, 'stats', server.url)), '/__mock/api/stats on the HTTP server too');
  });
});

t.test('routes: RouteInfo of every operation, on the admin server and the management router', async (t) => {
  const routes = await get(t, 'routes');
  t.equal(routes.length, 5);
  for (const [i, expected] of PETSTORE_ROUTES.entries()) {
    t.match(routes[i], expected, `${expected.method} ${expected.path}`);
    t.same(routes[i].parameters, expected.parameters, 'parameter names');
    t.ok('description' in routes[i], 'description field present');
  }
  t.same(await get(t, 'routes', server.url), routes, 'same list from {url}/__mock/routes');
});

t.test('server-info and server-config', async (t) => {
  t.same(await get(t, 'server-info'), { http_server: hostPort(server.url), ws_server: null, grpc_server: null });
  t.same(await get(t, 'server-config'), { version: pkg.version, port: Number(new URL(server.url).port), has_openapi_spec: true, spec_path: specFile });
});

t.test('the HTTP server answers the management router under /__mock, not the admin API', async (t) => {
  const res = await fetch(`${server.url}/__mock/health`);
  t.equal(res.status, 200);
  const health = await res.json();
  t.match(health, { status: 'healthy', services: { http: 'running', websocket: 'disabled', grpc: 'disabled' }, last_check: ISO, issues: [] });
  t.same(await get(t, 'mocks', server.url), [], 'no runtime mocks');
  t.same(await get(t, 'api/mocks', server.url), []);
  await failure(t, await fetch(`${server.url}/__mock/dashboard`), 404, /no admin endpoint GET \/__mock\/dashboard/);
  await failure(t, await fetch(`${server.url}/__mock/config`), 404);
  const stats = await get(t, 'stats');
  t.equal(stats.total_requests, 4, 'management requests are not counted as mock traffic');
});

t.test('logs: entry shape, filters, limit, bad filters, clear', async (t) => {
  const cleared = await envelope(t, await admin('/__mock/logs/clear', { method: 'POST' }));
  t.match(cleared, { message: String, cleared: 4 });
  t.same(await get(t, 'logs'), [], 'empty after clear');

  const sent = [
    ['GET', '/v1/pets', {}, 200],
    ['GET', '/v1/pets/1', {}, 200],
    ['GET', '/v1/pets/2', { prefer: 'code=404' }, 404],
    ['POST', '/v1/pets', { 'content-type': 'application/json' }, 201, JSON.stringify(PET)],
    ['DELETE', '/v1/pets/3', {}, 204],
    ['GET', '/nope/here', {}, 404],
  ];
  const sizes = [];
  for (const [i, [method, p, headers, status, body]] of sent.entries()) {
    const res = await mock(`${p}${i === 0 ? '?limit=5' : ''}`, { method, headers: { ...headers, 'x-trace': `logs-${i}` }, body });
    t.equal(res.status, status, `${method} ${p}`);
    sizes.push((await res.arrayBuffer()).byteLength);
  }

  const all = await get(t, 'logs');
  t.equal(all.length, 6);
  t.same(
    all.map((e) => `${e.method} ${e.path}`),
    sent.map(([m, p]) => `${m} ${p}`).reverse(),
    'newest first; the path has no query string',
  );
  t.equal(new Set(all.map((e) => e.id)).size, 6, 'ids are unique');
  for (let i = 1; i < all.length; i++) t.ok(Date.parse(all[i - 1].timestamp) >= Date.parse(all[i].timestamp), 'timestamps do not increase');
  for (const [j, entry] of all.entries()) {
    const i = sent.length - 1 - j;
    const unrouted = sent[i][1] === '/nope/here';
    t.same(
      Object.keys(entry).sort(),
      [
        'client_ip',
        ...(unrouted ? ['error'] : []),
        'error_message',
        'headers',
        'id',
        'method',
        'path',
        'query',
        ...(sent[i][4] === undefined ? [] : ['request_body']),
        ...(sizes[i] === 0 ? [] : ['response_body']),
        'response_size_bytes',
        'response_time_ms',
        'route',
        'source',
        'status_code',
        'timestamp',
        'user_agent',
      ],
      "the spec's fields, HTTP's route and query, the bodies sent and answered, a refusal's reason (docs/dashboard.md)",
    );
    t.type(entry.id, 'string');
    isRecentIso(t, entry.timestamp);
    t.equal(entry.status_code, sent[i][3]);
    t.ok(Number.isInteger(entry.response_time_ms) && entry.response_time_ms >= 0, 'response_time_ms integer');
    t.equal(entry.client_ip, '127.0.0.1');
    t.equal(entry.user_agent, UA);
    t.equal(entry.headers['x-trace'], `logs-${i}`, 'request headers, lower-case names');
    t.equal(entry.headers.host, hostPort(server.url));
    t.equal(entry.response_size_bytes, sizes[i], `response_size_bytes = ${sizes[i]} bytes received`);
    if (unrouted) t.match(entry, { error: { code: 'MOCK_ERR_ROUTE_NOT_FOUND', detail: /GET \/nope\/here/ }, error_message: /GET \/nope\/here/ }, 'no route: the reason');
    else t.equal(entry.error_message, null);
  }

  const query = async (q) => (await get(t, `logs?${q}`)).map((e) => `${e.method} ${e.path} ${e.status_code}`);
  t.same(await query('method=POST'), ['POST /v1/pets 201']);
  t.same(await query('method=delete'), ['DELETE /v1/pets/3 204'], 'method in any case');
  t.same(await query('path=/v1/pets'), ['POST /v1/pets 201', 'GET /v1/pets 200'], 'exact path');
  t.same(await query(`path=${encodeURIComponent('/v1/pets/*')}`), ['DELETE /v1/pets/3 204', 'GET /v1/pets/2 404', 'GET /v1/pets/1 200'], '* within one segment');
  t.same((await query(`path=${encodeURIComponent('/v1/**')}`)).length, 5, '** across segments: everything under /v1/');
  t.same(await query('status=404'), ['GET /nope/here 404', 'GET /v1/pets/2 404']);
  t.same(await query('limit=2'), ['GET /nope/here 404', 'DELETE /v1/pets/3 204'], 'limit keeps the newest');
  t.same(await query(`method=GET&status=200&path=${encodeURIComponent('/v1/**')}`), ['GET /v1/pets/1 200', 'GET /v1/pets 200'], 'filters combine');
  t.same(await query('status=500'), [], 'nothing matches');
  t.same(await query('method=GET&limit=1'), ['GET /nope/here 404']);

  await failure(t, await admin('/__mock/logs?status=abc'), 400, /status/);
  await failure(t, await admin('/__mock/logs?status=99'), 400, /status/);
  await failure(t, await admin('/__mock/logs?limit=0'), 400, /limit/);
  await failure(t, await admin('/__mock/logs?limit=-3'), 400, /limit/);
  await failure(t, await admin('/__mock/logs?limit=ten'), 400, /limit/);
  await failure(t, await admin('/__mock/logs?method=G3T'), 400, /method/);

  const dash = await get(t, 'dashboard');
  t.same(dash.recent_logs, all, 'dashboard recent_logs are the same entries');

  const clearedAgain = await envelope(t, await admin('/__mock/api/logs/clear', { method: 'POST' }));
  t.equal(clearedAgain.cleared, 6);
  t.same(await get(t, 'logs'), []);
  t.same((await get(t, 'dashboard')).recent_logs, []);
});

/** Collects `log` events of an EventSource. */
function logEvents(es) {
  const events = [];
  const waiters = new Set();
  es.addEventListener('log', (event) => {
    events.push(event);
    for (const w of waiters) w();
  });
  return {
    events,
    until(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < n) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(events.slice(0, n));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${events.length} of ${n} log events within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** A log stream on a bare socket: resolves once the stream's first bytes arrived, with `closed` for when the server ends it. */
function rawSse(base, target) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`));
    const closed = new Promise((done) => socket.on('close', done));
    let head = '';
    socket.on('error', reject);
    socket.on('data', (d) => {
      head += d.toString('latin1');
      if (!head.includes('retry:')) return;
      if (!head.startsWith('HTTP/1.1 200')) reject(new Error(`no stream: ${head.split('\r\n')[0]}`));
      socket.removeAllListeners('data');
      socket.on('data', () => undefined);
      resolve({ socket, closed });
    });
  });
}

function opened(es) {
  return new Promise((resolve, reject) => {
    es.onopen = () => resolve();
    es.onerror = (e) => reject(new Error(`EventSource failed: ${e.message ?? e.type}`));
  });
}

t.test('logs/sse streams log events as requests are answered', async (t) => {
  const head = new AbortController();
  const raw = await admin('/__mock/logs/sse', { signal: head.signal });
  t.equal(raw.status, 200);
  t.match(raw.headers.get('content-type'), /^text\/event-stream/);
  t.equal(raw.headers.get('cache-control'), 'no-cache');
  head.abort();
  await failure(t, await admin('/__mock/logs/sse?status=abc'), 400, /status/);

  const es = new EventSource(`${server.adminUrl}/__mock/logs/sse`);
  const postsOnly = new EventSource(`${server.adminUrl}/__mock/api/logs/sse?method=POST`);
  t.teardown(() => {
    es.close();
    postsOnly.close();
  });
  const all = logEvents(es);
  const posts = logEvents(postsOnly);
  await Promise.all([opened(es), opened(postsOnly)]);

  t.equal((await mock('/v1/pets/1')).status, 200);
  t.equal((await postPet(PET)).status, 201);
  t.equal((await mock('/v1/pets/2', { headers: { prefer: 'example=dog' } })).status, 200);
  const events = await all.until(3);
  const entries = events.map((e) => JSON.parse(e.data));
  t.same(
    entries.map((e) => `${e.method} ${e.path} ${e.status_code}`),
    ['GET /v1/pets/1 200', 'POST /v1/pets 201', 'GET /v1/pets/2 200'],
    'in the order answered',
  );
  for (const [i, event] of events.entries()) {
    t.equal(event.type, 'log');
    t.equal(event.lastEventId, entries[i].id, 'the event id is the entry id');
    t.equal(entries[i].user_agent, UA);
    t.match(entries[i], { id: String, timestamp: ISO, client_ip: '127.0.0.1', headers: Object, response_size_bytes: Number, error_message: null });
  }
  const logged = await get(t, 'logs?limit=3');
  t.same(entries, [...logged].reverse(), 'data is the same entry GET /__mock/logs returns');

  // a later POST is the sentinel: the stream is in order, so GETs sent to it would come before it
  t.equal((await postPet(PET)).status, 201);
  const filtered = await posts.until(2);
  t.same(
    filtered.map((e) => JSON.parse(e.data)).map((e) => `${e.method} ${e.path} ${e.status_code}`),
    ['POST /v1/pets 201', 'POST /v1/pets 201'],
    '?method=POST: the GET requests were not sent',
  );

  await sleep(500);
  t.equal(es.readyState, EventSource.OPEN, 'the stream stays open while idle');
  t.equal((await mock('/v1/pets/1')).status, 200);
  const [, , , , fifth] = await all.until(5);
  t.match(JSON.parse(fifth.data), { method: 'GET', path: '/v1/pets/1' }, 'later requests still arrive');

  es.close();
  postsOnly.close();
  // a client that leaves on a bare socket: the server ends its side once it has seen it go, the
  // sentinel that it dropped the subscription (the EventSources above give no such signal)
  const leaving = await rawSse(server.adminUrl, '/__mock/logs/sse');
  leaving.socket.end();
  await leaving.closed;
  // answered requests would be written to the closed streams if they were still subscribed
  for (let i = 0; i < 3; i++) t.equal((await postPet(PET)).status, 201, 'the mock answers after the clients left');
  const health = await admin('/__mock/health');
  t.equal(health.status, 200, 'the admin server answers after the clients left');
  t.equal(server.child.exitCode, null, 'the server is still running');

  const again = new EventSource(`${server.adminUrl}/__mock/logs/sse`);
  t.teardown(() => again.close());
  const fresh = logEvents(again);
  await opened(again);
  t.equal((await mock('/v1/pets/3')).status, 200);
  const [event] = await fresh.until(1);
  t.match(JSON.parse(event.data), { path: '/v1/pets/3' }, 'a new stream gets only new events');
  again.close();
});

t.test('config: GET shows latency, faults, proxy, validation and the clock', async (t) => {
  const config = await get(t, 'config');
  t.same(Object.keys(config).sort(), ['faults', 'latency', 'proxy', 'time', 'validation']);
  t.match(config.latency, { enabled: false, base_ms: 0, jitter_ms: Number, tag_overrides: {} });
  t.same(Object.keys(config.latency).sort(), ['base_ms', 'enabled', 'jitter_ms', 'tag_overrides']);
  t.same(config.faults, { enabled: false, failure_rate: 0, status_codes: [500, 502, 503, 504] });
  t.same(config.proxy, { enabled: false, upstream_url: null, timeout_seconds: 30 });
  t.same(config.validation, { mode: 'enforce', aggregate_errors: false, validate_responses: false, security: true, status_code: 400, error_body: 'documented', skip_admin_validation: true, overrides: {} });
});

t.test('POST /__mock/config {validation: {mode}} applies at once', async (t) => {
  t.equal((await postPet(INVALID_PET)).status, 400, 'enforce rejects the invalid body');
  const off = await envelope(t, await post(`${server.adminUrl}/__mock/config`, { validation: { mode: 'off' } }));
  t.match(off, { message: /validation/, config: { validation: { mode: 'off' } } });
  t.equal((await get(t, 'config')).validation.mode, 'off');
  t.equal((await postPet(INVALID_PET)).status, 201, 'the same body is accepted with validation off');

  const bad = await failure(t, await post(`${server.adminUrl}/__mock/config`, { validation: { mode: 'enforce' }, latency: { base_ms: 'slow' } }), 400, /latency/);
  t.notMatch(bad, /validation/, 'the error names the bad section');
  t.equal((await get(t, 'config')).validation.mode, 'off', 'a bad section changes nothing');
  await failure(t, await post(`${server.adminUrl}/__mock/config`, { color: {} }), 400, /color/);
  await failure(t, await post(`${server.adminUrl}/__mock/config`, {}), 400);
  await failure(t, await post(`${server.adminUrl}/__mock/config`, { validation: { mode: 'strict' } }), 400, /mode/);

  await envelope(t, await post(`${server.adminUrl}/__mock/api/config`, { validation: { mode: 'enforce' } }));
  t.equal((await postPet(INVALID_PET)).status, 400, 'enforce again');
});

t.test('POST /__mock/validation is reflected in GET /__mock/config', async (t) => {
  const data = await envelope(t, await post(`${server.adminUrl}/__mock/validation`, { mode: 'warn', aggregate_errors: true }));
  t.match(data.validation, { mode: 'warn', aggregate_errors: true });
  t.match((await get(t, 'config')).validation, { mode: 'warn', aggregate_errors: true, validate_responses: false, status_code: 400 });
  t.match(await get(t, 'validation'), { mode: 'warn', aggregate_errors: true });
  t.equal((await postPet(INVALID_PET)).status, 201, 'warn accepts');
  await failure(t, await post(`${server.adminUrl}/__mock/validation`, { mode: 'loud' }), 400, /mode/);
  await failure(t, await post(`${server.adminUrl}/__mock/validation`, { status_code: 200 }), 400, /status_code/);
  await envelope(t, await post(`${server.adminUrl}/__mock/validation`, { mode: 'enforce', aggregate_errors: false, status_code: 422 }));
  t.equal((await postPet(INVALID_PET)).status, 422, 'status_code applies at once');
  await envelope(t, await post(`${server.adminUrl}/__mock/validation`, { status_code: 400, overrides: { 'POST /v1/pets': 'off' } }));
  t.same((await get(t, 'config')).validation.overrides, { 'POST /v1/pets': 'off' });
  t.equal((await postPet(INVALID_PET)).status, 201, 'a per-route override turns validation off for that route');
  t.equal((await mock('/v1/pets?limit=abc')).status, 400, 'other routes are still enforced');
  await envelope(t, await post(`${server.adminUrl}/__mock/validation`, { overrides: {} }));
  t.match((await get(t, 'config')).validation, { mode: 'enforce', aggregate_errors: false, status_code: 400, overrides: {} });
  t.equal((await postPet(INVALID_PET)).status, 400);
});

t.test('POST /__mock/config/latency delays responses (wrapped and flat bodies)', async (t) => {
  const timed = async (p) => {
    const start = performance.now();
    const res = await mock(p);
    await res.arrayBuffer();
    return { res, elapsed: performance.now() - start };
  };
  const wrapped = await envelope(t, await post(`${server.adminUrl}/__mock/config/latency`, { config_type: 'latency', data: { base_ms: 150, jitter_ms: 20 } }));
  t.match(wrapped, { message: String, latency: { enabled: true, base_ms: 150, jitter_ms: 20 } });
  for (let i = 0; i < 2; i++) {
    const { res, elapsed } = await timed('/v1/pets/1');
    t.equal(res.status, 200);
    const injected = Number(res.headers.get('x-mock-injected-latency-ms'));
    const jitter = Number(res.headers.get('x-mock-injected-jitter-ms'));
    t.ok(injected >= 150 && injected <= 170, `x-mock-injected-latency-ms ${injected} in 150..170`);
    t.ok(jitter >= 0 && jitter <= 20, `x-mock-injected-jitter-ms ${jitter} in 0..20`);
    t.equal(injected, 150 + jitter, 'latency = base + jitter');
    t.ok(elapsed >= injected - 1, `took ${elapsed.toFixed(1)} ms, at least the injected ${injected} ms`);
  }
  t.match((await get(t, 'dashboard')).latency_profile, { base_ms: 150, jitter_ms: 20 });

  const flat = await envelope(t, await post(`${server.adminUrl}/__mock/api/config/latency`, { base_ms: 120, jitter_ms: 0 }));
  t.match(flat.latency, { enabled: true, base_ms: 120, jitter_ms: 0 });
  const { res, elapsed } = await timed('/v1/pets');
  t.equal(res.headers.get('x-mock-injected-latency-ms'), '120');
  t.equal(res.headers.get('x-mock-injected-jitter-ms'), '0');
  t.ok(elapsed >= 119, `took ${elapsed.toFixed(1)} ms >= 120 ms`);
  t.match((await get(t, 'config')).latency, { enabled: true, base_ms: 120, jitter_ms: 0 });

  const wrong = await failure(t, await post(`${server.adminUrl}/__mock/config/latency`, { config_type: 'faults', data: { base_ms: 5 } }), 400);
  t.ok(wrong.startsWith('Invalid config type'), `error starts with "Invalid config type": ${wrong}`);
  t.ok((await failure(t, await post(`${server.adminUrl}/__mock/config/faults`, { config_type: 'latency', data: {} }), 400)).startsWith('Invalid config type'));
  await failure(t, await post(`${server.adminUrl}/__mock/config/latency`, { base_ms: -1 }), 400, /base_ms/);
  await failure(t, await post(`${server.adminUrl}/__mock/config/latency`, { base_ms: 10, turbo: true }), 400, /turbo/);
  t.match((await get(t, 'config')).latency, { base_ms: 120 }, 'refused updates change nothing');

  await envelope(t, await post(`${server.adminUrl}/__mock/config/latency`, { base_ms: 0, jitter_ms: 0, tag_overrides: { pets: 100 } }));
  const tagged = await timed('/v1/pets/1');
  t.equal(tagged.res.headers.get('x-mock-injected-latency-ms'), '100', 'an operation tagged "pets" gets its tag override');
  t.ok(tagged.elapsed >= 99, `took ${tagged.elapsed.toFixed(1)} ms >= 100 ms`);
  const untagged = await timed('/v1/health');
  t.equal(untagged.res.headers.get('x-mock-injected-latency-ms'), '0', 'an untagged operation gets base_ms');
  t.match((await get(t, 'dashboard')).latency_profile, { base_ms: 0, jitter_ms: 0, tag_overrides: { pets: 100 } });

  await envelope(t, await post(`${server.adminUrl}/__mock/config/latency`, { enabled: false, base_ms: 0, jitter_ms: 0, tag_overrides: {} }));
  const plain = await mock('/v1/pets/1');
  t.equal(plain.headers.get('x-mock-injected-latency-ms'), null, 'no latency header once disabled');
  t.equal((await get(t, 'config')).latency.enabled, false);
});

t.test('POST /__mock/config/faults injects failures, then is disabled', async (t) => {
  const data = await envelope(t, await post(`${server.adminUrl}/__mock/config/faults`, { config_type: 'faults', data: { failure_rate: 1, status_codes: [503] } }));
  t.match(data.faults, { enabled: true, failure_rate: 1, status_codes: [503] });
  const before = (await get(t, 'dashboard')).fault_config.active_failures;
  for (const [method, p] of [['GET', '/v1/pets'], ['GET', '/v1/pets/1'], ['DELETE', '/v1/pets/1'], ['GET', '/v1/health'], ['GET', '/not/documented']]) {
    const res = await mock(p, { method });
    t.equal(res.status, 503, `${method} ${p} → 503`);
    t.equal(res.headers.get('x-mock-fault'), 'http_503');
    await res.arrayBuffer();
  }
  const post503 = await postPet(PET);
  t.equal(post503.status, 503, 'requests with a body too');
  t.equal(post503.headers.get('x-mock-fault'), 'http_503');
  const dash = await get(t, 'dashboard');
  t.match(dash.fault_config, { enabled: true, failure_rate: 1, status_codes: [503] });
  t.equal(dash.fault_config.active_failures - before, 6, 'active_failures counts the injected faults');
  t.equal((await fetch(`${server.url}/__mock/health`)).status, 200, 'the management router is not faulted');
  const logged = (await get(t, 'logs?limit=1'))[0];
  t.match(logged, { method: 'POST', status_code: 503, error_message: String }, 'the log entry says why it failed');

  await failure(t, await post(`${server.adminUrl}/__mock/config/faults`, { failure_rate: 1.5 }), 400, /failure_rate/);
  await failure(t, await post(`${server.adminUrl}/__mock/config/faults`, { status_codes: [] }), 400, /status_codes/);
  await failure(t, await post(`${server.adminUrl}/__mock/config/faults`, { status_codes: [99] }), 400, /status_codes/);

  await envelope(t, await post(`${server.adminUrl}/__mock/config/faults`, { config_type: 'faults', data: { enabled: false } }));
  const res = await mock('/v1/pets/1');
  t.equal(res.status, 200, 'no faults once disabled');
  t.equal(res.headers.get('x-mock-fault'), null);
  t.equal((await get(t, 'config')).faults.enabled, false);
});

t.test('POST /__mock/config/proxy: validation errors, then a real upstream', async (t) => {
  await failure(t, await post(`${server.adminUrl}/__mock/config/proxy`, { config_type: 'proxy', data: { enabled: true } }), 400, /upstream_url/);
  await failure(t, await post(`${server.adminUrl}/__mock/config/proxy`, { enabled: false, upstream_url: 'ftp://files.example' }), 400, /upstream_url/);
  await failure(t, await post(`${server.adminUrl}/__mock/config/proxy`, { enabled: false, upstream_url: 'not a url' }), 400, /upstream_url/);
  await failure(t, await post(`${server.adminUrl}/__mock/config/proxy`, { timeout_seconds: 0, enabled: false }), 400, /timeout_seconds/);
  t.same((await get(t, 'config')).proxy, { enabled: false, upstream_url: null, timeout_seconds: 30 }, 'refused updates change nothing');

  const upstream = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ proxied: true, method: req.method, url: req.url }));
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  t.teardown(() => upstream.close());
  const upstreamUrl = `http://127.0.0.1:${upstream.address().port}/up`;
  const on = await envelope(t, await post(`${server.adminUrl}/__mock/config/proxy`, { config_type: 'proxy', data: { enabled: true, upstream_url: upstreamUrl, timeout_seconds: 5 } }));
  t.same(on.proxy, { enabled: true, upstream_url: upstreamUrl, timeout_seconds: 5 });
  const res = await mock('/v1/pets/1?x=1');
  t.same(await res.json(), { proxied: true, method: 'GET', url: '/up/v1/pets/1?x=1' }, 'answered by the upstream, its path prefixing the request path');
  t.match((await get(t, 'dashboard')).proxy_config, { enabled: true, upstream_url: upstreamUrl, timeout_seconds: 5, requests_proxied: 1 });

  await envelope(t, await post(`${server.adminUrl}/__mock/config/proxy`, { enabled: false, upstream_url: null, timeout_seconds: 30 }));
  t.same((await get(t, 'config')).proxy, { enabled: false, upstream_url: null, timeout_seconds: 30 });
  const back = await mock('/v1/pets/1');
  t.equal((await back.json()).name, 'Tom', 'the mock answers again');
});

t.test('malformed bodies, unknown endpoints and wrong methods', async (t) => {
  for (const p of ['/__mock/config', '/__mock/config/latency', '/__mock/validation', '/__mock/env', '/__mock/servers/restart', '/__mock/mocks']) {
    await failure(t, await post(`${server.adminUrl}${p}`, '{"oops": '), 400, /not valid JSON/);
  }
  t.equal((await get(t, 'servers/restart/status')).in_progress, false, 'a malformed restart body started nothing');
  await failure(t, await post(`${server.adminUrl}/__mock/config/latency`, '[1, 2]'), 400);
  await failure(t, await admin('/__mock/nope'), 404, /no admin endpoint GET \/__mock\/nope/);
  await failure(t, await admin('/__mock/api/nope/deeper'), 404);
  await failure(t, await post(`${server.adminUrl}/__mock/dashboards`, {}), 404);

  const head = await admin('/__mock/dashboard', { method: 'HEAD' });
  t.equal(head.status, 200, 'HEAD is answered like GET');
  t.equal(await head.text(), '', 'without a body');

  const cases = [
    ['DELETE', '/__mock/dashboard', 'GET'],
    ['GET', '/__mock/logs/clear', 'POST'],
    ['PUT', '/__mock/api/config', 'GET, POST'],
    ['POST', '/__mock/health', 'GET'],
  ];
  for (const [method, p, allow] of cases) {
    const res = await admin(p, { method });
    t.equal(res.headers.get('allow'), allow, `${method} ${p}: Allow ${allow}`);
    await failure(t, res, 405, new RegExp(method));
  }
});

t.test('env: lists MOCK_ variables with secrets masked; POST applies or stores', async (t) => {
  const env = await get(t, 'env');
  t.equal(env.MOCK_SEED, '7');
  t.equal(env.MOCK_ADMIN_ENABLED, 'true');
  t.equal(env.MOCK_ADMIN_PORT, '0');
  t.equal(env.MOCK_X_TOKEN, '********', 'names with TOKEN are masked');
  for (const name of Object.keys(env)) t.match(name, /^MOCK_/, `${name} is a MOCK_ variable`);
  t.notOk(Object.keys(env).includes('PATH'), 'other variables are not listed');
  const text = await (await admin('/__mock/env')).text();
  t.notMatch(text, SECRET, 'the secret value appears nowhere');

  const applied = await envelope(t, await post(`${server.adminUrl}/__mock/env`, { key: 'MOCK_REQUEST_VALIDATION', value: 'off' }));
  t.match(applied.message, /applied now/);
  t.equal((await get(t, 'config')).validation.mode, 'off', 'validation is off at once');
  t.equal((await postPet(INVALID_PET)).status, 201, 'an invalid body is accepted');
  t.equal((await get(t, 'env')).MOCK_REQUEST_VALIDATION, 'off');

  await failure(t, await post(`${server.adminUrl}/__mock/env`, { key: 'MOCK_REQUEST_VALIDATION', value: 'sometimes' }), 400, /MOCK_REQUEST_VALIDATION: mode must be one of off, warn, enforce/);
  await failure(t, await post(`${server.adminUrl}/__mock/env`, { key: 'PATH', value: '/tmp' }), 400, /MOCK_/);
  await failure(t, await post(`${server.adminUrl}/__mock/env`, { key: 'mock_lower', value: 'x' }), 400, /MOCK_/);
  await failure(t, await post(`${server.adminUrl}/__mock/env`, { key: 'MOCK_FOO' }), 400, /value/);
  await failure(t, await post(`${server.adminUrl}/__mock/env`, { key: 'MOCK_FOO', value: 3 }), 400, /value/);
  t.equal((await get(t, 'config')).validation.mode, 'off', 'a refused value changes nothing');

  const stored = await envelope(t, await post(`${server.adminUrl}/__mock/api/env`, { key: 'MOCK_FOO', value: 'bar' }));
  t.match(stored.message, /next start/);
  t.equal((await get(t, 'env')).MOCK_FOO, 'bar', 'an unknown MOCK_ variable is stored and listed');
  await envelope(t, await post(`${server.adminUrl}/__mock/env`, { key: 'MOCK_OTHER_SECRET', value: 'hush-hush' }));
  t.equal((await get(t, 'env')).MOCK_OTHER_SECRET, '********', 'set secrets are masked too');

  await envelope(t, await post(`${server.adminUrl}/__mock/env`, { key: 'MOCK_REQUEST_VALIDATION', value: 'enforce' }));
  t.equal((await postPet(INVALID_PET)).status, 400, 'enforce again');
});

t.test('admin modes', async (t) => {
  const tictactoe = path.join(corpus, 'openapi/oai-v3.1-tictactoe.yaml');
  // its board operations require bearerHttpAuthentication (bearerFormat JWT): a well-formed JWT
  const jwtPart = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const tictactoeAuth = { authorization: `Bearer ${jwtPart({ alg: 'HS256' })}.${jwtPart({ sub: 'player' })}.c2ln` };
  // the main server's description and build (up to date until the restart subtests change it): loaded, not rebuilt
  const petstore = ['--spec', specFile, '--out', path.join(work, 'generated')];
  const adminPort = new URL(server.adminUrl).port;
  const [embedded, standalone, envOff, inUse, adminOnly] = await Promise.allSettled([
    startMock(['--spec', tictactoe, '--out', tmpdir(), '--admin-embed', '--admin-mount-path', '/ops']),
    startMock([...petstore, '--admin-embed', '--admin-standalone', '--admin-port', '0', '--disable-admin-api']),
    startMock([...petstore, '--admin-embed'], { env: { MOCK_ADMIN_API_ENABLED: 'false' } }),
    startMock([...petstore, '--admin', '--admin-port', adminPort]),
    startAdminCommand(['--port', '0']),
  ]);
  for (const started of [embedded, standalone, envOff, adminOnly, inUse]) if (started.status === 'fulfilled') t.teardown(() => started.value.stop());

  t.test('--admin-embed --admin-mount-path /ops: the API under {url}/__mock, the page at /ops (corpus: tictactoe)', async (t) => {
    t.equal(embedded.status, 'fulfilled', String(embedded.reason ?? ''));
    const s = embedded.value;
    t.equal(s.adminUrl, undefined, 'no admin port of its own');
    t.match(s.stdout, `admin embedded at ${s.url}/ops`);
    for (const p of ['/ops', '/ops/']) {
      const page = await fetch(`${s.url}${p}`);
      t.equal(page.status, 200, p);
      t.match(page.headers.get('content-type'), /^text\/html/);
      const html = await page.text();
      t.match(html, /<title>mock dashboard<\/title>/, 'the web dashboard');
      t.match(html, '<base href="/ops/">', 'its assets resolve under the mount path');
      t.match(html, /<script type="module" crossorigin src="\.\/assets\/index\.js">/);
    }
    const script = await fetch(`${s.url}/ops/assets/index.js`);
    t.equal(script.status, 200, 'the bundle is served under the mount path');
    t.match(script.headers.get('content-type'), /^text\/javascript/);
    t.equal(script.headers.get('content-security-policy'), null, 'an admin file, not a sandboxed mock answer');
    const notPage = await fetch(`${s.url}/admin`);
    t.equal(notPage.status, 404, 'not at the default /admin');
    t.notMatch(notPage.headers.get('content-type'), /html/);

    const coverage0 = await get(t, 'coverage', s.url);
    t.match(coverage0, { total_routes: 2, covered_routes: 0, coverage_percentage: 0 });
    t.equal((await fetch(`${s.url}/board`, { headers: tictactoeAuth })).status, 200);
    const put = await fetch(`${s.url}/board/1/1`, { method: 'PUT', headers: { 'content-type': 'application/json', ...tictactoeAuth }, body: '"X"' });
    t.equal(put.status, 200);

    const dash = await get(t, 'dashboard', s.url);
    t.equal(dash.system.total_routes, 3, 'three operations in tictactoe');
    t.equal(dash.system.version, pkg.version);
    t.match(dash.servers[0], { server_type: 'HTTP', address: hostPort(s.url), running: true, total_requests: 3 });
    t.same(dash.recent_logs.map((e) => `${e.method} ${e.path} ${e.status_code}`), ['PUT /board/1/1 200', 'GET /board 200', 'GET /admin 404'], 'admin API and page requests are not logged');

    const routes = await get(t, 'api/routes', s.url);
    t.same(
      routes.map((r) => [r.method, r.path, r.operation_id, r.summary]),
      [
        ['GET', '/board', 'get-board', 'Get the whole board'],
        ['GET', '/board/{row}/{column}', 'get-square', 'Get a single board square'],
        ['PUT', '/board/{row}/{column}', 'put-square', 'Set a single board square'],
      ],
    );
    t.same(routes[1].parameters, ['row', 'column']);

    const coverage = await get(t, 'coverage', s.url);
    t.match(coverage, { total_routes: 2, covered_routes: 2, coverage_percentage: 100 });
    t.match(coverage.routes['/board'], { method: 'GET', total_requests: 1, covered_methods: 1, methods: { GET: { request_count: 1, response_codes: { 200: 1 } } } });
    const square = coverage.routes['/board/{row}/{column}'];
    t.same(square.method.split(', ').sort(), ['GET', 'PUT']);
    t.match(square, { total_requests: 1, covered_methods: 1, methods: { GET: { request_count: 0 }, PUT: { request_count: 1, response_codes: { 200: 1 } } } });
    t.match(await get(t, 'config', s.url), { validation: { mode: 'enforce' } }, 'the whole API, not only the management router');

    const es = new EventSource(`${s.url}/__mock/logs/sse`);
    t.teardown(() => es.close());
    const stream = logEvents(es);
    await opened(es);
    t.equal((await fetch(`${s.url}/board/2/2`, { headers: tictactoeAuth })).status, 200);
    const [event] = await stream.until(1);
    t.match(JSON.parse(event.data), { method: 'GET', path: '/board/2/2', status_code: 200 }, 'the log stream from the HTTP server');
    es.close();
  });

  t.test('RouteInfo carries the documented description and parameter names (corpus: tictactoe)', async (t) => {
    t.equal(embedded.status, 'fulfilled');
    const routes = await get(t, 'routes', embedded.value.url);
    t.equal(routes[0].description, 'Retrieves the current state of the board and the winner.', 'GET /board description');
    t.equal(routes[2].description, 'Places a mark on the board and retrieves the whole board and the winner (if any).', 'PUT description');
    t.same(routes[2].parameters, ['row', 'column', 'progressUrl'], 'the header parameter as documented (progressUrl)');
  });

  t.test('--admin-embed --admin-standalone --disable-admin-api: own port, page only', async (t) => {
    t.equal(standalone.status, 'fulfilled', String(standalone.reason ?? ''));
    const s = standalone.value;
    t.ok(s.adminUrl, 'standalone wins over embed: an admin port of its own');
    t.not(hostPort(s.adminUrl), hostPort(s.url));
    const page = await fetch(`${s.adminUrl}/`);
    t.equal(page.status, 200);
    t.match(page.headers.get('content-type'), /^text\/html/);
    t.match(await page.text(), /disabled/);
    await failure(t, await fetch(`${s.adminUrl}/__mock/dashboard`), 404, /--disable-admin-api|MOCK_ADMIN_API_ENABLED|disable_api/);
    await failure(t, await fetch(`${s.adminUrl}/__mock/api/config`), 404, /disabled/);
    await failure(t, await fetch(`${s.url}/__mock/dashboard`), 404, /no admin endpoint/); // not embedded in the HTTP server
    t.equal((await fetch(`${s.url}/admin`)).status, 404, 'no embedded page');
    t.match(await get(t, 'stats', s.url), { registered_routes: 5 }, 'the management router still answers');
  });

  t.test('--admin-embed with MOCK_ADMIN_API_ENABLED=false: the page at the default /admin, no admin API', async (t) => {
    t.equal(envOff.status, 'fulfilled', String(envOff.reason ?? ''));
    const s = envOff.value;
    t.equal(s.adminUrl, undefined, 'embedded: no admin port');
    t.match(s.stdout, `admin embedded at ${s.url}/admin`);
    for (const p of ['/admin', '/admin/']) {
      const page = await fetch(`${s.url}${p}`);
      t.equal(page.status, 200, `${p} is the admin page`);
      t.match(page.headers.get('content-type'), /^text\/html/);
      t.match(await page.text(), /<title>mock dashboard<\/title>/);
    }
    await failure(t, await fetch(`${s.url}/__mock/dashboard`), 404);
    await failure(t, await post(`${s.url}/__mock/config`, { validation: { mode: 'off' } }), 404);
    t.equal((await post(`${s.url}/v1/pets`, { kind: 'cat' })).status, 400, 'validation was not changed');
    t.match(await get(t, 'stats', s.url), { registered_routes: 5 }, 'the management router still answers');
    t.equal((await fetch(`${s.url}/v1/pets/1`)).status, 200, 'the mock serves');
  });

  t.test('--admin-embed with the API disabled says so, like the standalone server', async (t) => {
    t.equal(envOff.status, 'fulfilled');
    const s = envOff.value;
    t.match(await (await fetch(`${s.url}/admin`)).text(), /disabled/, 'the page says the API is disabled');
    await failure(t, await fetch(`${s.url}/__mock/dashboard`), 404, /MOCK_ADMIN_API_ENABLED|--disable-admin-api|disable_api/);
  });

  t.test('admin port in use: one-line error naming the port and --admin-port, non-zero exit', async (t) => {
    t.equal(inUse.status, 'rejected', 'the second server does not start');
    const e = inUse.reason;
    t.not(e.code, 0, `exit code ${e.code}`);
    t.not(e.code, null);
    const lines = e.stderr.trim().split('\n');
    t.equal(lines.length, 1, `one line: ${e.stderr}`);
    t.match(lines[0], `port ${adminPort}`);
    t.match(lines[0], '--admin-port');
    t.notMatch(lines[0], /\bat \S+:\d+:\d+/, 'no stack trace');
  });

  t.test('mock admin --port 0: the admin server alone', async (t) => {
    t.equal(adminOnly.status, 'fulfilled', String(adminOnly.reason ?? ''));
    const a = adminOnly.value;
    t.match(a.stdout, /admin on http:\/\//);
    const res = await fetch(`${a.url}/__mock/health`);
    t.equal(res.status, 200);
    t.match(await res.json(), { status: 'healthy', services: { http: 'disabled', websocket: 'disabled', grpc: 'disabled' }, last_check: ISO, issues: [] });
    await failure(t, await post(`${a.url}/__mock/servers/restart`, { reason: 'x' }), 409);
    const dash = await get(t, 'dashboard', a.url);
    t.same(dash.servers, []);
    t.equal(dash.system.total_routes, 0);
    t.same(await get(t, 'server-info', a.url), { http_server: null, ws_server: null, grpc_server: null });
    t.match(await get(t, 'server-config', a.url), { version: pkg.version, has_openapi_spec: false, spec_path: null });
    const page = await fetch(`${a.url}/`);
    t.equal(page.status, 200);
    t.match(await page.text(), /<title>mock dashboard<\/title>/, 'the web dashboard');
    const listing = await get(t, '', a.url);
    t.ok(listing.some((e) => e.path === '/__mock/dashboard'), 'GET /__mock still lists the endpoints');
  });
});

t.test('restart: pipelined POSTs, the second refused while the first runs', async (t) => {
  const [first, second, status] = await pipelined(server.adminUrl, [
    rawRequest('POST', '/__mock/servers/restart', { reason: 'pipelined' }),
    rawRequest('POST', '/__mock/api/servers/restart', { reason: 'second' }),
    rawRequest('GET', '/__mock/servers/restart/status'),
  ]);
  t.equal(first.status, 200);
  t.match(first.json, { success: true, data: { message: 'Server restart initiated' }, error: null, timestamp: ISO });
  t.equal(second.status, 409);
  t.match(second.json, { success: false, data: null, error: 'Server restart already in progress', timestamp: ISO });
  t.equal(status.status, 200);
  t.match(status.json.data, { in_progress: true, initiated_at: ISO, reason: 'pipelined', success: null });
  isRecentIso(t, status.json.data.initiated_at, 'initiated_at');

  const done = await restartSettled(server.adminUrl);
  t.match(done, { in_progress: false, reason: 'pipelined', success: true, completed_at: ISO, error: null });
  t.ok(Date.parse(done.completed_at) >= Date.parse(done.initiated_at), 'completed after initiated');
  t.equal((await mock('/v1/pets/1')).status, 200, 'serving after the restart');
  await failure(t, await post(`${server.adminUrl}/__mock/servers/restart`, { reason: 42 }), 400, /reason/);
});

t.test('restart picks up a changed description; runtime mocks and counts survive', async (t) => {
  const created = await envelope(
    t,
    await post(`${server.adminUrl}/__mock/mocks`, { id: 'kept', method: 'GET', path: '/runtime/kept', response: { body: { kept: true } } }),
    201,
  );
  t.match(created, { id: 'kept', method: 'GET', path: '/runtime/kept', enabled: true });
  t.same(await (await mock('/runtime/kept')).json(), { kept: true });
  t.equal((await mock('/v1/owners')).status, 404, 'not documented yet');
  const countBefore = (await get(t, 'coverage')).routes['/v1/pets'].methods.GET.request_count;

  writeFileSync(
    specFile,
    petstoreText.replace(
      'paths:\n',
      "paths:\n  /owners:\n    get:\n      operationId: listOwners\n      summary: List owners\n      responses:\n        '200':\n          description: owners\n          content:\n            application/json:\n              example: { owners: [] }\n",
    ),
  );
  t.equal((await mock('/v1/owners')).status, 404, 'still 404 before the restart');
  const started = await envelope(t, await post(`${server.adminUrl}/__mock/servers/restart`, { reason: 'spec changed' }));
  t.same(started, { message: 'Server restart initiated' });
  // no request is refused while the build is redone and swapped
  const statuses = [];
  let settled;
  const settling = restartSettled(server.adminUrl).then((status) => (settled = status));
  while (settled === undefined) {
    const batch = await Promise.all(Array.from({ length: 8 }, () => mock('/v1/pets/1').then((r) => r.status, (e) => String(e))));
    statuses.push(...batch);
  }
  const done = await settling;
  t.ok(statuses.length >= 8, `${statuses.length} requests during the restart`);
  t.same([...new Set(statuses)], [200], 'every request during the restart was answered 200');
  t.match(done, { in_progress: false, reason: 'spec changed', success: true, error: null });

  const owners = await mock('/v1/owners');
  t.equal(owners.status, 200, 'the new path answers');
  t.same(await owners.json(), { owners: [] });
  const routes = await get(t, 'routes');
  t.ok(routes.some((r) => r.method === 'GET' && r.path === '/v1/owners' && r.operation_id === 'listOwners'), 'routes lists the new operation');
  t.ok(routes.some((r) => r.path === '/runtime/kept'), 'and the runtime mock');
  t.equal((await get(t, 'coverage')).total_routes, 4, 'coverage counts the new path');
  t.equal((await get(t, 'coverage')).routes['/v1/pets'].methods.GET.request_count, countBefore, 'counts are kept across the restart');
  t.same(await (await mock('/runtime/kept')).json(), { kept: true }, 'the runtime mock survives');
  t.match(await get(t, 'mocks'), [{ id: 'kept' }]);
  t.match(await get(t, 'stats'), { active_mocks: 1, enabled_mocks: 1, registered_routes: 7 });
  t.equal((await get(t, 'config')).validation.mode, 'enforce', 'validation settings survive');
});

t.test('a failed restart keeps the previous build serving and is reported', async (t) => {
  writeFileSync(specFile, 'openapi: 3.0.3\npaths: [this is not\n');
  await envelope(t, await post(`${server.adminUrl}/__mock/servers/restart`, { reason: 'broken spec' }));
  const failed = await restartSettled(server.adminUrl);
  t.match(failed, { in_progress: false, reason: 'broken spec', success: false, completed_at: ISO, error: String });
  t.ok(failed.error.length > 0, `error: ${failed.error}`);
  t.equal((await mock('/v1/owners')).status, 200, 'the previous build keeps serving');
  const health = await (await admin('/__mock/health')).json();
  t.equal(health.status, 'degraded');
  t.match(health.issues.join('\n'), /restart failed/);

  writeFileSync(specFile, petstoreText);
  await envelope(t, await post(`${server.adminUrl}/__mock/servers/restart`, {}));
  const ok = await restartSettled(server.adminUrl);
  t.match(ok, { success: true, reason: null, error: null });
  t.equal((await mock('/v1/owners')).status, 404, 'the restored description has no /owners');
  t.equal((await admin('/__mock/health').then((r) => r.json())).status, 'healthy');
});

// Every answer says where it came from (issue 36, item 8): one request per source through `mock
// serve` (description example, generated, custom route, runtime mock, override, proxy, chaos fault,
// refusal, unmatched), each request-log entry carrying its `source`, GET /__mock/logs?source=
// filtering by it, and the Prometheus request counter labelled with it.
import t from 'tap';
import http from 'node:http';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { root, startMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
const upstream = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"upstream"}'));
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
t.teardown(() => upstream.close());

const dir = tmpdir();
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `specs: [${JSON.stringify(petstore)}]
http:
  routes:
    - path: /custom
      response: { status: 200, body: custom }
proxy:
  upstream_url: http://127.0.0.1:${upstream.address().port}
  rules:
    - { pattern: /v1/health }
observability:
  chaos:
    enabled: true
`,
);
const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--metrics', '--metrics-port', '0', '--admin-embed']);
t.teardown(() => server.stop());

async function admin(method, endpoint, body) {
  const res = await fetch(`${server.url}/__mock/${endpoint}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function request(method, p, headers = {}, body = undefined) {
  const res = await fetch(`${server.url}${p}`, { method, headers, body });
  await res.arrayBuffer();
  return res.status;
}

/** The newest log entry of `method` `p`. */
async function entryOf(method, p) {
  const logs = (await admin('GET', `logs?method=${method}&path=${encodeURIComponent(p)}&limit=1`)).body.data;
  return logs[0];
}

t.test('each answer is logged with the stage or terminal that made it', async (t) => {
  t.equal((await admin('POST', 'mocks', { name: 'made', method: 'GET', path: '/made', response: { body: { made: true } }, status_code: 200 })).status, 201);
  t.equal((await admin('PUT', 'overrides', [{ name: 'teapot', match: { method: 'GET', path: '/v1/pets/2' }, status: 418 }])).status, 200);
  t.equal((await admin('PUT', 'api/chaos/config/faults', { enabled: true, http_errors: [503], http_error_probability: 1, request_matcher: { headers: [{ name: 'x-chaos' }] } })).status, 200);
  const cases = [
    ['GET', '/v1/pets/1', {}, undefined, 200, 'example'],
    ['GET', '/v1/pets/7', { prefer: 'dynamic=true' }, undefined, 200, 'generated'],
    ['GET', '/custom', {}, undefined, 200, 'custom_route'],
    ['GET', '/made', {}, undefined, 200, 'runtime_mock'],
    ['GET', '/v1/pets/2', {}, undefined, 418, 'override'],
    ['GET', '/v1/health', {}, undefined, 200, 'proxy'],
    ['GET', '/v1/pets/3', { 'x-chaos': '1' }, undefined, 503, 'chaos'],
    ['POST', '/v1/pets', { 'content-type': 'application/json' }, '{"name": 5}', 400, 'refusal'],
    ['GET', '/nowhere', {}, undefined, 404, 'unmatched'],
  ];
  for (const [method, p, headers, body, status, source] of cases) {
    t.equal(await request(method, p, headers, body), status, `${method} ${p}`);
    const entry = await entryOf(method, p);
    t.equal(entry?.source, source, `${method} ${p}: ${source}`);
  }
  await admin('PUT', 'overrides', []);
  await admin('POST', 'api/chaos/config/reset');
});

t.test('GET /__mock/logs?source= keeps the entries of that source', async (t) => {
  const mocks = (await admin('GET', 'logs?source=runtime_mock')).body.data;
  t.ok(mocks.length >= 1 && mocks.every((e) => e.source === 'runtime_mock' && e.path === '/made'), 'only the runtime mock');
  const bad = await admin('GET', 'logs?source=description');
  t.equal(bad.status, 400);
  t.match(bad.body.error, /^logs: source must be one of example, generated, custom_route, runtime_mock/);
});

t.test('mock_http_requests_total is labelled with the source', async (t) => {
  const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  const family = parsePrometheusTextFormat(text).find((f) => f.name === 'mock_http_requests_total');
  const sources = (route) => family.metrics.filter((m) => m.labels.route === route).map((m) => `${m.labels.status} ${m.labels.source}`).sort();
  t.same(sources('/v1/pets/{petId}'), ['200 example', '200 generated', '418 override', '503 chaos']);
  t.same(sources('/v1/health'), ['200 proxy']);
  t.same(sources('/custom'), ['200 custom_route']);
  const errors = parsePrometheusTextFormat(text).find((f) => f.name === 'mock_http_request_errors_total');
  t.ok(errors.metrics.some((m) => m.labels.source === 'refusal' && m.labels.status === '400'), 'the error counter too');
});

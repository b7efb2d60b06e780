// runtime/live: the request chain over runtime settings (faults → mocks → proxy → engine; overrides; latency).
import t from 'tap';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from '../../../dist/compiler/index.js';
import { Engine, loadBuild } from '../../../dist/runtime/engine/index.js';
import { LiveState, answerLive } from '../../../dist/runtime/live/index.js';

const spec = `openapi: 3.0.3
info: {title: Live, version: "1"}
paths:
  /pets/{id}:
    get:
      tags: [slow]
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: ok, content: {application/json: {example: {id: 1, name: Tom}}}}
  /health:
    get:
      responses:
        "200": {description: ok, content: {application/json: {example: {ok: true}}}}
`;
const cwd = t.testdir({});
writeFileSync(path.join(cwd, 'live.yaml'), spec);
const result = await build({ specs: [{ source: 'live.yaml' }], routes: [], outDir: 'out', cwd });
const logger = { warn() {}, info() {}, error() {}, debug() {} };
const engine = new Engine(await loadBuild(result.dir), {
  validation: { mode: 'enforce', aggregate_errors: false, validate_responses: false, status_code: 400, overrides: {} },
  templateExpand: true,
  seed: 1,
  logger,
});
const get = (url, headers = {}) => ({ method: 'GET', url, query: '', headers });

t.test('idle only while nothing is on', async (t) => {
  const live = new LiveState();
  t.equal(live.idle, true);
  live.setLatency({ ...live.latency, enabled: true });
  t.equal(live.idle, false);
  live.setLatency({ ...live.latency, enabled: false });
  t.equal(live.idle, true);
  live.setProxy({ enabled: true, upstream_url: null, timeout_seconds: 1 });
  t.equal(live.idle, true, 'a proxy without an upstream proxies nothing');
  live.mocks.create({ method: 'GET', path: '/x', response: { body: 1 } });
  live.changed();
  t.equal(live.idle, false);
});

t.test('the engine answers and names its route', async (t) => {
  const live = new LiveState();
  live.overrides.replace([{ name: 'never', match: { path: '/nowhere' }, status: 500 }]);
  live.changed();
  const { answer, route } = await answerLive(live, engine, get('/pets/7'));
  t.equal(answer.status, 200);
  t.same(JSON.parse(answer.body), { id: 1, name: 'Tom' });
  t.equal(route.key, 'GET /pets/{id}');
});

t.test('faults come first, even before runtime mocks', async (t) => {
  const live = new LiveState({ faults: { enabled: true, failure_rate: 1, status_codes: [503] } });
  live.mocks.create({ method: 'GET', path: '/pets/{id}', response: { body: { mocked: true } } });
  live.changed();
  const { answer } = await answerLive(live, engine, get('/pets/7'));
  t.equal(answer.status, 503);
  t.same(Object.fromEntries(answer.headers)['x-mock-fault'], 'http_503');
  t.equal(live.faultsInjected, 1);
});

t.test('a runtime mock wins over the description and its route is the mock', async (t) => {
  const live = new LiveState();
  const created = live.mocks.create({ method: 'GET', path: '/pets/{id}', response: { body: { id: '{{request.path.id}}' } } });
  live.changed();
  const { answer, route } = await answerLive(live, engine, get('/pets/42'));
  t.same(JSON.parse(answer.body), { id: '42' }, 'templates expand when the engine expands them');
  t.equal(route, created.mock.route);
});

t.test('overrides adjust without touching the original answer; latency delays and says so', async (t) => {
  const live = new LiveState({
    latency: { enabled: true, base_ms: 5, jitter_ms: 0, tag_overrides: { slow: 40 } },
    overrides: [{ name: 'flag', match: { path: '/pets/*' }, merge: { flagged: true }, headers: { 'x-o': '1' } }],
  });
  const before = engine.handle(get('/pets/1')).body;
  const started = performance.now();
  const { answer } = await answerLive(live, engine, get('/pets/1'));
  const elapsed = performance.now() - started;
  const headers = Object.fromEntries(answer.headers);
  t.same(JSON.parse(answer.body), { id: 1, name: 'Tom', flagged: true });
  t.equal(headers['x-o'], '1');
  t.equal(headers['x-mock-injected-latency-ms'], '40', 'the tag override replaces base_ms');
  t.ok(elapsed >= 39, `delayed ${elapsed} ms`);
  t.equal(engine.handle(get('/pets/1')).body, before, 'the engine’s cached answer is unchanged');
  const health = await answerLive(live, engine, get('/health'));
  t.equal(Object.fromEntries(health.answer.headers)['x-mock-injected-latency-ms'], '5', 'untagged operations get base_ms');
});

t.test('the proxy answers from the upstream; failures are problems naming it', async (t) => {
  const upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ upstream: true, method: req.method, url: req.url, body, tenant: req.headers['x-tenant'] ?? null }));
    });
  });
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => upstream.close());
  const base = `http://127.0.0.1:${upstream.address().port}/base`;
  const live = new LiveState({ proxy: { enabled: true, upstream_url: base, timeout_seconds: 2 } });
  const { answer, route } = await answerLive(live, engine, { method: 'POST', url: '/pets/9', query: 'a=1', headers: { 'x-tenant': 'acme', 'content-type': 'text/plain' }, body: Buffer.from('hi') });
  t.same(JSON.parse(answer.body), { upstream: true, method: 'POST', url: '/base/pets/9?a=1', body: 'hi', tenant: 'acme' });
  t.equal(route, null, 'POST /pets/{id} is not an operation of the description');
  const proxiedGet = await answerLive(live, engine, get('/pets/3'));
  t.equal(proxiedGet.route.key, 'GET /pets/{id}', 'proxied requests count under the operation they reach');
  t.equal(live.requestsProxied, 2);

  live.setProxy({ enabled: true, upstream_url: 'http://127.0.0.1:1', timeout_seconds: 2 });
  const down = await answerLive(live, engine, get('/pets/1'));
  t.equal(down.answer.status, 502);
  t.match(JSON.parse(down.answer.body).detail, /^proxy to http:\/\/127\.0\.0\.1:1 failed: ECONNREFUSED/);
});

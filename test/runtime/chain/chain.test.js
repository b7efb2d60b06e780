// runtime/chain: stages checked when registered, compiled per route, recompiled when they change;
// today's stages (latency, overrides, faults, runtime mocks, proxy) over a real build.
import t from 'tap';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from '../../../dist/compiler/index.js';
import { Engine, loadBuild } from '../../../dist/runtime/terminal/openapi/index.js';
import { Exchange } from '../../../dist/runtime/chain/exchange/index.js';
import { LiveState } from '../../../dist/runtime/chain/settings/index.js';
import { RequestChain, checkStage, createStages } from '../../../dist/runtime/chain/index.js';

const spec = `openapi: 3.0.3
info: {title: Live, version: "1"}
paths:
  /pets/{id}:
    get:
      tags: [slow]
      parameters: [{name: id, in: path, required: true, schema: {type: string}}, {name: limit, in: query, schema: {type: integer, maximum: 10}}]
      responses:
        "200": {description: ok, content: {application/json: {example: {id: 1, name: Tom}}}}
    put:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        "200": {description: ok, content: {application/json: {example: {id: 1, name: Tom}}}}
        "400": {description: refused}
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
const petRoute = engine.routes.find((r) => r.key === 'GET /pets/{id}');
const healthRoute = engine.routes.find((r) => r.key === 'GET /health');

const LIVE_STAGES = ['proxy', 'mocks', 'faults', 'overrides', 'latency'];
const contextOf = (live) => ({ live, logger, engine: () => engine, openConnections: () => 0, settings: { maxBodyBytes: 1024 * 1024 } });

/** A chain of the stages the admin API steers over `live`, built from the one stage list, and a way through it as a server would go. */
function chainOf(live) {
  const chain = new RequestChain(createStages(contextOf(live), 'description').filter((s) => LIVE_STAGES.includes(s.name)), (ex) => engine.respond(ex));
  chain.setRoutes(engine.routes);
  const answer = async (init) => {
    const ex = new Exchange({ headers: {}, ...init });
    engine.route(ex);
    return { ex, answer: await chain.enter(ex)(ex) };
  };
  return { chain, answer };
}
/** An exchange already routed to `route`. */
const routedTo = (route) => Object.assign(new Exchange({ method: 'GET', path: '/', headers: {} }), { route });
const get = (p, headers = {}) => ({ method: 'GET', path: p, headers });

t.test('a stage is checked when registered', async (t) => {
  const good = { name: 'x', slot: 'faults', appliesTo: () => true, run: (ex, next) => next(ex), watch() {} };
  t.equal(checkStage(good), good);
  t.throws(() => checkStage({ ...good, name: '' }), /needs a name/);
  t.throws(() => checkStage({ ...good, slot: 'somewhere' }), /stage "x": slot must be one of sandbox, cors, tenant-quota, circuit-breaker, .*, proxy, plugin-validator, ai \(got "somewhere"\)/);
  t.throws(() => checkStage({ ...good, run: 'no' }), /stage "x": run must be a function/);
  t.throws(() => checkStage({ ...good, afterAnswer: 1 }), /afterAnswer must be a function/);
});

t.test('one stage per slot: a second stage claiming a slot is refused when registered', async (t) => {
  const stage = (name, slot) => ({ name, slot, appliesTo: () => true, run: (ex, next) => next(ex) });
  const terminal = () => ({ status: 200, headers: [], body: '' });
  t.throws(() => new RequestChain([stage('a', 'faults'), stage('latency', 'latency'), stage('b', 'faults')], terminal), new TypeError('stage "b": slot faults is taken by stage "a"; give it a slot of its own in SLOTS (runtime/chain/slots.ts)'));
  const forward = new RequestChain([stage('faults', 'faults'), stage('fault-injection', 'fault-injection')], terminal);
  const backward = new RequestChain([stage('fault-injection', 'fault-injection'), stage('faults', 'faults')], terminal);
  t.same(backward.stagesOf(null), forward.stagesOf(null), 'registration order is irrelevant');
  t.same(forward.stagesOf(null), ['faults', 'fault-injection']);
});

t.test('stages run in slot order, per route, and a route with none answers synchronously', async (t) => {
  const order = [];
  let onFor = new Set();
  let changed;
  const stage = (name, slot) => ({
    name,
    slot,
    appliesTo: (route) => onFor.has(route?.key ?? null),
    run: (ex, next) => {
      order.push(name);
      return next(ex);
    },
    watch: (cb) => (changed = cb),
  });
  // registered out of order: the slots decide
  const terminal = () => ({ status: 200, headers: [], body: 'terminal' });
  const chain = new RequestChain([stage('proxy', 'proxy'), stage('latency', 'latency'), stage('faults', 'faults')], terminal);
  chain.setRoutes(engine.routes);
  t.equal(chain.enter(routedTo(petRoute)), terminal, 'nothing applies: the terminal answers alone');
  onFor = new Set([petRoute.key, null]);
  changed();
  t.same(chain.stagesOf(petRoute), ['latency', 'faults', 'proxy']);
  t.same(chain.stagesOf(healthRoute), [], 'another route is untouched');
  t.equal(chain.enter(routedTo(healthRoute)), terminal);
  t.same(chain.stagesOf(null), ['latency', 'faults', 'proxy'], '"no route matched" has its own chain');
  const runner = chain.enter(routedTo(petRoute));
  t.same(runner(new Exchange(get('/pets/1'))).body, 'terminal');
  t.same(order, ['latency', 'faults', 'proxy']);
  changed();
  t.equal(chain.enter(routedTo(petRoute)), runner, 'a route whose stages did not change keeps its compiled chain');
  onFor = new Set();
  changed();
  t.equal(chain.enter(routedTo(petRoute)), terminal, 'turned off: back to the synchronous path');
});

t.test('a burst of changes recompiles once, when the chain is next read', async (t) => {
  const live = new LiveState();
  const chain = new RequestChain(createStages(contextOf(live), 'description'), (ex) => engine.respond(ex));
  chain.setRoutes(engine.routes);
  const before = chain.recompiles;
  // every chaos stage watches the chaos settings: one update reports to each of them
  live.chaos.applyProfile(live.chaos.profiles()[0]);
  live.chaos.update({ rate_limit: { enabled: true, requests_per_second: 1000, burst_size: 1000 } });
  t.equal(chain.recompiles, before, 'nothing recompiled yet');
  t.ok(chain.stagesOf(petRoute).length > 0, 'the profile applies its stages');
  t.equal(chain.recompiles, before + 1, 'one recompile for the whole burst');
  chain.stagesOf(healthRoute);
  t.equal(chain.recompiles, before + 1, 'reading again costs nothing');
});

t.test('stages the configuration leaves out are not created; watch is optional', async (t) => {
  const names = createStages({ ...contextOf(new LiveState()), settings: { maxBodyBytes: 1, sandboxAnswers: true, cors: { allowedOrigins: ['*'], credentials: true, maxAgeSeconds: 600, proxied: false } } }, 'description').map((s) => s.name);
  t.ok(names.includes('sandbox') && names.includes('cors'), 'configured stages are created');
  t.notOk(createStages(contextOf(new LiveState()), 'description').some((s) => s.name === 'sandbox' || s.name === 'cors' || s.name === 'token-endpoint'), 'stages the configuration leaves out are not');
  const quiet = { name: 'q', slot: 'faults', appliesTo: () => true, run: (ex, next) => next(ex) };
  t.equal(checkStage(quiet), quiet, 'a stage without watch is accepted');
});

t.test('a stage sees typed parameters and the parsed body; the terminal answers with the same validation', async (t) => {
  const seen = [];
  const reader = { name: 'reader', slot: 'replay', appliesTo: () => true, run: (ex, next) => (seen.push(ex.validated()), next(ex)) };
  const chain = new RequestChain([reader], (ex) => engine.respond(ex));
  chain.setRoutes(engine.routes);
  const through = async (init) => {
    const ex = new Exchange({ headers: {}, ...init });
    engine.route(ex);
    return { ex, answer: await chain.enter(ex)(ex) };
  };
  const typed = await through({ method: 'PUT', path: '/pets/7', rawQuery: '', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":"Rex"}') });
  t.equal(typed.answer.status, 200);
  t.same(seen[0].params.path, { id: 7 }, 'the path parameter as its schema types it: a number');
  t.same(seen[0].body, { name: 'Rex' }, 'the body parsed');
  t.same(seen[0].issues, []);
  t.equal(typed.ex.validated(), seen[0], 'validated once: the terminal used the same result');
  const refused = await through({ method: 'GET', path: '/pets/1', rawQuery: 'limit=99', headers: {} });
  t.equal(refused.answer.status, 400, "the validation mode's answer stays the terminal's");
  t.same(seen[1].params.query, { limit: 99 }, 'typed even when out of range');
  t.match(seen[1].issues, [{ location: 'query', name: 'limit', keyword: 'maximum' }]);
  const wrongType = await through({ method: 'PUT', path: '/pets/2', headers: { 'content-type': 'text/plain' }, body: Buffer.from('x') });
  t.equal(wrongType.answer.status, 415);
  t.same(seen[2].unsupportedType, { given: 'text/plain', accepted: ['application/json'] });
  await through({ method: 'GET', path: '/health', headers: {} });
  t.same(seen[3], { params: { path: {} }, body: undefined, issues: [] }, 'a route without parameters or body: nothing to check');
});

t.test('an exchange keeps the chain it ran through, whatever the chain compiles next', async (t) => {
  const released = [];
  let on = true;
  let changed;
  const hooked = { name: 'h', slot: 'bulkhead', appliesTo: () => on, run: (ex, next) => next(ex), afterAnswer: (ex) => released.push(ex.path), watch: (cb) => (changed = cb) };
  const chain = new RequestChain([hooked], () => ({ status: 200, headers: [], body: '' }));
  chain.setRoutes(engine.routes);
  const ex = new Exchange({ method: 'GET', path: '/pets/1', headers: {} });
  ex.route = petRoute;
  chain.enter(ex)(ex);
  chain.setRoutes([]);
  on = false;
  changed();
  chain.stagesOf(null);
  ex.chain.written(ex, { status: 200, headers: [], body: '' });
  t.same(released, ['/pets/1'], 'its afterAnswer hook runs after a restart to a build without its route');
});

t.test('live changes recompile without anyone calling changed()', async (t) => {
  const live = new LiveState();
  const { chain } = chainOf(live);
  t.same(chain.stagesOf(petRoute), []);
  live.setLatency({ ...live.latency, enabled: true });
  t.same(chain.stagesOf(petRoute), ['latency']);
  live.setLatency({ ...live.latency, enabled: false });
  live.setProxy({ enabled: true, upstream_url: null, timeout_seconds: 1 });
  t.same(chain.stagesOf(petRoute), [], 'a proxy without an upstream proxies nothing');
  const created = live.mocks.create({ method: 'GET', path: '/pets/{id}', response: { body: 1 } });
  t.same(chain.stagesOf(petRoute), ['mocks'], 'a mock on this path');
  t.same(chain.stagesOf(healthRoute), [], 'a runtime mock on another path leaves this route alone');
  t.same(chain.stagesOf(null), ['mocks'], 'unmatched requests may meet any mock');
  live.mocks.create({ method: 'GET', path: '/pets/mine', response: { body: 2 } });
  live.mocks.delete(created.mock.id);
  t.same(chain.stagesOf(petRoute), ['mocks'], 'a concrete path under the route template reaches it too');
  live.mocks.clear();
  t.same(chain.stagesOf(petRoute), []);
  live.overrides.replace([{ name: 'o', status: 500 }]);
  t.same(chain.stagesOf(healthRoute), ['overrides']);
});

t.test('the description answers through an idle stage set', async (t) => {
  const { answer } = chainOf(new LiveState());
  const { answer: a, ex } = await answer(get('/pets/7'));
  t.equal(a.status, 200);
  t.same(JSON.parse(a.body), { id: 1, name: 'Tom' });
  t.equal(ex.countedAs.key, 'GET /pets/{id}');
  t.same(ex.params, { id: '7' }, 'parameters filled by the one routing');
});

t.test('faults come first, even before runtime mocks', async (t) => {
  const live = new LiveState({ faults: { enabled: true, failure_rate: 1, status_codes: [503] } });
  live.mocks.create({ method: 'GET', path: '/pets/{id}', response: { body: { mocked: true } } });
  const { answer } = chainOf(live);
  const { answer: a } = await answer(get('/pets/7'));
  t.equal(a.status, 503);
  t.same(Object.fromEntries(a.headers)['x-mock-fault'], 'http_503');
  t.match(JSON.parse(a.body), { code: 'MOCK_ERR_FAULT_INJECTED' });
  t.equal(live.faultsInjected, 1);
});

t.test('a runtime mock wins over the description and statistics count the mock', async (t) => {
  const live = new LiveState();
  const created = live.mocks.create({ method: 'GET', path: '/pets/{id}', response: { body: { id: '{{request.path.id}}' } }, latency_ms: 25 });
  const { answer } = chainOf(live);
  const { answer: a, ex } = await answer(get('/pets/42'));
  t.same(JSON.parse(a.body), { id: '42' }, 'templates expand when the engine expands them');
  t.equal(ex.countedAs, created.mock.route);
  t.same(a.delivery, { holdMs: 25 }, 'its latency_ms holds the answer');
});

t.test('overrides adjust without touching the original answer; latency holds it and says so', async (t) => {
  const live = new LiveState({
    latency: { enabled: true, base_ms: 5, jitter_ms: 0, tag_overrides: { slow: 40 } },
    overrides: [{ name: 'flag', match: { path: '/pets/*' }, merge: { flagged: true }, headers: { 'x-o': '1' }, delay_ms: 10 }],
  });
  const before = engine.handle(new Exchange(get('/pets/1'))).body;
  const { answer } = chainOf(live);
  const { answer: a } = await answer(get('/pets/1'));
  const headers = Object.fromEntries(a.headers);
  t.same(JSON.parse(a.body), { id: 1, name: 'Tom', flagged: true });
  t.equal(headers['x-o'], '1');
  t.equal(headers['x-mock-injected-latency-ms'], '40', 'the tag override replaces base_ms');
  t.same(a.delivery, { holdMs: 50 }, 'the rule delay and the latency add up');
  t.equal(engine.handle(new Exchange(get('/pets/1'))).body, before, 'the engine’s cached answer is unchanged');
  const { answer: health } = await answer(get('/health'));
  t.equal(Object.fromEntries(health.headers)['x-mock-injected-latency-ms'], '5', 'untagged operations get base_ms');
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
  const { answer } = chainOf(live);
  const posted = await answer({ method: 'POST', path: '/pets/9', rawQuery: 'a=1', headers: { 'x-tenant': 'acme', 'content-type': 'text/plain' }, body: Buffer.from('hi') });
  t.same(JSON.parse(posted.answer.body), { upstream: true, method: 'POST', url: '/base/pets/9?a=1', body: 'hi', tenant: 'acme' });
  t.equal(posted.ex.countedAs, null, 'POST /pets/{id} is not an operation of the description');
  const proxiedGet = await answer(get('/pets/3'));
  t.equal(proxiedGet.ex.countedAs.key, 'GET /pets/{id}', 'proxied requests count under the operation they reach');
  t.equal(live.requestsProxied, 2);

  live.setProxy({ enabled: true, upstream_url: 'http://127.0.0.1:1', timeout_seconds: 2 });
  const down = await answer(get('/pets/1'));
  t.equal(down.answer.status, 502);
  t.match(JSON.parse(down.answer.body), { code: 'MOCK_ERR_UPSTREAM_UNREACHABLE', detail: /^proxy to http:\/\/127\.0\.0\.1:1 failed: ECONNREFUSED/ });
});

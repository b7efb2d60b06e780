// The stateful stage over a real build: only operations a transition can reach carry it (a route
// no machine applies to keeps its synchronous path), the unmatched chain does, custom routes never
// (their answers win); an async store keeps the same answers.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from '../../../dist/compiler/index.js';
import { Engine, loadBuild } from '../../../dist/runtime/terminal/openapi/index.js';
import { Exchange } from '../../../dist/runtime/chain/exchange/index.js';
import { LiveState } from '../../../dist/runtime/chain/settings/index.js';
import { RequestChain, createStages } from '../../../dist/runtime/chain/index.js';
import { StateStore, StatefulService } from '../../../dist/runtime/chain/stateful/index.js';

const spec = `openapi: 3.0.3
info: {title: Shop, version: "1"}
paths:
  /orders/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok, content: {application/json: {example: {from: description}}}}}
  /orders/{id}/process:
    put:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok, content: {application/json: {example: {from: description}}}}}
  /health:
    get:
      responses: {"200": {description: ok, content: {application/json: {example: {ok: true}}}}}
`;
const cwd = t.testdir({});
writeFileSync(path.join(cwd, 'shop.yaml'), spec);
const routes = [{ method: '*', path: '/legacy/**', response: { status: 410 } }];
const result = await build({ specs: [{ source: 'shop.yaml' }], routes, outDir: 'out', cwd });
const logger = { warn() {}, info() {}, error() {}, debug() {} };
const engine = new Engine(await loadBuild(result.dir), {
  validation: { mode: 'enforce', aggregate_errors: false, validate_responses: false, status_code: 400, overrides: {} },
  templateExpand: false,
  seed: 1,
  logger,
});
const route = (key) => engine.routes.find((r) => r.key === key);

const options = {
  enabled: true,
  state_machines: [
    {
      name: 'orders',
      initial_state: 'pending',
      resource_id_extract: { type: 'path_param', param: 'id' },
      states: [{ name: 'processing', response: { status_code: 200, body_template: { id: '{{resource_id}}', status: 'processing' } } }],
      transitions: [
        { method: 'put', path_pattern: '/orders/{id}/process', from_state: 'pending', to_state: 'processing' },
        { method: 'GET', path_pattern: '/orders/{id}', from_state: 'processing', to_state: 'processing' },
        { method: 'DELETE', path_pattern: '/legacy/orders/{id}', from_state: 'processing', to_state: 'pending' },
      ],
    },
  ],
};

function chainOf(store) {
  const stateful = new StatefulService(options, store, () => 0);
  const stages = createStages({ live: new LiveState(), logger, engine: () => engine, openConnections: () => 0, settings: { maxBodyBytes: 1 << 20 }, stateful }, 'description').filter((s) => s.name === 'stateful');
  const chain = new RequestChain(stages, (ex) => engine.respond(ex));
  chain.setRoutes(engine.routes);
  const answer = async (method, p) => {
    const ex = new Exchange({ method, path: p, headers: {} });
    engine.route(ex);
    return chain.enter(ex)(ex);
  };
  return { chain, answer };
}

t.test('the stage rides only on operations a transition can reach', async (t) => {
  const { chain } = chainOf(new StateStore());
  t.same(chain.stagesOf(route('PUT /orders/{id}/process')), ['stateful']);
  t.same(chain.stagesOf(route('GET /orders/{id}')), ['stateful']);
  t.same(chain.stagesOf(route('GET /health')), [], 'a route no machine applies to answers straight from the terminal');
  t.same(chain.stagesOf(route('* /legacy/**')), [], 'a custom route, though a transition shares its path: its answer wins');
  t.same(chain.stagesOf(null), ['stateful'], 'the unmatched chain: a transition may name a path or method no route has');
  t.same(
    createStages({ live: new LiveState(), logger, engine: () => engine, openConnections: () => 0, settings: { maxBodyBytes: 1 } }, 'description').map((s) => s.name).includes('stateful'),
    false,
    'without core.stateful there is no stage at all',
  );
});

t.test('a store that answers with promises gives the same answers', async (t) => {
  const memory = new StateStore();
  const later = (value) => new Promise((resolve) => setImmediate(() => resolve(value)));
  const async = Object.fromEntries(['get', 'set', 'update', 'delete', 'list', 'count', 'clear'].map((name) => [name, (...args) => later(memory[name](...args))]));
  for (const [what, store] of [
    ['memory', new StateStore()],
    ['async', async],
  ]) {
    const { answer } = chainOf(store);
    const first = await answer('PUT', '/orders/a/process');
    t.same([first.status, JSON.parse(first.body)], [200, { id: 'a', status: 'processing' }], `${what}: moved`);
    t.equal((await answer('PUT', '/orders/a/process')).status, 409, `${what}: a second time conflicts`);
    t.same(JSON.parse((await answer('GET', '/orders/a')).body), { id: 'a', status: 'processing' }, `${what}: read`);
    t.same(JSON.parse((await answer('GET', '/orders/b')).body), { from: 'description' }, `${what}: another resource is untouched`);
  }
  t.equal(memory.count('orders'), 1);
});

// The one store interface (runtime/store, issue 36 item 7) through the SDK as a user reaches it:
// two servers started with the same StoreFactory share every piece of state a request or the admin
// API changes, because the servers keep none of their own. A change made through server A is seen
// through server B: a runtime mock, override rules, chaos settings, the virtual clock, validation,
// the continuum, a state machine's resource, a GraphQL mutation's object, the global rate limit,
// the circuit breaker, an error pattern's position, a fixture sequence's position, a scenario
// entity's item, an admin login (its refresh, its revocation, a user created, a failed try), a model's answer (AI-assisted mocks). A spy around the factory shows that every
// store the process opens was written through the interface.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { MemoryStores, STORE_NAMES, startMockServer } from 'mock-compiler';
import { root, runMock, tmpdir } from '../helpers/cli.js';
import { misbehaving } from '../helpers/plugins.js';
import { jsonBody, readAnswer } from '../helpers/admin.js';

const example = (body) => ({ 200: { description: 'ok', content: { 'application/json': { example: body } } } });
const api = {
  openapi: '3.0.3',
  info: { title: 'stores', version: '1' },
  paths: {
    '/orders': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { 201: { description: 'created' } } } },
    '/orders/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: example({ from: 'description' }) } },
    '/plain': { get: { responses: example({ from: 'description' }) } },
    '/seq': { get: { responses: example({ from: 'description' }) } },
    '/plugin': { get: { responses: example({ v: '{{plugin:sloppy:garbage()}}' }) } },
    '/ai': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } } } } } } } },
    '/strict': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } } },
        responses: example({ ok: true }),
      },
    },
  },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'api.json'), JSON.stringify(api));
// a plugin that answers garbage: its failures in a row live in the plugin-health store
writeFileSync(path.join(dir, 'sloppy.wasm'), misbehaving('sloppy'));
const installed = await runMock(['plugin', 'install', 'sloppy.wasm'], { cwd: dir });
if (installed.code !== 0) throw new Error(`plugin install: ${installed.stdout}${installed.stderr}`);
mkdirSync(path.join(dir, 'fixtures', 'http'), { recursive: true });
for (const n of [1, 2]) {
  const fixture = {
    fingerprint: { method: 'GET', path: '/seq', query_params: {}, headers: {} },
    status_code: 200,
    response_headers: { 'content-type': 'application/json' },
    response_body: JSON.stringify({ n }),
    metadata: { sequence: String(n) },
  };
  writeFileSync(path.join(dir, 'fixtures', 'http', `seq-${n}.json`), JSON.stringify(fixture));
}
// the scenario in use (mock scenario use) brings a collection: its items live in scenario-entities
const scenario = path.join(dir, '.mock', 'scenarios', 'notes');
mkdirSync(scenario, { recursive: true });
writeFileSync(path.join(scenario, 'config.yaml'), '');
writeFileSync(path.join(scenario, 'scenario.yaml'), 'name: notes\nversion: 1.0.0\nvbr_entities:\n  - name: notes\n    seed_data: [{ id: 1, text: seeded }]\n');
writeFileSync(path.join(dir, '.mock', 'active-scenario.json'), JSON.stringify({ name: 'notes', version: '1.0.0', dir: '.mock/scenarios/notes' }));

/** A factory around the memory stores that counts the writes each store takes, hosted mocks' own (`within`) included. */
const writes = Object.fromEntries(STORE_NAMES.map((name) => [name, 0]));
const openedNames = new Set();
const memory = new MemoryStores();
const counted = (factory) => ({
  open(name, budget) {
    openedNames.add(name);
    const store = factory.open(name, budget);
    return new Proxy(store, {
      get(target, key) {
        const value = target[key];
        if (typeof value !== 'function') return value;
        return (...args) => {
          if (['set', 'update', 'delete', 'clear'].includes(key)) writes[name]++;
          return value.apply(target, args);
        };
      },
    });
  },
  opened: () => factory.opened(),
  within: (namespace) => counted(factory.within(namespace)),
});
const stores = counted(memory);

// a fake OpenAI-compatible endpoint: the model's answers live in the ai-answers store
let modelCalls = 0;
const model = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    modelCalls++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ answer: `model ${modelCalls}` }) } }] }));
  });
});
await new Promise((resolve) => model.listen(0, '127.0.0.1', resolve));
t.teardown(() => model.close());

const options = {
  spec: 'api.json',
  cwd: dir,
  stores,
  seed: 1,
  server: { http_port: 0, graphql_port: 0, bind: '127.0.0.1' },
  logging: { level: 'warn' },
  graphql: { schema: path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql') },
  core: {
    fixtures: { dir: './fixtures', replay_enabled: true },
    stateful: {
      enabled: true,
      state_machines: [
        {
          name: 'orders',
          initial_state: 'initial',
          resource_id_extract: {
            type: 'composite',
            extractors: [
              { type: 'path_param', param: 'id' },
              { type: 'json_path', path: '$.id' },
            ],
          },
          states: [{ name: 'pending', response: { status_code: 201, body_template: { id: '{{resource_id}}', status: 'pending' } } }],
          transitions: [
            { method: 'POST', path_pattern: '/orders', from_state: 'initial', to_state: 'pending' },
            { method: 'GET', path_pattern: '/orders/{id}', from_state: 'pending', to_state: 'pending' },
          ],
        },
      ],
    },
  },
  admin: { enabled: true, embedded: true, management_token: 'state-stores-management-token' },
  observability: { chaos: { enabled: true } },
  response_template_expand: true,
  plugins: { disable_after: 2 },
  ai: { enabled: true, endpoint: `http://127.0.0.1:${model.address().port}/v1`, model: 'm', rules: [{ endpoint: 'GET /ai', rules: 'one short sentence' }] },
  // hosted mode: its tenants in hosted-mocks, a tenant's minute in its own tenant-usage
  tenancy: { plans: { small: { quotas: { max_requests_per_minute: 3 } } }, tenants: { t1: { plan: 'small', spec: 'api.json' } } },
};
const a = await startMockServer(options);
t.teardown(() => a.close());
const b = await startMockServer(options);
t.teardown(() => b.close());

// hosted mode is on (tenancy): writes to the admin API carry the management token
const TOKEN = { 'x-mock-management-token': 'state-stores-management-token' };
const call = async (server, method, target, body) => readAnswer(await fetch(`${server.url}${target}`, { method, ...(body === undefined ? { headers: TOKEN } : jsonBody(body, TOKEN)) }));
const gql = async (server, query, variables) =>
  (await (await fetch(server.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) })).json()).data;

t.test('a runtime mock created through A answers on B; deleted through B, A answers from the description again', async (t) => {
  const created = await call(a, 'POST', '/__mock/api/mocks', { method: 'GET', path: '/plain', status_code: 200, response: { body: { from: 'runtime mock' } } });
  t.equal(created.status, 201);
  t.same((await call(b, 'GET', '/plain')).json, { from: 'runtime mock' }, 'B answers with the mock A stored');
  t.equal((await call(b, 'DELETE', `/__mock/api/mocks/${created.json.data.id}`)).status, 200);
  t.same((await call(a, 'GET', '/plain')).json, { from: 'description' }, 'A follows the delete B made');
});

t.test('override rules, validation and the clock set through A hold on B', async (t) => {
  t.equal((await call(a, 'PUT', '/__mock/overrides', [{ name: 'teapot', match: { path: '/plain' }, status: 418 }])).status, 200);
  t.equal((await call(b, 'GET', '/plain')).status, 418, 'B applies the rule');
  await call(b, 'PUT', '/__mock/overrides', []);
  t.equal((await call(a, 'GET', '/plain')).status, 200, 'and A drops it when B clears them');

  t.equal((await call(b, 'POST', '/strict', { n: 'x' })).status, 400, 'B validates requests as configured');
  t.equal((await call(a, 'POST', '/__mock/validation', { mode: 'off' })).status, 200);
  t.equal((await call(b, 'POST', '/strict', { n: 'x' })).status, 200, 'validation switched off through A holds on B');
  await call(a, 'POST', '/__mock/validation', { mode: 'enforce' });

  t.equal((await call(a, 'POST', '/__mock/time/set', { time: '2031-02-03T04:05:06Z' })).status, 200);
  const time = (await call(b, 'GET', '/__mock/config')).json.data.time;
  t.equal(time.enabled, true, 'time travel switched on through A is on in B');
  t.match(time.virtual_time, /^2031-02-03T04:05/, 'B reads the virtual time A set');
});

t.test('chaos and the continuum steered through A hold on B', async (t) => {
  t.equal((await call(a, 'PUT', '/__mock/api/chaos/config', { bulkhead: { max_concurrent_requests: 77 } })).status, 200);
  t.equal((await call(b, 'GET', '/__mock/api/chaos/config')).json.data.bulkhead.max_concurrent_requests, 77, "B's chaos settings are A's");
  await call(b, 'POST', '/__mock/api/chaos/config/reset');
  t.not((await call(a, 'GET', '/__mock/api/chaos/config')).json.data.bulkhead.max_concurrent_requests, 77, 'a reset through B resets A');

  t.equal((await call(a, 'PUT', '/__mock/continuum/ratio', { path: '/plain', ratio: 0.25 })).status, 200);
  const ratio = (await call(b, 'GET', '/__mock/continuum/ratio?path=/plain')).json.data;
  t.equal(ratio.blend_ratio, 0.25, "B's continuum ratio for the path is the one A set");
  t.equal(ratio.level, 'manual');
});

t.test("a state machine's resource moved through A is read through B", async (t) => {
  t.equal((await call(a, 'POST', '/orders', { id: 'o-1' })).status, 201, 'created through A: pending');
  const read = await call(b, 'GET', '/orders/o-1');
  t.same(read.json, { id: 'o-1', status: 'pending' }, 'B answers from the state A stored');
  t.same((await call(b, 'GET', '/orders/o-2')).json, { from: 'description' }, 'a resource nobody created has no state there: the description answers');
});

t.test("a scenario entity's item created through A is read, changed and deleted through B", async (t) => {
  t.same((await call(b, 'GET', '/notes')).json, [{ id: 1, text: 'seeded' }], 'seeded once for both');
  t.same((await call(a, 'POST', '/notes', { text: 'shared' })).json, { id: 2, text: 'shared' });
  t.same((await call(b, 'PATCH', '/notes/2', { text: 'changed' })).json, { id: 2, text: 'changed' });
  t.same((await call(a, 'GET', '/notes/2')).json, { id: 2, text: 'changed' });
  t.equal((await call(b, 'DELETE', '/notes/2')).status, 204);
  t.equal((await call(a, 'GET', '/notes/2')).status, 404);
});

t.test("a GraphQL mutation's object written through A is read through B", async (t) => {
  const created = await gql(a, 'mutation ($n: String!) { createUser(input: {name: $n, email: "e@example.com"}) { id name } }', { n: 'Shared' });
  const id = created.createUser.id;
  t.same(await gql(b, 'query ($id: ID!) { user(id: $id) { name } }', { id }), { user: { name: 'Shared' } }, 'B reads the object A stored');
});

t.test('a fixture sequence goes on where the other server left it', async (t) => {
  t.same((await call(a, 'GET', '/seq')).json, { n: 1 }, 'A serves the first recorded answer');
  t.same((await call(b, 'GET', '/seq')).json, { n: 2 }, 'B the second');
});

t.test('the rate limit, the circuit breaker and an error pattern hold across both servers', async (t) => {
  t.equal((await call(a, 'PUT', '/__mock/api/chaos/config', { rate_limit: { enabled: true, requests_per_second: 0.01, burst_size: 4 } })).status, 200);
  const statuses = [];
  for (const server of [a, b, a, b, a, b]) statuses.push((await call(server, 'GET', '/plain')).status);
  t.same(statuses, [200, 200, 200, 200, 429, 429], 'one bucket of 4 for both servers together');
  await call(b, 'POST', '/__mock/api/chaos/config/reset');

  const breaker = {
    circuit_breaker: { enabled: true, failure_threshold: 2, success_threshold: 1, timeout_ms: 60_000 },
    fault_injection: { enabled: true, http_errors: [500], http_error_probability: 1 },
  };
  t.equal((await call(a, 'PUT', '/__mock/api/chaos/config', breaker)).status, 200);
  t.equal((await call(a, 'GET', '/plain')).status, 500);
  t.equal((await call(b, 'GET', '/plain')).status, 500, 'the second failure, through B');
  const refused = await call(a, 'GET', '/plain');
  t.equal(refused.status, 503, 'the breaker the two failures opened refuses on A');
  t.equal(refused.headers.get('x-mock-fault'), 'circuit_open');
  t.equal((await call(b, 'GET', '/__mock/api/chaos/stats')).json.data.circuit_breaker.state, 'open', 'B reports it open');
  await call(a, 'POST', '/__mock/api/chaos/config/reset');

  const pattern = { fault_injection: { enabled: true, http_errors: [500], error_pattern: { type: 'sequential', sequence: [503, 200], repeat: true } } };
  t.equal((await call(b, 'PUT', '/__mock/api/chaos/config', pattern)).status, 200);
  const steps = [];
  for (const server of [a, b, a, b]) steps.push((await call(server, 'GET', '/plain')).status);
  t.same(steps, [503, 200, 503, 200], 'one sequential error pattern walked by both servers in turn');
  await call(b, 'POST', '/__mock/api/chaos/config/reset');
});

t.test('a contract-diff capture uploaded through A is read and analysed through B', async (t) => {
  const stored = await call(a, 'POST', '/__mock/contract-diff/upload', { method: 'GET', path: '/nowhere' });
  t.equal(stored.status, 201);
  const { id } = stored.json.data;
  t.equal((await call(b, 'GET', `/__mock/api/contract-diff/captures/${id}`)).json.data.capture.path, '/nowhere', 'B reads the capture A stored');
  t.match((await call(b, 'POST', `/__mock/contract-diff/captures/${id}/analyze`, {})).json.data.mismatches, [{ type: 'missing_endpoint' }]);
});

t.test('an admin login made through one server is refreshed, revoked and throttled through another', async (t) => {
  const auth = { enabled: true, jwt_secret: 'state-stores-secret-0123456789abcdef', users: [{ username: 'ann', role: 'admin', password: 'ann-password-1' }] };
  // without hosted mode, whose management token every write would need
  const { tenancy: _, ...selfHosted } = options;
  const c = await startMockServer({ ...selfHosted, admin: { enabled: true, embedded: true, auth } });
  t.teardown(() => c.close());
  const d = await startMockServer({ ...selfHosted, admin: { enabled: true, embedded: true, auth } });
  t.teardown(() => d.close());
  const send = async (server, target, body, token) =>
    readAnswer(
      await fetch(`${server.url}/__mock/${target}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body ?? {}),
      }),
    );
  t.equal((await send(c, 'auth/login', { username: 'ann', password: 'wrong-password' })).status, 401);
  const session = (await send(c, 'auth/login', { username: 'ann', password: 'ann-password-1' })).json.data;
  t.equal((await send(d, 'auth/users', { username: 'bo', password: 'bo-password-1', role: 'viewer' }, session.access_token)).status, 201, 'D takes the token C issued');
  t.equal((await send(c, 'auth/login', { username: 'bo', password: 'bo-password-1' })).status, 200, 'C knows the user D created');
  const renewed = await send(d, 'auth/refresh', { refresh_token: session.refresh_token });
  t.equal(renewed.status, 200, 'D rotates the refresh token C issued');
  t.equal((await send(c, 'auth/logout', {}, renewed.json.data.access_token)).status, 200);
  t.match((await send(d, 'logs/clear', {}, renewed.json.data.access_token)).json.error, /revoked by logout/, 'logged out through C, refused by D');
});

t.test("a plugin's failures on A and B add up: the second disables it on both", async (t) => {
  t.equal((await call(a, 'GET', '/plugin')).json.code, 'MOCK_ERR_PLUGIN_FAILED');
  t.equal((await call(b, 'GET', '/plugin')).json.code, 'MOCK_ERR_PLUGIN_FAILED', 'the second failure in a row, counted with the first');
  const disabled = await call(a, 'GET', '/plugin');
  t.equal(disabled.status, 502);
  t.equal(disabled.json.code, 'MOCK_ERR_PLUGIN_DISABLED', 'A learnt from the store that B disabled it');
});

t.test("a model's answer asked through A is served from the cache through B", async (t) => {
  const first = await call(a, 'GET', '/ai');
  t.equal(first.headers.get('x-mock-source'), 'ai');
  t.same(first.json, { answer: 'model 1' });
  t.same((await call(b, 'GET', '/ai')).json, { answer: 'model 1' }, 'B answers from the answer A kept');
  t.equal(modelCalls, 1, 'the model was asked once');
});

t.test("a hosted mock's minute of requests is counted for both servers", async (t) => {
  const statuses = [];
  for (const server of [a, b, a, b]) statuses.push((await call(server, 'GET', '/api/v1/hosted-mocks/t1/plain')).status);
  t.same(statuses, [200, 200, 200, 429], 'max_requests_per_minute 3, for A and B together');
});

t.test('every store the process keeps was written through the store interface', async (t) => {
  t.same([...openedNames].sort(), [...STORE_NAMES].sort(), 'the servers opened every store');
  for (const name of STORE_NAMES) t.ok(writes[name] > 0, `${name}: ${writes[name]} writes`);
});

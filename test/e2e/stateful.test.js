// State machines through the real CLI (docs/stateful.md): the spec's orders example as it writes
// it, the 409 of an impossible transition, a timed transition crossed by time/advance, 1,000
// resources moved at once without cross-talk, the admin endpoints, the store's byte budget
// (max_store_mb: 1, filled by long ids), bad configurations refused, and the ecommerce
// blueprint's machine walked end to end.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runMock, sideBySide, startMock, tmpdir } from '../helpers/cli.js';

const orderId = { name: 'order_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+$' } };
const answer = (status) => ({ [status]: { description: 'the description answers', content: { 'application/json': { example: { from: 'description' } } } } });
const api = {
  openapi: '3.0.3',
  info: { title: 'orders', version: '1' },
  servers: [{ url: 'http://localhost:3000/api' }],
  paths: {
    '/orders': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: answer(201) } },
    '/orders/{order_id}': { get: { parameters: [orderId], responses: answer(200) } },
    '/orders/{order_id}/process': { put: { parameters: [orderId], responses: answer(200) } },
    '/orders/{order_id}/cancel': { post: { parameters: [orderId], responses: answer(200) } },
  },
};
const machines = `
core:
  stateful:
    enabled: true
    max_store_mb: 1
    state_machines:
      - name: orders
        initial_state: initial
        resource_id_extract:
          type: composite
          extractors:
            - { type: path_param, param: order_id }
            - { type: json_path, path: $.order_id }
        states:
          - name: pending
            response: { status_code: 201, body_template: { order_id: "{{resource_id}}", status: pending, note: "{{request.body.note}}" } }
          - name: processing
            response: { status_code: 200, body_template: '{"order_id": "{{resource_id}}", "status": "processing"}' }
          - name: shipped
            response: { body_template: { order_id: "{{resource_id}}", status: shipped } }
          - name: cancelled
        transitions:
          - { method: POST, path_pattern: /api/orders, from_state: initial, to_state: pending }
          - { method: PUT, path_pattern: "/api/orders/{order_id}/process", from_state: pending, to_state: processing }
          - { from_state: processing, to_state: shipped, after: 30m }
          - { method: post, path_pattern: "/api/orders/{order_id}/cancel", from_state: pending, to_state: cancelled }
          - { method: GET, path_pattern: "/api/orders/{order_id}", from_state: pending, to_state: pending }
          - { method: GET, path_pattern: "/api/orders/{order_id}", from_state: processing, to_state: processing }
          - { method: GET, path_pattern: "/api/orders/{order_id}", from_state: shipped, to_state: shipped }
      - name: sessions
        initial_state: anonymous
        resource_id_extract: { type: header, name: X-Session }
        states: [{ name: signed_in, response: { body_template: "session {{resource_id}} signed in" } }]
        transitions: [{ method: POST, path_pattern: /auth/login, from_state: anonymous, to_state: signed_in }]
`;

const dir = tmpdir();
writeFileSync(path.join(dir, 'api.json'), JSON.stringify(api));
writeFileSync(path.join(dir, 'mock.yaml'), `specs: [./api.json]\ntime_travel: { enabled: true, initial_time: "2030-01-01T00:00:00Z" }\n${machines}`);
const server = await startMock(['--out', path.join(dir, 'out'), '--admin', '--admin-port', '0', '--seed', '7'], { cwd: dir });
t.teardown(() => server.stop());

async function send(method, target, { body, headers = {} } = {}) {
  const res = await fetch(`${server.url}${target}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, headers: res.headers, text, json: /json/.test(type) ? JSON.parse(text) : undefined };
}
async function admin(method, endpoint, body) {
  const res = await fetch(`${server.adminUrl}/__mock/${endpoint}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
const stateOf = async (machine, id) => (await admin('GET', `state/${machine}/${encodeURIComponent(id)}`)).body.data?.state;

let placed;
t.test('the orders machine as the spec writes it: POST /api/orders → pending, PUT …/process from pending → processing', async (t) => {
  const created = await send('POST', '/api/orders', { body: { note: 'gift wrap' } });
  t.equal(created.status, 201, "the pending state's status");
  t.equal(created.type, 'application/json');
  t.match(created.json, { status: 'pending', note: 'gift wrap' }, 'every token renders though response_template_expand is off');
  t.match(created.json.order_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'POST /api/orders names no order: the id is generated');
  placed = created.json.order_id;
  t.equal(await stateOf('orders', placed), 'pending');

  const processed = await send('PUT', `/api/orders/${placed}/process`);
  t.equal(processed.status, 200);
  t.equal(processed.type, 'application/json', 'a body_template string of JSON text is JSON');
  t.same(processed.json, { order_id: placed, status: 'processing' });
  t.same((await send('GET', `/api/orders/${placed}`)).json, { order_id: placed, status: 'processing' }, 'a GET from a state to itself shows it');

  const chosen = await send('POST', '/api/orders', { body: { order_id: 'mine-1' } });
  t.equal(chosen.json.order_id, 'mine-1', 'a client naming its id in the body (json_path) keeps it');
  t.same((await send('GET', '/api/orders/nobody')).json, { from: 'description' }, 'no transition leaves the initial state on GET: the description answers');
  t.equal(await stateOf('orders', 'nobody'), undefined, 'and no state is stored for it');
});

t.test('a transition the state does not allow: 409 from the catalogue naming the machine, resource, state and ways out', async (t) => {
  const again = await send('PUT', `/api/orders/${placed}/process`);
  t.equal(again.status, 409);
  t.equal(again.type, 'application/problem+json');
  t.equal(again.headers.get('x-mock-error-code'), 'MOCK_ERR_STATE_CONFLICT');
  t.match(again.headers.get('x-mock-error-detail'), `is in state processing`);
  t.same(again.json, {
    type: 'about:blank',
    title: 'Conflict',
    status: 409,
    detail: `orders: resource "${placed}" is in state processing, and PUT /api/orders/{order_id}/process moves a resource only from pending; from processing: GET /api/orders/{order_id} → processing; after 30m → shipped`,
    code: 'MOCK_ERR_STATE_CONFLICT',
    machine: 'orders',
    resource_id: placed,
    current_state: 'processing',
    allowed_transitions: [
      { method: 'GET', path_pattern: '/api/orders/{order_id}', to_state: 'processing' },
      { after: '30m', to_state: 'shipped' },
    ],
  });
  t.equal(await stateOf('orders', placed), 'processing', 'nothing moved');

  const fresh = await send('PUT', '/api/orders/never-placed/process');
  t.equal(fresh.status, 409, 'a resource without state is in the initial state');
  t.match(fresh.json, { current_state: 'initial', allowed_transitions: [{ method: 'POST', path_pattern: '/api/orders', to_state: 'pending' }] });
});

t.test('a state without a response moves the resource and lets the description answer; the description refuses first', async (t) => {
  const { json } = await send('POST', '/api/orders', {});
  const refused = await send('PUT', `/api/orders/${json.order_id}/process`, { body: { unexpected: true } });
  t.equal(refused.status, 415, 'enforce mode: PUT …/process takes no body');
  t.equal(await stateOf('orders', json.order_id), 'pending', 'a refused request moves nothing');

  const cancelled = await send('POST', `/api/orders/${json.order_id}/cancel`);
  t.equal(cancelled.status, 200);
  t.same(cancelled.json, { from: 'description' }, 'cancelled has no response');
  t.equal(await stateOf('orders', json.order_id), 'cancelled');
  const twice = await send('POST', `/api/orders/${json.order_id}/cancel`);
  t.equal(twice.status, 409);
  t.match(twice.json, { current_state: 'cancelled', allowed_transitions: [] });
  t.match(twice.json.detail, /no transition leaves cancelled$/);
  t.same((await send('GET', `/api/orders/${json.order_id}`)).json, { from: 'description' }, 'a GET never conflicts: no transition from cancelled passes on');
});

t.test('a machine keyed by a header on a path no route has (the unmatched chain), answering text', async (t) => {
  const login = await send('POST', '/auth/login', { headers: { 'x-session': 's-1' } });
  t.equal(login.status, 200);
  t.match(login.type, /^text\/plain/);
  t.equal(login.text, 'session s-1 signed in');
  t.equal((await send('POST', '/auth/login', { headers: { 'x-session': 's-1' } })).status, 409, 'signed in already');
  t.equal((await send('POST', '/auth/login', { headers: { 'x-session': 's-2' } })).status, 200, 'another session is another resource');
  t.equal((await send('GET', '/auth/login')).status, 404, 'other methods on that path are nobody’s');
});

t.test('1,000 resources moved at once never interfere', async (t) => {
  const ids = Array.from({ length: 1000 }, (_, i) => `c${i}`);
  const created = await Promise.all(ids.map((id) => send('POST', '/api/orders', { body: { order_id: id } })));
  t.same(created.filter((r) => r.status !== 201), [], 'all created');
  // even ones are processed, every third of the odd ones cancelled, the rest stay pending
  const moved = await Promise.all(
    ids.map((id, i) => (i % 2 === 0 ? send('PUT', `/api/orders/${id}/process`) : i % 3 === 0 ? send('POST', `/api/orders/${id}/cancel`) : send('GET', `/api/orders/${id}`))),
  );
  t.same(moved.filter((r) => r.status !== 200 && r.status !== 201).map((r) => r.text), [], 'every move answered');
  const expected = (i) => (i % 2 === 0 ? 'processing' : i % 3 === 0 ? 'cancelled' : 'pending');
  t.same(
    moved.map((r, i) => r.json?.order_id ?? ids[i]),
    ids,
    'each answer names its own resource',
  );
  const { body } = await admin('GET', 'state/orders');
  const states = new Map(body.data.resources.map((r) => [r.resource_id, r.state]));
  t.same(ids.filter((id, i) => states.get(id) !== expected(i)), [], 'the admin API finds every resource in its own state');
});

t.test('a timed transition crossed by POST /api/v2/time/advance on the virtual clock', async (t) => {
  const before = (await admin('GET', `state/orders/${placed}`)).body.data;
  t.equal(before.state, 'processing');
  const early = await fetch(`${server.adminUrl}/api/v2/time/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"duration":"29m"}' });
  t.equal(early.status, 200);
  t.same((await send('GET', `/api/orders/${placed}`)).json, { order_id: placed, status: 'processing' }, '29 virtual minutes: still processing');
  await fetch(`${server.adminUrl}/api/v2/time/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"duration":"2m"}' });
  t.same((await send('GET', `/api/orders/${placed}`)).json, { order_id: placed, status: 'shipped' }, '31: shipped, read lazily');
  const after = (await admin('GET', `state/orders/${placed}`)).body.data;
  t.equal(after.state, 'shipped');
  t.equal(Date.parse(after.entered_at) - Date.parse(before.entered_at), 30 * 60_000, 'it entered shipped when its 30 minutes ran out');
  t.same(after.transitions, [{ method: 'GET', path_pattern: '/api/orders/{order_id}', to_state: 'shipped' }]);
  const states = new Map((await admin('GET', 'state/orders')).body.data.resources.map((r) => [r.resource_id, r.state]));
  t.equal(states.get('c0'), 'shipped', 'the listing applies due transitions too');
  t.equal(states.get('c1'), 'pending', 'and moves nothing else');
});

t.test('admin endpoints: list, read, set (a state the machine lacks refused), reset', async (t) => {
  const list = await admin('GET', 'state');
  t.equal(list.status, 200);
  t.match(list.body.data, [
    { name: 'orders', initial_state: 'initial', states: ['initial', 'pending', 'processing', 'shipped', 'cancelled'] },
    { name: 'sessions', initial_state: 'anonymous', resources: 2 },
  ]);
  t.ok(list.body.data[0].resources >= 1000, 'with resource counts');

  const machine = await admin('GET', 'state/orders');
  t.match(machine.body.data.states.find((s) => s.name === 'processing'), { transitions: [{ method: 'GET' }, { after: '30m', to_state: 'shipped' }] });
  t.equal((await admin('GET', 'api/state/orders/c1')).body.data.state, 'pending', 'also under /__mock/api/');
  const missing = await admin('GET', 'state/orders/nobody');
  t.equal(missing.status, 404);
  t.match(missing.body.error, 'it starts in initial');
  t.equal((await admin('GET', 'state/carts')).status, 404, 'an unknown machine');

  const bad = await admin('PUT', 'state/orders/c1', { state: 'lost' });
  t.equal(bad.status, 400);
  t.match(bad.body.error, 'orders has no state "lost" (its states: initial, pending, processing, shipped, cancelled)');
  t.equal((await admin('PUT', 'state/orders/c1', {})).status, 400, 'the state is required');
  const set = await admin('PUT', 'state/orders/c1', { state: 'processing' });
  t.equal(set.status, 200);
  t.match(set.body.data, { resource_id: 'c1', state: 'processing', transitions: [{ method: 'GET' }, { after: '30m' }] });
  t.same((await send('GET', '/api/orders/c1')).json, { order_id: 'c1', status: 'processing' }, 'requests see the state set');
  const created = await admin('PUT', 'state/orders/new%20one', { state: 'pending' });
  t.equal(created.body.data.resource_id, 'new one', 'ids in paths are percent-decoded');

  t.match((await admin('DELETE', 'state/orders/c1')).body.data, { reset: 1 });
  t.equal(await stateOf('orders', 'c1'), undefined, 'back to the initial state');
  t.match((await admin('DELETE', 'state/orders/c1')).body.data, { reset: 0 }, 'resetting again is no error');
  t.match((await admin('DELETE', 'state/sessions')).body.data, { reset: 2 });
  const all = await admin('DELETE', 'state');
  t.ok(all.body.data.reset >= 1000, 'reset all');
  t.same(
    (await admin('GET', 'state')).body.data.map((m) => m.resources),
    [0, 0],
  );
});

t.test('the store holds max_store_mb: the least recently used resources are forgotten with one warning; an id larger than the whole store is refused', async (t) => {
  // about 240 KB of the store each (UTF-16 key and id): four fit in 1 MB
  const idOf = (n) => `big-${n}-`.padEnd(60_000, 'x');
  for (let n = 0; n < 12; n++) {
    const res = await send('POST', '/api/orders', { body: { order_id: idOf(n) } });
    t.equal(res.status, 201, `order ${n} created`);
  }
  const kept = (await admin('GET', 'state/orders')).body.data.resources.map((r) => r.resource_id);
  t.ok(kept.length > 0 && kept.length <= 4, `at most 1 MB of resources kept (${kept.length} of 12)`);
  t.ok(kept.includes(idOf(11)), 'the most recent is kept');
  t.notOk(kept.includes(idOf(0)), 'the least recently used was forgotten');
  t.equal((await send('GET', '/api/orders/x')).status, 200, 'the server goes on');
  const warnings = (server.stdout + server.stderr).split('\n').filter((line) => line.includes('core.stateful.max_store_mb'));
  t.equal(warnings.length, 1, 'one warning for 8 or more forgotten resources, not one each');
  t.match(warnings[0], /least recently used were forgotten .*raise core\.stateful\.max_store_mb/);

  const huge = await send('POST', '/api/orders', { body: { order_id: 'h'.padEnd(600_000, 'h') } });
  t.equal(huge.status, 413, 'an id larger than the whole store is refused');
  t.equal(huge.json?.code, 'MOCK_ERR_STATE_TOO_LARGE');
  t.match(huge.json?.detail, /orders: the request's resource id takes \d+ bytes of the state store, more than all of core\.stateful\.max_store_mb \(1\)/);
  t.ok((await admin('GET', 'state/orders')).body.data.resources.some((r) => r.resource_id === idOf(11)), 'and nothing was evicted for it');
  const afterwards = await send('POST', '/api/orders', { body: { order_id: 'small-one' } });
  t.equal(afterwards.status, 201, 'smaller ids are still taken');
  t.equal((await admin('DELETE', 'state')).status, 200);
});

t.test('bad configurations are refused with one line per key', async (t) => {
  const check = async (yaml) => {
    const bad = tmpdir();
    writeFileSync(path.join(bad, 'api.json'), JSON.stringify(api));
    writeFileSync(path.join(bad, 'mock.yaml'), `specs: [./api.json]\n${yaml}`);
    const result = await runMock(['config', 'validate'], { cwd: bad });
    t.equal(result.code, 1);
    return result.stderr.trim().split('\n').filter((line) => line.startsWith('mock.yaml: '));
  };
  const at = 'mock.yaml: core.stateful.state_machines[0]';
  // each configuration has a `mock config validate` of its own; they run side by side
  const [typo, words, zero, both, neither, malformed, segment, template, twice] = await sideBySide(
    [
      machines.replace('to_state: processing }', 'to_state: procesing }'),
      machines.replace('after: 30m', 'after: half an hour'),
      machines.replace('after: 30m', 'after: 0m'),
      machines.replace('{ from_state: processing, to_state: shipped, after: 30m }', '{ method: GET, from_state: processing, to_state: shipped, after: 30m }'),
      machines.replace('{ from_state: processing, to_state: shipped, after: 30m }', '{ from_state: processing, to_state: shipped }'),
      machines.replace('path: $.order_id', 'path: "$.order_id["'),
      machines.replace('path_pattern: /api/orders,', 'path_pattern: "/api/{orders}s",'),
      machines.replace('{{request.body.note}}', '{{randInt 5}}'),
      machines.replace('- name: sessions', '- name: orders'),
    ].map((yaml) => () => check(yaml)),
  );
  t.same(typo, [
    `${at}.transitions[1].to_state: expected a state of orders (initial, pending, processing, shipped, cancelled), got "procesing"`,
  ]);
  t.same(words, [`${at}.transitions[2].after: expected a duration such as 500ms, 30s, 10m, 1h or 2d, got "half an hour"`]);
  t.same(zero, [`${at}.transitions[2].after: expected a duration above 0, got "0m"`]);
  t.same(both, [
    `${at}.transitions[2].after: expected either after (a timed transition) or method and path_pattern (a request transition), got both`,
  ]);
  t.same(neither, [
    `${at}.transitions[2]: expected method and path_pattern (a request transition) or after (a timed one), got no method and path_pattern`,
  ]);
  t.equal(malformed.length, 1);
  t.match(malformed[0], `${at}.resource_id_extract.extractors[1].path: the JSONPath is malformed`);
  t.same(segment, [
    `${at}.transitions[0].path_pattern: path segment "{orders}s" must be plain text or one whole {param} (got "/api/{orders}s")`,
  ]);
  t.same(template, [
    `${at}.states[0].response.body_template: randInt needs two integer bounds, e.g. {{randInt 1 10}} at offset 57 (fix the {{…}} token)`,
  ]);
  t.same(twice, ['mock.yaml: core.stateful.state_machines[1].name: expected a name no other machine has, got "orders"']);
});

t.test("the ecommerce blueprint's machine end to end (mock init, mock serve)", async (t) => {
  const parent = tmpdir();
  const init = await runMock(['init', 'shop', '--blueprint', 'ecommerce'], { cwd: parent });
  t.equal(init.code, 0, 'mock init --blueprint ecommerce', { stderr: init.stderr });
  const shop = await startMock(['--admin', '--admin-port', '0'], { cwd: path.join(parent, 'shop') });
  t.teardown(() => shop.stop());
  const order = async (method, target, body) => {
    const res = await fetch(`${shop.url}/api/orders/${target}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, code: res.headers.get('x-mock-error-code'), body: await res.json() };
  };
  const tracking = { carrier: 'ups', tracking_number: '1Z999AA10123456784' };

  t.equal((await order('GET', 'ord_00000000aa')).body.status, 'pending', 'an order no step has moved comes from the description');
  const early = await order('PUT', 'ord_00000000aa/ship', tracking);
  t.equal(early.status, 409, 'a pending order cannot ship');
  t.equal(early.code, 'MOCK_ERR_STATE_CONFLICT');
  t.same(
    early.body.allowed_transitions.map((tr) => `${tr.method} ${tr.path_pattern} → ${tr.to_state}`),
    ['PUT /api/orders/{order_id}/process → processing', 'POST /api/orders/{order_id}/cancel → cancelled'],
  );
  const processing = await order('PUT', 'ord_00000000aa/process');
  t.equal(processing.status, 200);
  t.match(processing.body, { order_id: 'ord_00000000aa', status: 'processing', total: { amount: '29.80' } }, 'the order in its new state');
  t.match((await order('GET', 'ord_00000000aa')).body, { order_id: 'ord_00000000aa', status: 'processing' });
  const shipped = await order('PUT', 'ord_00000000aa/ship', tracking);
  t.match(shipped.body, { status: 'shipped', tracking });
  const late = await order('POST', 'ord_00000000aa/cancel');
  t.equal(late.status, 409, 'shipped orders stay shipped');
  t.match(late.body, { current_state: 'shipped' });
  t.match((await order('GET', 'ord_00000000aa')).body, { status: 'shipped' });
  const scenario = await fetch(`${shop.url}/api/orders/ord_00000000aa`, { headers: { 'x-mock-scenario': 'not-found' } });
  t.equal(scenario.status, 404, "a custom route's answer wins over the machine");

  t.match((await order('POST', 'ord_00000000bb/cancel', { reason: 'changed_mind' })).body, { order_id: 'ord_00000000bb', status: 'cancelled' });
  t.match((await order('GET', 'ord_00000000bb')).body, { status: 'cancelled' });
  t.equal((await order('PUT', 'NOT-AN-ORDER/process')).status, 400, 'the description refuses a malformed id first');
  const { data } = await (await fetch(`${shop.adminUrl}/__mock/state/order_lifecycle`)).json();
  t.same(
    data.resources.map((r) => [r.resource_id, r.state]),
    [
      ['ord_00000000aa', 'shipped'],
      ['ord_00000000bb', 'cancelled'],
    ],
  );
});

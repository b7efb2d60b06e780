// runtime/chain/mocks: the admin API's CRUD over mocks, defaults, and the 400/404/409 answers.
import t from 'tap';
import { Exchange } from '../../../dist/runtime/chain/exchange/index.js';
import { MockStore } from '../../../dist/runtime/chain/mocks/index.js';

const users = { method: 'get', path: '/users', response: { body: [{ id: 1 }] } };

t.test('create fills defaults and toJSON gives exactly the wire shape', async (t) => {
  const store = new MockStore();
  const created = store.create(users);
  t.equal(created.ok, true);
  const { mock } = created;
  t.match(mock.id, /^[0-9a-f-]{36}$/, 'a generated id');
  t.same(JSON.parse(JSON.stringify(mock)), {
    id: mock.id,
    name: 'GET /users',
    method: 'GET',
    path: '/users',
    response: { body: [{ id: 1 }] },
    enabled: true,
    status_code: 200,
    priority: 0,
  });
  t.same(mock.route, { key: 'GET /users', id: 'mock GET /users', method: 'GET', path: '/users' });
  t.equal(mock.route, mock.route, 'one RouteRef per mock');
  t.equal(mock.latency_ms, undefined);
});

t.test('optional fields are echoed when set', async (t) => {
  const store = new MockStore();
  const input = {
    id: 'slow-user',
    name: 'slow user',
    method: 'ANY',
    path: '/users/{id}',
    response: { body: 'hi', headers: { 'X-Trace': 'abc' } },
    enabled: false,
    status_code: 201,
    priority: 5,
    latency_ms: 250,
    match_headers: { 'X-Tenant': 'acme|beta' },
    match_query: { page: '\\d+' },
  };
  const { mock } = store.create(input);
  t.same(mock.toJSON(), input);
  t.equal(mock.latency_ms, 250);
  t.equal(mock.route.key, 'ANY /users/{id}');
});

t.test('the input is copied: changing it afterwards changes nothing', async (t) => {
  const store = new MockStore();
  const input = { id: 'a', method: 'GET', path: '/a', response: { body: { n: 1 } } };
  store.create(input);
  input.response.body.n = 2;
  t.same(store.get('a').toJSON().response.body, { n: 1 });
});

t.test('list, get, delete, clear, size and enabledCount', async (t) => {
  const store = new MockStore();
  t.equal(store.size, 0);
  store.create({ ...users, id: 'one' });
  store.create({ ...users, id: 'two', enabled: false });
  store.create({ ...users, id: 'three' });
  t.same(store.list().map((m) => m.id), ['one', 'two', 'three'], 'creation order');
  t.equal(store.size, 3);
  t.equal(store.enabledCount, 2);
  t.equal(store.get('two').enabled, false);
  t.equal(store.get('nope'), undefined);
  t.equal(store.delete('one'), true);
  t.equal(store.delete('one'), false);
  t.equal(store.enabledCount, 1);
  t.equal(store.clear(), 2);
  t.equal(store.size, 0);
  t.equal(store.enabledCount, 0);
  t.equal(store.match(new Exchange({ method: 'GET', path: '/users', headers: {} })), undefined);
});

t.test('409 for an id that exists', async (t) => {
  const store = new MockStore();
  store.create({ ...users, id: 'x' });
  t.same(store.create({ ...users, id: 'x' }), {
    ok: false,
    status: 409,
    error: 'a mock with id "x" already exists; replace it with PUT or choose another id',
  });
  t.equal(store.size, 1);
});

t.test('replace: full replacement, the path id wins, place and age kept', async (t) => {
  const store = new MockStore();
  store.create({ ...users, id: 'a' });
  store.create({ ...users, id: 'b' });
  const replaced = store.replace('a', { id: 'other', method: 'POST', path: '/orders', response: { body: 'ok' }, enabled: false });
  t.equal(replaced.ok, true);
  t.same(replaced.mock.toJSON(), { id: 'a', name: 'POST /orders', method: 'POST', path: '/orders', response: { body: 'ok' }, enabled: false, status_code: 200, priority: 0 });
  t.same(store.list().map((m) => m.id), ['a', 'b']);
  t.equal(store.get('other'), undefined);
  t.equal(store.enabledCount, 1);
  t.equal(store.match(new Exchange({ method: 'GET', path: '/users', headers: {} })).mock.id, 'b', 'the old a no longer matches');

  t.same(store.replace('missing', users), { ok: false, status: 404, error: 'no mock has id "missing"' });
  t.same(store.replace('a', { method: 'GET', path: 'nope', response: {} }), { ok: false, status: 400, error: 'path must start with / (got "nope")' });
  t.equal(store.get('a').method, 'POST', 'an invalid replacement keeps the mock');
});

t.test('validation errors name the field', async (t) => {
  const cases = [
    [[], 'the mock must be an object (got [])'],
    [{ path: '/a', response: {} }, 'method is required'],
    [{ method: 'GET', response: {} }, 'path is required'],
    [{ method: 'GET', path: '/a' }, 'response is required'],
    [{ method: 'GET', path: 'users', response: {} }, 'path must start with / (got "users")'],
    [{ method: 'GET', path: '/a?b=1', response: {} }, 'path must not hold a query string or fragment (got "/a?b=1"); use match_query for query conditions'],
    [{ method: 'GET', path: '/files/{id}.json', response: {} }, 'path segment "{id}.json" must be plain text or one whole {param} (got "/files/{id}.json")'],
    [{ method: 'GET', path: '/a/{id}/b/{id}', response: {} }, 'path names the parameter {id} twice (got "/a/{id}/b/{id}")'],
    [{ method: 'FETCH', path: '/a', response: {} }, 'method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, ANY (got "FETCH")'],
    [{ method: 'GET', path: '/a', response: {}, statusCode: 201 }, 'statusCode is not a known field (did you mean status_code?); known fields: id, name, method, path, response, enabled, status_code, priority, latency_ms, match_headers, match_query, match_json_path'],
    [{ method: 'GET', path: '/a', response: { status: 201 } }, 'response.status is not a known field; known fields: body, headers'],
    [{ method: 'GET', path: '/a', response: {}, status_code: 99 }, 'status_code must be at least 100 (got 99)'],
    [{ method: 'GET', path: '/a', response: {}, status_code: 600 }, 'status_code must be at most 599 (got 600)'],
    [{ method: 'GET', path: '/a', response: {}, status_code: '200' }, 'status_code must be an integer (got "200")'],
    [{ method: 'GET', path: '/a', response: {}, latency_ms: -1 }, 'latency_ms must be at least 0 (got -1)'],
    [{ method: 'GET', path: '/a', response: {}, priority: 1.5 }, 'priority must be an integer (got 1.5)'],
    [{ method: 'GET', path: '/a', response: {}, enabled: 'yes' }, 'enabled must be a boolean (got "yes")'],
    [{ method: 'GET', path: '/a', response: {}, id: '' }, 'id must not be empty'],
    [{ method: 'GET', path: '/a', response: {}, id: 'a/b' }, 'id may only hold letters, digits, ".", "_", "~" and "-" (got "a/b")'],
    [{ method: 'GET', path: '/a', response: { headers: { 'X-Count': 5 } } }, 'response.headers.X-Count must be a string (got 5)'],
    [{ method: 'GET', path: '/a', response: {}, match_headers: { 'x-tenant': '(acme' } }, /^match_headers\.x-tenant: the pattern "\(acme" is not a valid pattern: missing closing \)/],
    [{ method: 'GET', path: '/a', response: {}, match_query: { page: '[' } }, /^match_query\.page: the pattern "\[" is not a valid pattern: missing closing \]/],
    [{ method: 'GET', path: '/a', response: {}, match_headers: { 'x-r': '(a)\\1' } }, /^match_headers\.x-r: the pattern "\(a\)\\\\1" uses a backreference \(\\1\), which cannot be matched in linear time/],
    [{ method: 'GET', path: '/a', response: {}, match_query: { q: '(?<=a)b' } }, /^match_query\.q: the pattern "\(\?<=a\)b" uses a lookbehind/],
    [{ method: 'GET', path: '/a', response: { body: { a: '{{#if x}}' } } }, "response.body has a template error: unknown value 'x' in {{#if x}} at offset 6 (fix the {{…}} token)"],
    [{ method: 'GET', path: '/a', response: { body: 'x', headers: { 'X-Id': '{{#if (eq request.query.a "1")}}' } } }, /^response\.headers\.X-Id has a template error: .* \(fix the \{\{…\}\} token\)$/],
  ];
  const store = new MockStore();
  for (const [input, error] of cases) {
    const result = store.create(input);
    t.equal(result.ok, false, JSON.stringify(input));
    t.equal(result.status, 400);
    if (error instanceof RegExp) t.match(result.error, error);
    else t.equal(result.error, error);
  }
  t.equal(store.size, 0);
});

t.test('admin.limits: at most maxMocks mocks (409), each at most maxMockBytes of JSON (413)', async (t) => {
  const store = new MockStore({ maxMocks: 2, maxMockBytes: 200 });
  const at = (i) => ({ id: `m${i}`, method: 'GET', path: `/m/${i}`, response: { body: i } });
  t.equal(store.create(at(1)).ok, true);
  t.equal(store.create(at(2)).ok, true);
  t.match(store.create(at(3)), { ok: false, status: 409, error: /already 2 runtime mocks, the most admin\.limits\.max_mocks allows; delete some .* or raise admin\.limits\.max_mocks in mock\.yaml/ });
  t.equal(store.replace('m1', at(1)).ok, true, 'a replacement is not one more');
  const big = { ...at(1), response: { body: 'x'.repeat(300) } };
  t.match(store.replace('m1', big), { ok: false, status: 413, error: /is 3\d\d bytes of JSON, more than admin\.limits\.max_mock_bytes \(200\); make its response body smaller or raise/ });
  t.match(store.replace('m1', at(1), 201), { ok: false, status: 413 }, 'the size given (the body as sent) counts');
  store.delete('m2');
  t.match(store.create(big), { ok: false, status: 413 });
  t.equal(store.refusal(200, true), undefined, 'room for one more of 200 bytes');
  t.equal(store.size, 1);
  t.same(new MockStore().limits, { maxMocks: 1000, maxMockBytes: 1024 * 1024 }, "the configuration's defaults");
});

t.test('onForget: a route key no mock uses any more, after delete, replace and clear', async (t) => {
  const store = new MockStore();
  const forgotten = [];
  store.onForget((route) => forgotten.push(route.key));
  store.create({ id: 'a', method: 'GET', path: '/x', response: {} });
  store.create({ id: 'b', method: 'GET', path: '/x', response: {} });
  store.create({ id: 'c', method: 'GET', path: '/y', response: {} });
  store.delete('a');
  t.same(forgotten, [], 'b still has GET /x');
  store.replace('b', { method: 'GET', path: '/z', response: {} });
  t.same(forgotten, ['GET /x'], 'its replacement moved to GET /z');
  store.replace('c', { method: 'GET', path: '/y', response: { body: 1 } });
  t.same(forgotten, ['GET /x'], 'a replacement on the same key forgets nothing');
  store.clear();
  t.same(forgotten.sort(), ['GET /x', 'GET /y', 'GET /z']);
});

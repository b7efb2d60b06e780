// compiler/ir/custom-routes.ts: mock.yaml `http.routes` validated and lowered.
import t from 'tap';
import { lowerCustomRoutes } from '../../dist/compiler/ir/custom-routes.js';

t.test('defaults: any method, status 200, empty headers', (t) => {
  t.same(lowerCustomRoutes([{ path: '/a' }]), [
    { index: 0, method: '*', path: '/a', match: { query: undefined, headers: undefined, body: undefined }, response: { status: 200, headers: {}, body: undefined, contentType: undefined } },
  ]);
  t.same(lowerCustomRoutes([]), []);
  t.end();
});

t.test('a full entry: method upper-cased, header names lower-cased, values stringified', (t) => {
  const [route] = lowerCustomRoutes([
    {
      path: '/pets/{id}',
      method: 'post',
      match: { query: { n: 1, flag: true }, headers: { 'X-Tenant': 'acme' }, body: { kind: 'cat', tags: [1] } },
      response: { status: 201, headers: { 'X-Id': 7, Location: '/pets/{{path.id}}' }, body: { ok: true }, content_type: 'application/vnd.x+json' },
    },
  ]);
  t.same(route, {
    index: 0,
    method: 'POST',
    path: '/pets/{id}',
    match: { query: { n: '1', flag: 'true' }, headers: { 'x-tenant': 'acme' }, body: { kind: 'cat', tags: [1] } },
    response: { status: 201, headers: { 'x-id': '7', location: '/pets/{{path.id}}' }, body: { ok: true }, contentType: 'application/vnd.x+json' },
  });
  t.end();
});

t.test('order and index are kept (first match wins)', (t) => {
  const routes = lowerCustomRoutes([{ path: '/b' }, { path: '/a', method: '*' }, { path: '/a', method: 'TRACE' }]);
  t.same(routes.map((r) => [r.index, r.method, r.path]), [[0, '*', '/b'], [1, '*', '/a'], [2, 'TRACE', '/a']]);
  for (const method of ['GET', 'put', 'Delete', 'OPTIONS', 'head', 'patch']) t.doesNotThrow(() => lowerCustomRoutes([{ path: '/', method }]), method);
  t.same(lowerCustomRoutes([{ path: '/', response: { status: 100 } }, { path: '/', response: { status: 599 } }]).map((r) => r.response.status), [100, 599]);
  t.end();
});

t.test('invalid entries are MOCK_ERR_CONFIG_INVALID naming the field', (t) => {
  const bad = (entry, message, index = 0, before = []) =>
    t.throws(() => lowerCustomRoutes([...before, entry]), { name: 'MockError', code: 'MOCK_ERR_CONFIG_INVALID', message: `mock.yaml: http.routes[${index}]${message}` }, JSON.stringify(entry));
  for (const entry of [null, 'x', [], 3]) bad(entry, ': expected an object with "path"');
  bad({}, '.path: expected a path starting with "/", got undefined');
  bad({ path: 'pets' }, '.path: expected a path starting with "/", got "pets"');
  bad({ path: 5 }, '.path: expected a path starting with "/", got 5');
  bad({ path: '/a', method: 'fetch' }, '.method: expected an HTTP method or "*", got "fetch"');
  bad({ path: '/a', method: null }, '.method: expected an HTTP method or "*", got null');
  bad({ path: '/a', method: 'CONNECT' }, '.method: expected an HTTP method or "*", got "CONNECT"');
  bad({ path: '/a', response: { status: 99 } }, '.response.status: expected an HTTP status between 100 and 599, got 99');
  bad({ path: '/a', response: { status: 600 } }, '.response.status: expected an HTTP status between 100 and 599, got 600');
  bad({ path: '/a', response: { status: '200' } }, '.response.status: expected an HTTP status between 100 and 599, got "200"');
  bad({ path: '/a', response: { status: 200.5 } }, '.response.status: expected an HTTP status between 100 and 599, got 200.5');
  bad({ path: '/a', match: { query: ['a'] } }, '.match.query: expected a map of names to strings');
  bad({ path: '/a', match: { headers: 'x' } }, '.match.headers: expected a map of names to strings');
  bad({ path: '/a', response: { headers: null } }, '.response.headers: expected a map of names to strings');
  bad({ path: 'nope' }, '.path: expected a path starting with "/", got "nope"', 1, [{ path: '/ok' }]);
  t.end();
});

t.test('match/response that are not objects are rejected', (t) => {
  // custom-routes.ts:15-16 casts `match`/`response` without checking: `match: "x"` silently matches everything.
  t.throws(() => lowerCustomRoutes([{ path: '/a', match: 'x' }]), { code: 'MOCK_ERR_CONFIG_INVALID' }, 'match: "x"');
  t.throws(() => lowerCustomRoutes([{ path: '/a', response: 'hello' }]), { code: 'MOCK_ERR_CONFIG_INVALID' }, 'response: "hello"');
  t.end();
});

t.test('/regex/ condition values are checked at build time', (t) => {
  // runtime/terminal/openapi/route-conditions.ts compiles `/…/` values with new RegExp when the server starts;
  // lowerCustomRoutes passes them through, so a typo surfaces as a raw SyntaxError from `mock serve`.
  t.doesNotThrow(() => lowerCustomRoutes([{ path: '/a', match: { query: { q: '/^[0-9]+$/i' } } }]));
  for (const bad of ['/[a-/', '/abc/z']) {
    t.throws(() => lowerCustomRoutes([{ path: '/a', match: { query: { q: bad } } }]), { code: 'MOCK_ERR_CONFIG_INVALID' }, bad);
  }
  t.end();
});

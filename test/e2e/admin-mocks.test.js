// Runtime mocks, override rules and the live request chain (faults, mocks, proxy) of `mock serve`,
// driven over the admin API and the management router of the HTTP server.
import t from 'tap';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { corpus, root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const PETSTORE = path.join(root, 'examples/petstore.yaml');
// a description from the corpus, mounted under /v2 (its server URL is https://petstore.swagger.io/v2)
const EXPANDED = path.join(corpus, 'openapi/oai-v3.0-petstore-expanded.yaml');
const TOM = { id: 1, name: 'Tom', kind: 'cat', tag: 'grumpy', owner: { email: 'tom@example.com' }, created_at: '2024-01-01T00:00:00Z' };

// One build folder for every server of this file: the petstore is built once.
const OUT = tmpdir();
const ENV_RULES = [{ name: 'env-teapot', match: { method: 'GET', path: '/v2/pets/7' }, status: 418, headers: { 'x-from': 'env' }, merge: { overridden: true } }];
const [server, plain] = await Promise.all([
  // Server A: the example petstore, admin on its own port, template expansion on.
  startMock(['--spec', PETSTORE, '--seed', '7', '--out', OUT, '--admin', '--admin-port', '0', '--response-template-expand']),
  // Server B: a corpus description, template expansion off, an override rule from MOCK_HTTP_OVERRIDES.
  // Nothing may talk to it before the "applies from the first request" test.
  startMock(['--spec', EXPANDED, '--seed', '3', '--out', OUT, '--admin', '--admin-port', '0'], { env: { MOCK_HTTP_OVERRIDES: JSON.stringify(ENV_RULES) } }),
]);
t.teardown(() => Promise.all([server.stop(), plain.stop()]));

/** One request; the body is parsed as JSON when it says so. */
async function call(url, { method = 'GET', body, headers = {}, raw } = {}) {
  const init = { method, headers: { ...headers } };
  if (raw !== undefined) {
    init.body = raw;
    init.headers['content-type'] ??= 'application/json';
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['content-type'] ??= 'application/json';
  }
  const started = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  const elapsed = performance.now() - started;
  const type = res.headers.get('content-type') ?? '';
  let json;
  if (/json/.test(type) && text !== '') json = JSON.parse(text);
  return { status: res.status, headers: res.headers, type, text, json, elapsed };
}

/** Checks the admin envelope of a failure and returns its error. */
function failed(t, res, status, pattern, what) {
  t.equal(res.status, status, `${what}: status ${status}`);
  t.match(res.type, /^application\/json/, `${what}: JSON envelope`);
  t.equal(res.json?.success, false, `${what}: success false`);
  t.equal(res.json?.data, null, `${what}: data null`);
  t.type(res.json?.error, 'string', `${what}: error is a string`);
  t.match(res.json?.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, `${what}: timestamp`);
  if (pattern) t.match(res.json?.error, pattern, `${what}: error says why`);
  return res.json?.error;
}

function succeeded(t, res, status, what) {
  t.equal(res.status, status, `${what}: status ${status} (${res.text.slice(0, 300)})`);
  t.equal(res.json?.success, true, `${what}: success true`);
  t.equal(res.json?.error, null, `${what}: error null`);
  return res.json?.data;
}

/** Runtime state back to the start: no mocks, no overrides, no faults, no proxy, no latency. */
async function reset(s) {
  const admin = s.adminUrl + '/__mock';
  const results = await Promise.all([
    call(admin + '/api/mocks', { method: 'DELETE' }),
    call(admin + '/overrides', { method: 'PUT', body: [] }),
    call(admin + '/config/faults', { method: 'POST', body: { enabled: false } }),
    call(admin + '/config/proxy', { method: 'POST', body: { enabled: false } }),
    call(admin + '/config/latency', { method: 'POST', body: { enabled: false } }),
  ]);
  for (const r of results) if (r.status !== 200) throw new Error(`reset failed: ${r.status} ${r.text}`);
}

const A = (p) => server.url + p;
const adminA = (p) => server.adminUrl + '/__mock' + p;

// ---------------------------------------------------------------------------------------------
// Server B first: the environment's override rule must hold from the very first request.

t.test('MOCK_HTTP_OVERRIDES applies from the first request', async (t) => {
  const first = await call(plain.url + '/v2/pets/7');
  t.equal(first.status, 418, 'the very first request is overridden');
  t.equal(first.headers.get('x-from'), 'env');
  t.equal(first.json.overridden, true, 'merge patch applied to the generated pet');
  t.type(first.json.name, 'string', 'the generated body is kept under the merge');
  const other = await call(plain.url + '/v2/pets/8');
  t.equal(other.status, 200, 'a path the rule does not match is untouched');
  t.equal(other.headers.get('x-from'), null);
  const post = await call(plain.url + '/v2/pets/7', { method: 'DELETE' });
  t.not(post.status, 418, 'the rule is for GET only');
  const listed = succeeded(t, await call(plain.adminUrl + '/__mock/overrides'), 200, 'GET overrides');
  t.same(listed, [{ ...ENV_RULES[0], enabled: true }], 'GET lists the startup rule with defaults filled in');
});

t.test('a corpus description: a runtime mock replaces a generated answer, tokens stay literal without --response-template-expand', async (t) => {
  const before = await call(plain.url + '/v2/pets/5');
  t.equal(before.status, 200);
  t.type(before.json.name, 'string', 'generated from the description');
  const created = succeeded(
    t,
    await call(plain.url + '/__mock/mocks', {
      method: 'POST',
      body: { method: 'GET', path: '/v2/pets/{id}', response: { body: { id: '{{request.path.id}}', at: '{{now}}' }, headers: { 'x-id': '{{request.path.id}}' } } },
    }),
    201,
    'POST /__mock/mocks on the HTTP server',
  );
  t.ok(created.id);
  const res = await call(plain.url + '/v2/pets/5');
  t.equal(res.status, 200);
  t.same(res.json, { id: '{{request.path.id}}', at: '{{now}}' }, 'template tokens are served literally while expansion is off');
  t.equal(res.headers.get('x-id'), '{{request.path.id}}', 'header templates too');
  const removed = succeeded(t, await call(plain.url + '/__mock/mocks/' + created.id, { method: 'DELETE' }), 200, 'DELETE');
  t.equal(removed.id, created.id);
  const after = await call(plain.url + '/v2/pets/5');
  t.type(after.json.name, 'string', 'the description answers again');
  t.not(after.json.id, '{{request.path.id}}');
});

// ---------------------------------------------------------------------------------------------
// Runtime mocks CRUD (server A), on the admin port and on the HTTP server's management router.

async function crud(t, base, other) {
  await reset(server);
  t.same(succeeded(t, await call(base), 200, 'list'), [], 'no mocks at first');

  const baseline = await call(A('/v1/pets/1'));
  t.same(baseline.json, TOM, 'the description answers first');

  const created = succeeded(t, await call(base, { method: 'POST', body: { method: 'get', path: '/v1/pets/{id}', response: { body: { source: 'runtime', n: 1 } } } }), 201, 'POST');
  t.match(created.id, /^[A-Za-z0-9._~-]+$/, 'an id is generated');
  t.ok(created.id.length >= 8, 'a real id, not an empty string');
  t.equal(created.method, 'GET', 'method upper-cased');
  t.equal(created.path, '/v1/pets/{id}');
  t.equal(created.enabled, true, 'enabled defaults to true');
  t.equal(created.status_code, 200, 'status_code defaults to 200');
  t.equal(created.priority, 0, 'priority defaults to 0');
  t.equal(created.name, 'GET /v1/pets/{id}', 'name defaults to METHOD path');
  t.same(created.response, { body: { source: 'runtime', n: 1 } });

  for (const id of [1, 99, 123456]) {
    const res = await call(A(`/v1/pets/${id}`));
    t.equal(res.status, 200);
    t.same(res.json, { source: 'runtime', n: 1 }, `served at once instead of the description (/v1/pets/${id})`);
  }
  const head = await call(A('/v1/pets/1'), { method: 'HEAD' });
  t.equal(head.status, 200, 'a GET mock also answers HEAD');
  t.equal(head.text, '');
  const del = await call(A('/v1/pets/1'), { method: 'DELETE' });
  t.equal(del.status, 204, 'other methods of the path still reach the description');

  const list = succeeded(t, await call(base), 200, 'list');
  t.same(list, [created], 'GET lists the mock as created');
  t.same(succeeded(t, await call(`${base}/${created.id}`), 200, 'GET one'), created, 'GET one');
  t.same(succeeded(t, await call(other), 200, 'list on the other surface'), [created], 'both surfaces share one store');

  const replaced = succeeded(
    t,
    await call(`${base}/${created.id}`, { method: 'PUT', body: { method: 'GET', path: '/v1/pets/{id}', response: { body: { source: 'runtime', n: 2 } }, status_code: 202 } }),
    200,
    'PUT one',
  );
  t.equal(replaced.id, created.id, 'PUT keeps the id');
  t.equal(replaced.status_code, 202);
  let res = await call(A('/v1/pets/1'));
  t.equal(res.status, 202, 'the replacement is served');
  t.same(res.json, { source: 'runtime', n: 2 });

  const renamed = succeeded(
    t,
    await call(`${base}/${created.id}`, { method: 'PUT', body: { id: 'another-id', method: 'GET', path: '/v1/pets/{id}', response: { body: { source: 'runtime', n: 2 } }, status_code: 202 } }),
    200,
    'PUT one with another id in the body',
  );
  t.equal(renamed.id, created.id, 'the id of the path wins over one in the body');
  failed(t, await call(`${base}/another-id`), 404, null, 'no mock under the id of the body');

  succeeded(
    t,
    await call(base, { method: 'PUT', body: { id: created.id, method: 'GET', path: '/v1/pets/{id}', response: { body: { source: 'runtime', n: 3 } } } }),
    200,
    'PUT on the collection with the id in the body',
  );
  res = await call(A('/v1/pets/1'));
  t.equal(res.status, 200, 'status_code back to its default: PUT replaces the whole record');
  t.same(res.json, { source: 'runtime', n: 3 });
  t.equal(succeeded(t, await call(base), 200, 'list').length, 1, 'PUT did not add a mock');

  failed(t, await call(base, { method: 'PUT', body: { method: 'GET', path: '/x', response: {} } }), 400, /id/, 'PUT on the collection without an id');
  failed(t, await call(`${base}/no-such-mock`, { method: 'PUT', body: { method: 'GET', path: '/x', response: {} } }), 404, /no-such-mock/, 'PUT unknown id');
  failed(t, await call(base, { method: 'PUT', body: { id: 'no-such-mock', method: 'GET', path: '/x', response: {} } }), 404, /no-such-mock/, 'PUT collection, unknown id');
  failed(t, await call(`${base}/no-such-mock`), 404, /no-such-mock/, 'GET unknown id');
  failed(t, await call(`${base}/no-such-mock`, { method: 'DELETE' }), 404, /no-such-mock/, 'DELETE unknown id');

  const deleted = succeeded(t, await call(`${base}/${created.id}`, { method: 'DELETE' }), 200, 'DELETE one');
  t.equal(deleted.id, created.id, 'DELETE answers the deleted mock');
  res = await call(A('/v1/pets/1'));
  t.same(res.json, TOM, 'the description answers again');
  failed(t, await call(`${base}/${created.id}`), 404, null, 'GET the deleted mock');

  for (const n of [1, 2, 3]) {
    succeeded(t, await call(base, { method: 'POST', body: { id: `bulk-${n}`, method: 'GET', path: `/bulk/${n}`, response: { body: n } } }), 201, `POST bulk-${n}`);
  }
  t.equal((await call(A('/bulk/2'))).json, 2);
  const deletedOne = succeeded(t, await call(`${base}?id=bulk-2`, { method: 'DELETE' }), 200, 'DELETE on the collection with ?id=');
  t.equal(deletedOne.id, 'bulk-2');
  const cleared = succeeded(t, await call(base, { method: 'DELETE' }), 200, 'DELETE collection');
  t.equal(cleared.deleted_count, 2, 'deleted_count');
  t.same(succeeded(t, await call(base), 200, 'list'), [], 'nothing left');
  t.equal((await call(A('/bulk/1'))).status, 404, 'the deleted mocks are gone from traffic');
}

t.test('mocks CRUD on the admin port (/__mock/api/mocks)', (t) => crud(t, adminA('/api/mocks'), A('/__mock/mocks')));
t.test('mocks CRUD on the HTTP server management router (/__mock/mocks)', (t) => crud(t, A('/__mock/mocks'), adminA('/api/mocks')));
t.test('mocks CRUD on the HTTP server under /__mock/api/mocks too', (t) => crud(t, A('/__mock/api/mocks'), adminA('/mocks')));

t.test('invalid mock input is a 400 naming the field, a taken id a 409, never a 500', async (t) => {
  await reset(server);
  const ok = { method: 'GET', path: '/v1/valid', response: { body: 'ok' } };
  const cases = [
    ['path without a leading /', { ...ok, path: 'v1/x' }, /path/],
    ['unknown method', { ...ok, method: 'FETCH' }, /method/],
    ['method not a string', { ...ok, method: 7 }, /method/],
    ['status_code 99', { ...ok, status_code: 99 }, /status_code/],
    ['status_code 600', { ...ok, status_code: 600 }, /status_code/],
    ['status_code not an integer', { ...ok, status_code: '200' }, /status_code/],
    ['invalid regex in match_headers', { ...ok, match_headers: { 'x-tenant': '(unclosed' } }, /match_headers/],
    ['invalid regex in match_query', { ...ok, match_query: { q: '[a-' } }, /match_query/],
    ['match_headers value neither a string nor a condition', { ...ok, match_headers: { 'x-tenant': [1] } }, /match_headers/],
    ['match_headers condition of an unknown kind', { ...ok, match_headers: { 'x-tenant': { regex: 'a' } } }, /match_headers\.x-tenant: must be exactly one of/],
    ['malformed JSONPath in match_json_path', { ...ok, match_json_path: { '$.a[': 'x' } }, /match_json_path\["\$\.a\["\]: the JSONPath is malformed: unclosed bracketed selection/],
    ['unknown field', { ...ok, colour: 'blue' }, /colour/],
    ['unknown field in response', { ...ok, response: { body: 1, status: 201 } }, /status|response/],
    ['missing path', { method: 'GET', response: {} }, /path/],
    ['missing method', { path: '/x', response: {} }, /method/],
    ['missing response', { method: 'GET', path: '/x' }, /response/],
    ['response headers not strings', { ...ok, response: { headers: { 'x-a': 1 } } }, /headers/],
    ['negative latency_ms', { ...ok, latency_ms: -1 }, /latency_ms/],
    ['fractional priority', { ...ok, priority: 1.5 }, /priority/],
    ['enabled not a boolean', { ...ok, enabled: 'yes' }, /enabled/],
    ['id with a slash', { ...ok, id: 'a/b' }, /id/],
    ['empty id', { ...ok, id: '' }, /id/],
  ];
  for (const [what, body, pattern] of cases) {
    for (const base of [adminA('/api/mocks'), A('/__mock/mocks')]) {
      failed(t, await call(base, { method: 'POST', body }), 400, pattern, `${what} (${base.startsWith(server.adminUrl) ? 'admin' : 'http'})`);
    }
  }
  for (const raw of ['{"method": "GET", ', 'not json', '[1, 2', '']) {
    const error = failed(t, await call(adminA('/api/mocks'), { method: 'POST', raw }), 400, null, `malformed body ${JSON.stringify(raw)}`);
    if (raw !== '') t.match(error, /JSON/, 'says the body is not JSON');
  }
  for (const raw of ['[]', '"a string"', 'null', '42']) {
    failed(t, await call(A('/__mock/mocks'), { method: 'POST', raw }), 400, null, `a body that is not an object: ${raw}`);
  }
  t.same(succeeded(t, await call(adminA('/api/mocks')), 200, 'list'), [], 'no invalid input created a mock');

  succeeded(t, await call(adminA('/api/mocks'), { method: 'POST', body: { ...ok, id: 'taken' } }), 201, 'POST with an id');
  failed(t, await call(adminA('/api/mocks'), { method: 'POST', body: { ...ok, id: 'taken', path: '/v1/other' } }), 409, /taken/, 'duplicate id on the admin port');
  failed(t, await call(A('/__mock/mocks'), { method: 'POST', body: { ...ok, id: 'taken' } }), 409, /taken/, 'duplicate id on the management router');

  // an invalid replacement changes nothing
  failed(t, await call(adminA('/api/mocks/taken'), { method: 'PUT', body: { ...ok, status_code: 99 } }), 400, /status_code/, 'invalid PUT');
  failed(t, await call(adminA('/api/mocks/taken'), { method: 'PUT', raw: '{oops' }), 400, /JSON/, 'malformed PUT');
  const still = await call(A('/v1/valid'));
  t.equal(still.status, 200);
  t.equal(still.text, 'ok', 'the previous mock is still served');

  failed(t, await call(adminA('/api/mocks/%E0%A4%A'), { method: 'GET' }), 400, null, 'malformed percent-encoding in the id');
  const wrongMethod = await call(adminA('/api/mocks/taken'), { method: 'POST', body: ok });
  t.equal(wrongMethod.status, 405, 'POST on one mock is a 405');
  t.match(wrongMethod.headers.get('allow'), /GET/);
});

// ---------------------------------------------------------------------------------------------
// Matching.

const mock = async (t, body) => succeeded(t, await call(adminA('/api/mocks'), { method: 'POST', body }), 201, `POST ${body.id ?? body.path}`);

t.test('match_headers and match_query (whole-value regexes) pick between mocks on one path', async (t) => {
  await reset(server);
  await mock(t, { id: 'by-header', method: 'GET', path: '/v1/pets/{id}', match_headers: { 'X-Tenant': 'a|b' }, response: { body: 'header' } });
  await mock(t, { id: 'by-query', method: 'GET', path: '/v1/pets/{id}', match_query: { mode: 'fast|quick' }, response: { body: 'query' } });
  await mock(t, { id: 'fallback', method: 'GET', path: '/v1/pets/{id}', response: { body: 'plain' } });
  const text = async (p, headers) => (await call(A(p), { headers })).text;
  t.equal(await text('/v1/pets/1'), 'plain', 'no condition met: the unconditional mock');
  t.equal(await text('/v1/pets/1', { 'x-tenant': 'a' }), 'header');
  t.equal(await text('/v1/pets/1', { 'X-TENANT': 'b' }), 'header', 'header names are case-insensitive');
  t.equal(await text('/v1/pets/1', { 'x-tenant': 'ab' }), 'plain', 'the regex must match the whole value, not a part');
  t.equal(await text('/v1/pets/1', { 'x-tenant': 'xa' }), 'plain', 'no partial match at the end either');
  t.equal(await text('/v1/pets/1?mode=fast'), 'query');
  t.equal(await text('/v1/pets/1?mode=faster'), 'plain', 'query regexes match whole values');
  t.equal(await text('/v1/pets/1?mode=slow&mode=quick'), 'query', 'any one of repeated values');
  t.equal(await text('/v1/pets/1?mode=fast', { 'x-tenant': 'a' }), 'query', 'query conditions rank above header conditions');

  await reset(server);
  await mock(t, { id: 'fallback', method: 'GET', path: '/v1/pets/{id}', response: { body: 'no-description' }, match_query: { never: 'x' } });
  const unmatched = await call(A('/v1/pets/1'));
  t.same(unmatched.json, TOM, 'a mock whose conditions fail leaves the request to the description');
  await mock(t, { method: 'GET', path: '/v1/optional', match_headers: { 'x-opt': '.*' }, response: { body: 'present' } });
  t.equal((await call(A('/v1/optional'))).status, 404, 'a header condition needs the header, even when the pattern matches empty text');
  t.equal((await call(A('/v1/optional'), { headers: { 'x-opt': '' } })).text, 'present', 'an empty header value is present');
});

t.test('priority wins, then static segments; disabled mocks are ignored', async (t) => {
  await reset(server);
  await mock(t, { id: 'param', method: 'GET', path: '/v1/pets/{id}', response: { body: 'param' } });
  await mock(t, { id: 'static', method: 'GET', path: '/v1/pets/1', response: { body: 'static' } });
  t.equal((await call(A('/v1/pets/1'))).text, 'static', 'equal priority: the static path wins');
  t.equal((await call(A('/v1/pets/2'))).text, 'param');
  succeeded(t, await call(adminA('/api/mocks/param'), { method: 'PUT', body: { method: 'GET', path: '/v1/pets/{id}', priority: 10, response: { body: 'param' } } }), 200, 'raise priority');
  t.equal((await call(A('/v1/pets/1'))).text, 'param', 'a higher priority wins over a static path');
  succeeded(t, await call(adminA('/api/mocks/param'), { method: 'PUT', body: { method: 'GET', path: '/v1/pets/{id}', priority: -1, response: { body: 'param' } } }), 200, 'negative priority');
  t.equal((await call(A('/v1/pets/1'))).text, 'static');

  await reset(server);
  await mock(t, { id: 'low', method: 'GET', path: '/v1/health', priority: 1, response: { body: 'low' } });
  await mock(t, { id: 'high', method: 'GET', path: '/v1/health', priority: 2, response: { body: 'high' }, enabled: false });
  t.equal((await call(A('/v1/health'))).text, 'low', 'a disabled mock never matches, whatever its priority');
  succeeded(t, await call(adminA('/api/mocks/low'), { method: 'PUT', body: { method: 'GET', path: '/v1/health', priority: 1, enabled: false, response: { body: 'low' } } }), 200, 'disable low');
  const description = await call(A('/v1/health'));
  t.equal(description.status, 200);
  t.not(description.text, 'low', 'every mock disabled: the description answers');
  t.not(description.text, 'high');
  t.equal(succeeded(t, await call(adminA('/api/mocks/high')), 200, 'GET high').enabled, false, 'GET shows enabled false');
  succeeded(t, await call(adminA('/api/mocks/high'), { method: 'PUT', body: { method: 'GET', path: '/v1/health', priority: 2, response: { body: 'high' } } }), 200, 'enable high');
  t.equal((await call(A('/v1/health'))).text, 'high', 'enabled again, it is served');

  await reset(server);
  await mock(t, { id: 'older', method: 'GET', path: '/v1/same', response: { body: 'older' } });
  await mock(t, { id: 'newer', method: 'GET', path: '/v1/same', response: { body: 'newer' } });
  t.equal((await call(A('/v1/same'))).text, 'newer', 'all else equal, the mock created last wins');
});

t.test('method ANY answers every method; an exact method wins over it', async (t) => {
  await reset(server);
  const any = await mock(t, { method: 'any', path: '/v1/anything/{x}', response: { body: { any: true } }, status_code: 207 });
  t.equal(any.method, 'ANY');
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
    const res = await call(A('/v1/anything/1'), { method, body: method === 'GET' || method === 'OPTIONS' ? undefined : { a: 1 } });
    t.equal(res.status, 207, `${method} is answered by the ANY mock`);
    if (method !== 'OPTIONS') t.same(res.json, { any: true });
  }
  await mock(t, { method: 'GET', path: '/v1/anything/{x}', response: { body: { get: true } }, status_code: 203 });
  const head = await call(A('/v1/anything/1'), { method: 'HEAD' });
  t.equal(head.status, 203, 'HEAD: the GET mock ranks above ANY');
  t.equal(head.text, '');
  await mock(t, { method: 'POST', path: '/v1/anything/{x}', response: { body: { post: true } } });
  t.same((await call(A('/v1/anything/1'), { method: 'POST', body: {} })).json, { post: true }, 'the exact method wins over ANY');
  t.same((await call(A('/v1/anything/1'), { method: 'PUT', body: {} })).json, { any: true }, 'others still get ANY');
  t.same((await call(A('/v1/anything/1/'), { method: 'PATCH', body: {} })).json, { any: true }, 'a trailing slash on the request is ignored');
  t.equal((await call(A('/v1/anything'))).status, 404, '{x} needs a non-empty segment');
  t.equal((await call(A('/v1/anything/1/2'))).status, 404, '{x} captures one segment only');
});

t.test('response bodies, headers and status codes', async (t) => {
  await reset(server);
  await mock(t, { method: 'GET', path: '/v1/text', response: { body: 'just text' } });
  await mock(t, { method: 'GET', path: '/v1/json', response: { body: { a: [1, 2], b: null }, headers: { 'x-custom': 'yes', 'cache-control': 'no-store' } }, status_code: 201 });
  await mock(t, { method: 'GET', path: '/v1/xml', response: { body: '<a>1</a>', headers: { 'Content-Type': 'application/xml' } } });
  await mock(t, { method: 'GET', path: '/v1/number', response: { body: 42 } });
  await mock(t, { method: 'GET', path: '/v1/empty/', response: {}, status_code: 204 });
  await mock(t, { method: 'GET', path: '/v1/nobody', response: {} });
  await mock(t, { method: 'POST', path: '/v1/teapot', response: { body: { error: 'short and stout' } }, status_code: 418 });

  const text = await call(A('/v1/text'));
  t.equal(text.status, 200);
  t.match(text.type, /^text\/plain/, 'a string body is text/plain');
  t.equal(text.text, 'just text', 'served as is, not JSON-quoted');
  const json = await call(A('/v1/json'));
  t.equal(json.status, 201, 'status_code');
  t.match(json.type, /^application\/json/);
  t.same(json.json, { a: [1, 2], b: null });
  t.equal(json.headers.get('x-custom'), 'yes', 'response headers are set');
  t.equal(json.headers.get('cache-control'), 'no-store');
  const xml = await call(A('/v1/xml'));
  t.match(xml.type, /^application\/xml/, 'a content-type header wins');
  t.equal(xml.text, '<a>1</a>');
  const number = await call(A('/v1/number'));
  t.match(number.type, /^application\/json/);
  t.equal(number.text, '42');
  const empty = await call(A('/v1/empty'));
  t.equal(empty.status, 204, 'a trailing slash on the mock path is ignored');
  t.equal(empty.text, '');
  const nobody = await call(A('/v1/nobody'));
  t.equal(nobody.status, 200);
  t.equal(nobody.text, '', 'no body: an empty answer');
  t.equal(nobody.headers.get('content-type'), null, 'without a content-type');
  const teapot = await call(A('/v1/teapot'), { method: 'POST', raw: 'anything, not even JSON' });
  t.equal(teapot.status, 418);
  t.same(teapot.json, { error: 'short and stout' });
});

/** Two pipelined requests on one connection, as a keep-alive client sends them; the raw bytes that come back. */
function pipelined(base, first, second) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${first} HTTP/1.1\r\nHost: x\r\n\r\nGET ${second} HTTP/1.1\r\nHost: x\r\n\r\n`));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(data);
    };
    const timer = setTimeout(done, 2000);
    socket.on('data', (chunk) => {
      data += chunk;
      if ((data.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= 2 && data.endsWith('"ok"}')) done();
    });
    socket.on('error', reject);
  });
}

t.test('204 and 304 answers carry no content, so the connection stays in step', async (t) => {
  await reset(server);
  await mock(t, { method: 'GET', path: '/v1/no-content', status_code: 204, response: { body: { ignored: true } } });
  await mock(t, { method: 'GET', path: '/v1/not-modified', status_code: 304, response: { body: 'ignored' } });
  await mock(t, { method: 'GET', path: '/v1/ok', response: { body: { status: 'ok' } } });
  succeeded(t, await call(adminA('/overrides'), { method: 'PUT', body: [{ name: 'no-content', match: { path: '/v1/pets/1' }, status: 204 }] }), 200, 'PUT');
  for (const p of ['/v1/no-content', '/v1/not-modified', '/v1/pets/1']) {
    const raw = await pipelined(server.url, p, '/v1/ok');
    const [head, ...rest] = raw.split('\r\n\r\n');
    t.match(head, /^HTTP\/1\.1 (204|304) /, `${p}: the status`);
    t.match(rest.join('\r\n\r\n'), /^HTTP\/1\.1 200 /, `${p}: the next answer follows the head at once (RFC 9110: no content in 204/304); got ${JSON.stringify(raw.slice(0, 160))}`);
    if (head.startsWith('HTTP/1.1 204')) t.notMatch(head, /content-length: [1-9]/i, `${p}: no content length in a 204`);
  }
});

t.test('templates expand with --response-template-expand', async (t) => {
  await reset(server);
  await mock(t, {
    method: 'ANY',
    path: '/v1/echo/{id}',
    response: {
      body: { id: '{{request.path.id}}', q: '{{request.query.q}}', who: '{{request.header.x-who}}', name: '{{request.body.name}}', uuid: '{{uuid}}' },
      headers: { 'x-echo-id': '{{request.path.id}}' },
    },
  });
  const res = await call(A('/v1/echo/abc-42?q=hello'), { method: 'POST', headers: { 'x-who': 'tester' }, body: { name: 'Rex' } });
  t.equal(res.status, 200);
  t.equal(String(res.json.id), 'abc-42', '{{request.path.id}} echoes the path parameter');
  t.equal(res.json.q, 'hello', 'query');
  t.equal(res.json.who, 'tester', 'header');
  t.equal(res.json.name, 'Rex', 'body field');
  t.match(res.json.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, '{{uuid}}');
  t.equal(res.headers.get('x-echo-id'), 'abc-42', 'header values expand too');
  const other = await call(A('/v1/echo/7'));
  t.equal(String(other.json.id), '7', 'expanded per request');
  const encoded = await call(A('/v1/echo/a%20b'));
  t.equal(String(encoded.json.id), 'a b', 'path parameters are percent-decoded');
});

t.test('latency_ms delays the answer', async (t) => {
  await reset(server);
  await mock(t, { method: 'GET', path: '/v1/slow', latency_ms: 300, response: { body: 'slow' } });
  const res = await call(A('/v1/slow'));
  t.equal(res.text, 'slow');
  // a timer may fire up to a millisecond early against a wall-clock measure
  t.ok(res.elapsed >= 299, `answered after ${Math.round(res.elapsed)} ms (latency_ms 300)`);
  const [a, b] = await Promise.all([call(A('/v1/slow')), call(A('/v1/pets/1'))]);
  t.equal(a.text, 'slow');
  t.same(b.json, TOM, 'a delayed mock does not hold up other requests');
});

// ---------------------------------------------------------------------------------------------
// Override rules.

t.test('override rules: GET, PUT, matching requests get the overridden answer', async (t) => {
  await reset(server);
  t.same(succeeded(t, await call(adminA('/overrides')), 200, 'GET'), [], 'no rules at first');
  const rules = [
    { name: 'pet-teapot', match: { method: 'get', path: '/v1/pets/*' }, status: 418, headers: { 'x-override': 'pet', 'Content-Language': 'en' }, merge: { beta: true, tag: null, owner: { phone: '+4912345678' } } },
    { name: 'health-down', match: { path: '/v1/health', query: { mode: 'down' } }, status: 503, body: 'maintenance' },
    { name: 'tenant-b', match: { headers: { 'X-Tenant': 'b' } }, status: 503, body: { error: 'tenant b is down' } },
    { name: 'off', enabled: false, match: { path: '/v1/pets' }, status: 500 },
  ];
  const stored = succeeded(t, await call(adminA('/overrides'), { method: 'PUT', body: rules }), 200, 'PUT');
  t.equal(stored.length, 4);
  const listed = succeeded(t, await call(adminA('/api/overrides')), 200, 'GET after PUT');
  t.same(listed, stored, 'GET returns what PUT stored (also under /__mock/api/overrides)');
  t.same(listed[0], { ...rules[0], enabled: true, match: { method: 'GET', path: '/v1/pets/*' } }, 'defaults filled in, method upper-cased');
  t.equal(listed[3].enabled, false);

  const pet = await call(A('/v1/pets/1'));
  t.equal(pet.status, 418, 'status replaced');
  t.equal(pet.headers.get('x-override'), 'pet', 'header set');
  t.equal(pet.headers.get('content-language'), 'en');
  const { tag: _removed, ...untagged } = TOM;
  t.same(pet.json, { ...untagged, beta: true, owner: { email: 'tom@example.com', phone: '+4912345678' } }, 'merge patch: added, nested merge, null removes');
  t.notOk('tag' in pet.json, 'null in a merge patch removes the member');
  const list = await call(A('/v1/pets'));
  t.equal(list.status, 200, '`*` does not match a missing segment; a disabled rule does nothing');
  t.equal(list.headers.get('x-override'), null);
  const deep = await call(A('/v1/pets/1/extra'));
  t.equal(deep.headers.get('x-override'), null, '`*` stays within one segment');
  const del = await call(A('/v1/pets/1'), { method: 'DELETE' });
  t.equal(del.status, 204, 'method condition: DELETE untouched');

  const down = await call(A('/v1/health?mode=down'));
  t.equal(down.status, 503);
  t.match(down.type, /^text\/plain/, 'a string body is text/plain');
  t.equal(down.text, 'maintenance', 'body replaced');
  const up = await call(A('/v1/health?mode=up'));
  t.equal(up.status, 200, 'query value must be equal');
  const tenant = await call(A('/v1/pets'), { headers: { 'x-tenant': 'b' } });
  t.equal(tenant.status, 503);
  t.same(tenant.json, { error: 'tenant b is down' });
  t.equal((await call(A('/v1/pets'), { headers: { 'x-tenant': 'bb' } })).status, 200, 'header values are exact');
  const nowhere = await call(A('/nowhere'), { headers: { 'x-tenant': 'b' } });
  t.equal(nowhere.status, 503, 'a rule without a path also adjusts unmatched requests');
});

t.test('override rules: order, globs, runtime mocks, delay_ms, the {rules} form', async (t) => {
  await reset(server);
  await mock(t, { method: 'GET', path: '/v1/custom/{x}', response: { body: { a: 1, keep: 'me' } } });
  succeeded(
    t,
    await call(adminA('/overrides'), {
      method: 'PUT',
      body: {
        rules: [
          { name: 'all-v1', match: { path: '/v1/**' }, headers: { 'x-layer': 'first' }, status: 299 },
          { name: 'custom', match: { path: '/v1/custom/*' }, merge: { a: 2, b: 3 }, headers: { 'x-layer': 'second' } },
          { name: 'slow', match: { path: '/v1/health' }, delay_ms: 300 },
        ],
      },
    }),
    200,
    'PUT {rules}',
  );
  const custom = await call(A('/v1/custom/1'));
  t.equal(custom.status, 299, 'every matching rule applies');
  t.equal(custom.headers.get('x-layer'), 'second', 'later rules win on a conflict');
  t.same(custom.json, { a: 2, keep: 'me', b: 3 }, 'rules adjust runtime mocks too');
  const deep = await call(A('/v1/pets/1'));
  t.equal(deep.headers.get('x-layer'), 'first', '`**` spans segments');
  t.equal(deep.status, 299);
  t.equal((await call(A('/v1'))).headers.get('x-layer'), 'first', '`**` also matches no segment at all');
  t.equal((await call(A('/v2/pets'))).headers.get('x-layer'), null, 'outside the glob');
  const slow = await call(A('/v1/health'));
  t.equal(slow.status, 299);
  t.ok(slow.elapsed >= 299, `delay_ms 300: answered after ${Math.round(slow.elapsed)} ms`);
});

t.test('override rules: methods, decoded paths, content types, non-JSON bodies', async (t) => {
  await reset(server);
  await mock(t, { method: 'GET', path: '/v1/text', response: { body: 'plain text' } });
  succeeded(
    t,
    await call(adminA('/overrides'), {
      method: 'PUT',
      body: [
        { name: 'any-method', match: { method: 'ANY', path: '/v1/pets/a b' }, status: 251 },
        { name: 'text-merge', match: { path: '/v1/text' }, merge: { a: 1 }, headers: { 'x-merged': 'no' } },
        { name: 'content-type', match: { path: '/v1/pets/1' }, headers: { 'Content-Type': 'application/vnd.pet+json' } },
        { name: 'body-then-merge', match: { path: '/v1/health/' }, body: { a: 1 }, merge: { b: 2 } },
        { name: 'head-only', match: { method: 'head', path: '/v1/pets' }, status: 252 },
      ],
    }),
    200,
    'PUT',
  );
  for (const method of ['GET', 'DELETE', 'PUT']) {
    t.equal((await call(A('/v1/pets/a%20b'), { method })).status, 251, `${method}: ANY matches every method; the path is matched percent-decoded`);
  }
  const text = await call(A('/v1/text'));
  t.equal(text.text, 'plain text', 'merge is a no-op on a body that is not JSON');
  t.match(text.type, /^text\/plain/);
  t.equal(text.headers.get('x-merged'), 'no', 'the other effects of the rule still apply');
  const typed = await call(A('/v1/pets/1'));
  t.equal(typed.headers.get('content-type'), 'application/vnd.pet+json', 'a header is replaced whatever its case, not added twice');
  t.same(typed.json, TOM);
  const health = await call(A('/v1/health'));
  t.same(health.json, { a: 1, b: 2 }, 'body first, then merge; a trailing slash on match.path is ignored');
  t.equal((await call(A('/v1/pets'), { method: 'HEAD' })).status, 252, 'method condition HEAD');
  t.equal((await call(A('/v1/pets'))).status, 200, 'GET is not HEAD');
});

t.test('an invalid override set is a 400 and keeps the previous rules', async (t) => {
  await reset(server);
  const good = [{ name: 'keep-me', match: { path: '/v1/pets/1' }, status: 203, headers: { 'x-kept': '1' } }];
  succeeded(t, await call(adminA('/overrides'), { method: 'PUT', body: good }), 200, 'PUT good');
  const invalid = [
    ['a rule without name', [{ status: 500 }], /name/],
    ['an empty name', [{ name: '', status: 500 }], /name/],
    ['duplicate names', [{ name: 'x', status: 500 }, { name: 'x', status: 501 }], /x.*(unique|already)|(unique|already).*x/],
    ['a rule without an effect', [{ name: 'idle', match: { path: '/v1/pets' } }], /idle|effect|changes nothing/],
    ['not an array', { name: 'single', status: 500 }, /array/],
    ['a string', 'rules', /array/],
    ['null', null, /array/],
    ['status 99', [{ name: 's', status: 99 }], /status/],
    ['unknown field', [{ name: 'u', status: 500, statuscode: 1 }], /statuscode/],
    ['match.path without /', [{ name: 'p', match: { path: 'v1/pets' }, status: 500 }], /path/],
    ['negative delay_ms', [{ name: 'd', delay_ms: -5 }], /delay_ms/],
    ['merge not an object', [{ name: 'm', merge: [1] }], /merge/],
    ['one bad rule among good ones', [{ name: 'fine', status: 201 }, { name: 'bad', status: 'x' }], /bad|status/],
  ];
  for (const [what, body, pattern] of invalid) {
    failed(t, await call(adminA('/overrides'), { method: 'PUT', raw: JSON.stringify(body) }), 400, pattern, what);
  }
  failed(t, await call(adminA('/overrides'), { method: 'PUT', raw: '[{"name": ' }), 400, /JSON/, 'malformed JSON');
  const listed = succeeded(t, await call(adminA('/overrides')), 200, 'GET');
  t.same(listed, [{ ...good[0], enabled: true }], 'the previous rules stay');
  const res = await call(A('/v1/pets/1'));
  t.equal(res.status, 203, 'traffic still gets the previous rules');
  t.equal(res.headers.get('x-kept'), '1');

  t.same(succeeded(t, await call(adminA('/overrides'), { method: 'PUT', body: [] }), 200, 'PUT []'), []);
  t.same(succeeded(t, await call(adminA('/overrides')), 200, 'GET'), [], 'cleared');
  const cleared = await call(A('/v1/pets/1'));
  t.equal(cleared.status, 200, 'traffic back to normal');
  t.same(cleared.json, TOM);
  t.equal((await call(A('/__mock/overrides'))).status, 404, 'overrides are not on the HTTP server management router');
});

// ---------------------------------------------------------------------------------------------
// Override rules loaded at startup.

t.test('override rules from http.overrides.rules in mock.yaml and MOCK_HTTP_OVERRIDES_GLOB files', async (t) => {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    [
      'specs:',
      `  - ${JSON.stringify(PETSTORE)}`,
      'seed: 7',
      'http:',
      '  overrides:',
      '    rules:',
      '      - name: from-config',
      '        match: { path: /v1/pets/1 }',
      '        status: 201',
      "        headers: { x-source: config }",
      '',
    ].join('\n'),
  );
  mkdirSync(path.join(dir, 'overrides'));
  writeFileSync(path.join(dir, 'overrides', 'a.yaml'), ['- name: file-a', '  match: { path: /v1/pets/1 }', '  headers: { x-source: file-a, x-a: "1" }', '  merge: { from: a }', ''].join('\n'));
  writeFileSync(path.join(dir, 'overrides', 'b.yaml'), ['rules:', '  - name: file-b', '    match: { path: /v1/health }', '    status: 299', '    body: { from: b }', ''].join('\n'));
  writeFileSync(path.join(dir, 'overrides', 'ignored.json'), JSON.stringify([{ name: 'not-matched-by-the-glob', status: 500 }]));
  // no admin server: the management router of the HTTP server still takes mocks; server A's build of the petstore is reused
  const s = await startMock(['--http-port', '0', '--host', '127.0.0.1', '--out', OUT], { cwd: dir, env: { MOCK_HTTP_OVERRIDES_GLOB: 'overrides/*.yaml' } });
  t.teardown(() => s.stop());
  const pet = await call(s.url + '/v1/pets/1');
  t.equal(pet.status, 201, 'the rule of mock.yaml applies from the first request');
  t.equal(pet.headers.get('x-source'), 'file-a', 'glob files load after the configuration rules and win');
  t.equal(pet.headers.get('x-a'), '1');
  t.same(pet.json, { ...TOM, from: 'a' });
  const health = await call(s.url + '/v1/health');
  t.equal(health.status, 299, 'rules of the second file (the {rules} form)');
  t.same(health.json, { from: 'b' });
  t.equal((await call(s.url + '/v1/pets')).status, 200, 'the .json file outside the glob is not loaded');
  t.equal(s.adminUrl, undefined, 'no admin server runs');
  succeeded(t, await call(s.url + '/__mock/mocks', { method: 'POST', body: { method: 'GET', path: '/v1/pets/{id}', response: { body: { mocked: true } } } }), 201, 'POST a mock');
  const mocked = await call(s.url + '/v1/pets/1');
  t.same(mocked.json, { mocked: true, from: 'a' }, 'the mock answers and the startup rules adjust it');
  t.equal(mocked.status, 201);
});

t.test('bad startup override rules stop mock serve with one line naming the source', async (t) => {
  // same spec, project directory and build folder as server A: its build is reused, nothing is rebuilt
  const args = ['serve', '--spec', PETSTORE, '--seed', '7', '--out', OUT, '--http-port', '0', '--host', '127.0.0.1'];
  const empty = tmpdir();
  const [malformed, invalidRules, noFiles] = await Promise.all([
    runMock(args, { env: { MOCK_HTTP_OVERRIDES: '[{"name": "x", ' } }),
    runMock(args, { env: { MOCK_HTTP_OVERRIDES: JSON.stringify([{ name: 'twice', status: 500 }, { name: 'twice', status: 501 }]) } }),
    runMock(args, { env: { MOCK_HTTP_OVERRIDES_GLOB: `${empty}/overrides/*.yaml` } }),
  ]);
  t.not(malformed.code, 0, 'malformed JSON: exit status is not 0');
  t.notMatch(malformed.stdout, /serving on/, 'nothing was served');
  const lines = malformed.stderr.trim().split('\n');
  t.equal(lines.length, 1, `one line: ${malformed.stderr}`);
  t.match(lines[0], /MOCK_HTTP_OVERRIDES/, 'names the variable');
  t.notMatch(malformed.stderr, /^\s+at /m, 'no stack trace');

  t.not(invalidRules.code, 0, 'invalid rule set: exit status is not 0');
  t.notMatch(invalidRules.stdout, /serving on/);
  t.equal(invalidRules.stderr.trim().split('\n').length, 1, `one line: ${invalidRules.stderr}`);
  t.match(invalidRules.stderr, /MOCK_HTTP_OVERRIDES/, 'names the variable');
  t.match(invalidRules.stderr, /twice/, 'names the rule');

  t.not(noFiles.code, 0, 'a glob matching nothing: exit status is not 0');
  t.notMatch(noFiles.stdout, /serving on/);
  t.equal(noFiles.stderr.trim().split('\n').length, 1, `one line: ${noFiles.stderr}`);
  t.match(noFiles.stderr, /MOCK_HTTP_OVERRIDES_GLOB/, 'names the variable');
  t.match(noFiles.stderr, /overrides\/\*\.yaml/, 'and the pattern');
  t.match(noFiles.stderr, /matches no file/i, 'says what is wrong');
});

// ---------------------------------------------------------------------------------------------
// The live chain: faults, runtime mocks, proxy, description.

t.test('faults answer before runtime mocks', async (t) => {
  await reset(server);
  await mock(t, { method: 'GET', path: '/v1/pets/{id}', response: { body: 'runtime' } });
  const set = succeeded(t, await call(adminA('/config/faults'), { method: 'POST', body: { failure_rate: 1, status_codes: [502] } }), 200, 'faults on');
  t.same(set.faults, { enabled: true, failure_rate: 1, status_codes: [502] });
  for (const p of ['/v1/pets/1', '/v1/health', '/nowhere']) {
    const res = await call(A(p));
    t.equal(res.status, 502, `${p}: injected status`);
    t.equal(res.headers.get('x-mock-fault'), 'http_502', `${p}: x-mock-fault`);
    t.match(res.type, /^application\/problem\+json/);
    t.equal(res.json.status, 502);
  }
  const dashboard = succeeded(t, await call(adminA('/dashboard')), 200, 'dashboard');
  t.match(dashboard.fault_config, { enabled: true, failure_rate: 1, status_codes: [502] });
  t.ok(dashboard.fault_config.active_failures >= 3, 'injected faults are counted');
  succeeded(t, await call(adminA('/config/faults'), { method: 'POST', body: { config_type: 'faults', data: { enabled: false } } }), 200, 'faults off');
  const res = await call(A('/v1/pets/1'));
  t.equal(res.status, 200);
  t.equal(res.text, 'runtime', 'the runtime mock answers again');
  t.equal(res.headers.get('x-mock-fault'), null);
});

t.test('proxy: an upstream answers, runtime mocks still win, failures are 502/504', async (t) => {
  await reset(server);
  const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const seen = [];
  const upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url, 'http://upstream');
      seen.push({ method: req.method, url: req.url });
      if (url.pathname === '/binary') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(BYTES);
      }
      if (url.pathname === '/redirect') {
        res.writeHead(302, { location: '/elsewhere' });
        return res.end();
      }
      if (url.pathname === '/raw') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ url: req.url, authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null }));
      }
      if (url.pathname.endsWith('/slow')) {
        const timer = setTimeout(() => res.end('late'), 3000);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      res.writeHead(url.pathname.endsWith('/created') ? 201 : 200, { 'content-type': 'application/json', 'x-upstream': 'node' });
      res.end(JSON.stringify({ upstream: true, method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, probe: req.headers['x-probe'] ?? null }));
    });
  });
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => upstream.close(resolve)));
  upstream.unref();
  const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;

  const before = succeeded(t, await call(adminA('/dashboard')), 200, 'dashboard').proxy_config.requests_proxied;
  const set = succeeded(t, await call(adminA('/config/proxy'), { method: 'POST', body: { upstream_url: upstreamUrl, timeout_seconds: 5 } }), 200, 'proxy on');
  t.same(set.proxy, { enabled: true, upstream_url: upstreamUrl, timeout_seconds: 5 });

  const get = await call(A('/v1/pets/1?x=1&y=two'), { headers: { 'x-probe': 'p1' } });
  t.equal(get.status, 200);
  t.equal(get.headers.get('x-upstream'), 'node', 'answered by the upstream');
  t.same(get.json, { upstream: true, method: 'GET', path: '/v1/pets/1', query: { x: '1', y: 'two' }, body: '', probe: 'p1' }, 'method, path, query and headers forwarded');
  const payload = JSON.stringify({ name: 'Rex', kind: 'dog' });
  const post = await call(A('/v1/created?dry=1'), { method: 'POST', raw: payload });
  t.equal(post.status, 201, 'the upstream status is kept');
  t.same(post.json, { upstream: true, method: 'POST', path: '/v1/created', query: { dry: '1' }, body: payload, probe: null }, 'the POST body is forwarded as sent');
  const undocumented = await call(A('/not/in/the/description'));
  t.equal(undocumented.headers.get('x-upstream'), 'node', 'paths the description does not know are proxied as well');

  const raw = await call(A('/raw?a=1&a=2&b=x%20y&c=%26&d='), { headers: { authorization: 'Bearer abc', cookie: 'session=1' } });
  t.same(raw.json, { url: '/raw?a=1&a=2&b=x%20y&c=%26&d=', authorization: 'Bearer abc', cookie: 'session=1' }, 'the query string travels as sent; credentials headers too');
  const binary = await fetch(A('/binary'));
  t.equal(binary.status, 200);
  t.same(Buffer.from(await binary.arrayBuffer()), BYTES, 'a binary body comes back byte for byte');
  const redirect = await fetch(A('/redirect'), { redirect: 'manual' });
  t.equal(redirect.status, 302, 'a redirect of the upstream is passed on, not followed');
  t.equal(redirect.headers.get('location'), '/elsewhere');
  const dated = await call(A('/v1/pets'));
  t.match(dated.headers.get('date'), /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/, 'one Date header, not the upstream one and the server one');
  const proxiedSoFar = 7;

  await mock(t, { method: 'GET', path: '/v1/pets/{id}', response: { body: 'runtime' } });
  const mocked = await call(A('/v1/pets/1'));
  t.equal(mocked.text, 'runtime', 'a runtime mock wins over the proxy');
  t.equal(mocked.headers.get('x-upstream'), null);

  succeeded(t, await call(adminA('/overrides'), { method: 'PUT', body: [{ name: 'tag-proxied', match: { path: '/v1/pets' }, headers: { 'x-tagged': 'yes' }, merge: { merged: 1 } }] }), 200, 'override');
  const adjusted = await call(A('/v1/pets'));
  t.equal(adjusted.headers.get('x-upstream'), 'node');
  t.equal(adjusted.headers.get('x-tagged'), 'yes', 'override rules adjust proxied answers');
  t.equal(adjusted.json.merged, 1);
  t.equal(adjusted.json.upstream, true);

  const dashboard = succeeded(t, await call(adminA('/dashboard')), 200, 'dashboard');
  t.equal(dashboard.proxy_config.enabled, true);
  t.equal(dashboard.proxy_config.upstream_url, upstreamUrl);
  t.equal(dashboard.proxy_config.requests_proxied - before, proxiedSoFar + 1, 'requests_proxied counts the proxied requests (not the mocked one)');
  const config = succeeded(t, await call(adminA('/config')), 200, 'GET config');
  t.same(config.proxy, { enabled: true, upstream_url: upstreamUrl, timeout_seconds: 5 });

  // a path prefix on the upstream URL prefixes the forwarded path
  succeeded(t, await call(adminA('/config/proxy'), { method: 'POST', body: { upstream_url: upstreamUrl + '/base/' } }), 200, 'proxy with a path');
  const prefixed = await call(A('/v1/health'));
  t.equal(prefixed.json?.path, '/base/v1/health', 'the upstream path prefixes the request path');

  const hits = seen.length;
  succeeded(t, await call(adminA('/config/faults'), { method: 'POST', body: { failure_rate: 1, status_codes: [503] } }), 200, 'faults on');
  const fault = await call(A('/v1/health'));
  t.equal(fault.status, 503, 'faults answer before the proxy');
  t.equal(fault.headers.get('x-mock-fault'), 'http_503');
  t.equal(seen.length, hits, 'the upstream did not see the faulted request');
  succeeded(t, await call(adminA('/config/faults'), { method: 'POST', body: { enabled: false } }), 200, 'faults off');

  succeeded(t, await call(adminA('/config/proxy'), { method: 'POST', body: { upstream_url: upstreamUrl, timeout_seconds: 0.5 } }), 200, 'short timeout');
  const slow = await call(A('/v1/slow'));
  t.equal(slow.status, 504, 'no answer within timeout_seconds: 504');
  t.match(slow.type, /^application\/problem\+json/);
  t.match(slow.json.detail, /proxy/i, 'the problem names the proxy');
  t.ok(slow.elapsed < 2900, `gave up after ${Math.round(slow.elapsed)} ms, before the upstream answered`);

  const closed = http.createServer();
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const downUrl = `http://127.0.0.1:${closed.address().port}`;
  await new Promise((resolve) => closed.close(resolve));
  succeeded(t, await call(adminA('/config/proxy'), { method: 'POST', body: { upstream_url: downUrl, timeout_seconds: 5 } }), 200, 'a dead upstream');
  const down = await call(A('/v1/health'));
  t.equal(down.status, 502, 'an unreachable upstream: 502');
  t.match(down.type, /^application\/problem\+json/);
  t.match(down.json.detail, /proxy/i, 'the problem names the proxy');
  t.match(down.json.detail, downUrl, 'and the upstream');

  succeeded(t, await call(adminA('/config/proxy'), { method: 'POST', body: { enabled: false } }), 200, 'proxy off');
  await call(adminA('/overrides'), { method: 'PUT', body: [] });
  await call(adminA('/api/mocks'), { method: 'DELETE' });
  const back = await call(A('/v1/pets/1'));
  t.equal(back.status, 200);
  t.same(back.json, TOM, 'with the proxy off the description answers again');
  t.equal(back.headers.get('x-upstream'), null);
  const seenCount = seen.length;
  await call(A('/v1/pets'));
  t.equal(seen.length, seenCount, 'the upstream gets no more requests');
  failed(t, await call(adminA('/config/proxy'), { method: 'POST', body: { enabled: true, upstream_url: null } }), 400, /upstream_url/, 'enabling without an upstream');
});

t.test('no request made the admin API answer 500', async (t) => {
  const logs = succeeded(t, await call(adminA('/logs?limit=1000')), 200, 'logs');
  t.ok(Array.isArray(logs));
  t.notMatch(server.stdout + server.stderr, /admin request failed/, 'the admin API logged no failure (a 500)');
  t.notMatch(plain.stdout + plain.stderr, /admin request failed/, 'neither did the second server');
});

// runtime/chain/mocks MockStore.respond: status, content type, headers, and templates only while expansion is on.
import t from 'tap';
import { MockStore } from '../../../dist/runtime/chain/mocks/index.js';
import { Exchange } from '../../../dist/runtime/chain/exchange/index.js';
import { createTemplateRuntime } from '../../../dist/runtime/template/index.js';

const templates = createTemplateRuntime({ seed: 1 });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function answer(mock, req, expand = true) {
  const store = new MockStore();
  const created = store.create(mock);
  if (!created.ok) throw new Error(created.error);
  const request = new Exchange({ method: req.method, path: req.url, rawQuery: req.query ?? '', headers: req.headers ?? {}, body: req.body });
  const match = store.match(request);
  return store.respond(match, request, expand, templates);
}

t.test('JSON bodies: application/json, status_code, mock headers after the content type', async (t) => {
  const response = answer(
    { method: 'POST', path: '/users', status_code: 201, response: { body: { id: 1, tags: ['a'] }, headers: { 'X-Trace': 'abc' } } },
    { method: 'POST', url: '/users' },
  );
  t.same(response, { status: 201, headers: [['content-type', 'application/json'], ['x-trace', 'abc']], body: '{"id":1,"tags":["a"]}', source: 'runtime_mock' });
});

t.test('string bodies are text/plain; null is JSON; no body is empty with no content type', async (t) => {
  t.same(answer({ method: 'GET', path: '/t', response: { body: 'hello' } }, { method: 'GET', url: '/t' }), { status: 200, headers: [['content-type', 'text/plain']], body: 'hello', source: 'runtime_mock' });
  t.same(answer({ method: 'GET', path: '/n', response: { body: null } }, { method: 'GET', url: '/n' }), { status: 200, headers: [['content-type', 'application/json']], body: 'null', source: 'runtime_mock' });
  t.same(answer({ method: 'DELETE', path: '/d', status_code: 204, response: {} }, { method: 'DELETE', url: '/d' }), { status: 204, headers: [], body: '', source: 'runtime_mock' });
});

t.test('a content type from the mock replaces the default', async (t) => {
  const response = answer({ method: 'GET', path: '/x', response: { body: '<a/>', headers: { 'Content-Type': 'application/xml' } } }, { method: 'GET', url: '/x' });
  t.same(response.headers, [['content-type', 'application/xml']]);
  t.equal(response.body, '<a/>');
});

t.test('without templates the same response object is served every time', async (t) => {
  const store = new MockStore();
  store.create({ method: 'GET', path: '/a', response: { body: { a: 1 } } });
  const req = new Exchange({ method: 'GET', path: '/a', headers: {} });
  t.equal(store.respond(store.match(req), req, true, templates), store.respond(store.match(req), req, true, templates));
});

t.test('templates expand when expansion is on', async (t) => {
  const mock = {
    method: 'POST',
    path: '/users/{id}',
    response: {
      body: { id: '{{request.path.id}}', uuid: '{{uuid}}', page: '{{request.query.page}}', tenant: '{{request.header.x-tenant}}', name: '{{request.body.name}}' },
      headers: { 'X-Echo': 'user-{{request.path.id}}' },
    },
  };
  const req = { method: 'POST', url: '/users/a%22b', query: 'page=3', headers: { 'x-tenant': 'acme' }, body: Buffer.from('{"name":"Tom"}') };
  const response = answer(mock, req);
  const body = JSON.parse(response.body);
  t.equal(body.id, 'a"b', 'inserted values are escaped as JSON string content');
  t.match(body.uuid, UUID);
  t.equal(body.page, '3');
  t.equal(body.tenant, 'acme');
  t.equal(body.name, 'Tom');
  t.same(response.headers, [['content-type', 'application/json'], ['x-echo', 'user-a"b']]);
});

t.test('templates stay literal when expansion is off', async (t) => {
  const mock = { method: 'GET', path: '/users/{id}', response: { body: { id: '{{request.path.id}}' }, headers: { 'X-Id': '{{uuid}}' } } };
  const response = answer(mock, { method: 'GET', url: '/users/7' }, false);
  t.same(response, { status: 200, headers: [['content-type', 'application/json'], ['x-id', '{{uuid}}']], body: '{"id":"{{request.path.id}}"}', source: 'runtime_mock' });
});

t.test('a string body template renders as text', async (t) => {
  const response = answer({ method: 'GET', path: '/hello/{name}', response: { body: 'Hello {{request.path.name}}, {{#if (eq request.query.polite "yes")}}sir{{else}}you{{/if}}' } }, { method: 'GET', url: '/hello/Ann', query: 'polite=yes' });
  t.equal(response.body, 'Hello Ann, sir');
  t.same(response.headers, [['content-type', 'text/plain']]);
});

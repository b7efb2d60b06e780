// Deeply nested JSON is a 400, never a 500 "Maximum call stack size exceeded" (issue 20, item 10):
// admin bodies past 64 levels, request bodies on a schema that references itself (its validator
// recurses once per level), templates echoing such a body, and override merges into one.
import t from 'tap';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { envelope, failure, post } from '../helpers/admin.js';
import { startMock, tmpdir } from '../helpers/cli.js';

const dir = tmpdir();
writeFileSync(
  path.join(dir, 'tree.yaml'),
  `openapi: 3.0.3
info: { title: tree, version: '1' }
paths:
  /nodes:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Node' }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Node' }
              example: { name: created, echo: '{{request.body.child}}' }
components:
  schemas:
    Node:
      type: object
      properties:
        name: { type: string }
        child: { $ref: '#/components/schemas/Node' }
`,
);
const server = await startMock(['--spec', path.join(dir, 'tree.yaml'), '--out', path.join(dir, 'out'), '--admin-embed', '--response-template-expand']);
t.teardown(() => server.stop());
const api = (endpoint) => `${server.url}/__mock/api/${endpoint}`;

/** `{"child": {"child": … {} …}}`, `levels` objects deep. */
const tree = (levels) => '{"child":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
const brackets = (levels) => '['.repeat(levels) + ']'.repeat(levels);
// deep enough to overflow a recursive walk, well below http.max_body_bytes (10 MiB)
const DEEP = 100_000;

const send = (body) => fetch(`${server.url}/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

t.test('admin bodies nesting past 64 levels: 400 naming the limit, on every endpoint, nothing changed', async (t) => {
  const mock = `{"method": "GET", "path": "/deep", "response": {"body": ${brackets(DEEP)}}}`;
  await failure(t, await post(api('mocks'), mock), 400, /nests arrays and objects more than 64 levels deep/);
  // 65 levels: just past the limit
  await failure(t, await post(api('mocks'), `{"method": "GET", "path": "/deep", "response": {"body": ${brackets(63)}}}`), 400, /more than 64 levels/);
  await failure(t, await post(api('overrides'), `[{"name": "deep", "merge": ${tree(DEEP)}}]`, { method: 'PUT' }), 400, /more than 64 levels/);
  await failure(t, await post(api('chaos/config'), `{"fault_injection": ${tree(DEEP)}}`, { method: 'PUT' }), 400, /more than 64 levels/);
  await failure(t, await post(api('config'), `{"latency": ${tree(DEEP)}}`), 400, /more than 64 levels/);
  // the management router on the mock port too
  await failure(t, await post(`${server.url}/__mock/mocks`, mock), 400, /more than 64 levels/);
  t.same((await (await fetch(api('mocks'))).json()).data, [], 'no mock was made');
  const flat = await envelope(t, await post(api('mocks'), `{"method": "GET", "path": "/deep", "response": {"body": ${brackets(62)}}}`), 201);
  t.equal((await fetch(`${server.url}/deep`)).status, 200, '64 levels in all are fine');
  await envelope(t, await fetch(api(`mocks/${flat.id}`), { method: 'DELETE' }));
});

t.test('a request body deeper than the recursive schema validator can go: 400 from validation', async (t) => {
  const res = await send(tree(DEEP));
  t.equal(res.status, 400);
  const problem = await res.json();
  t.equal(problem.code, 'MOCK_ERR_REQUEST_INVALID');
  t.equal(problem.detail, 'request body nests too deeply to validate; send a flatter one');
  t.equal((await send('{"name": "a", "child": {"name": "b"}}')).status, 201, 'a shallow tree is answered');
  t.equal((await send(tree(2000))).status, 201, 'so is a deep one the validator can walk');
});

t.test('unvalidated, a template echoing a too deep body: 400 MOCK_ERR_REQUEST_TOO_DEEP', async (t) => {
  t.teardown(() => post(api('validation'), { mode: 'enforce' }));
  await envelope(t, await post(api('validation'), { mode: 'off' }));
  const res = await send(tree(DEEP));
  t.equal(res.status, 400);
  t.match(await res.json(), { code: 'MOCK_ERR_REQUEST_TOO_DEEP', detail: 'POST /nodes: the request body nests too deeply to be answered; send a flatter body' });

  const mock = await envelope(t, await post(api('mocks'), { method: 'POST', path: '/echo', response: { body: { got: '{{request.body}}' } } }), 201);
  t.teardown(() => fetch(api(`mocks/${mock.id}`), { method: 'DELETE' }));
  const echo = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tree(DEEP) });
  t.equal(echo.status, 400, 'a runtime mock echoing it too');
  t.equal((await echo.json()).code, 'MOCK_ERR_REQUEST_TOO_DEEP');
  const logs = (await (await fetch(`${api('logs')}?path=/echo`)).json()).data;
  t.match(logs[0].error_message, /nests too deeply/, 'the request log says why');
});

t.test('an override merging into an answer nested too deeply leaves the answer as it is', async (t) => {
  const deep = tree(DEEP);
  const upstream = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(deep));
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    await post(api('config/proxy'), { enabled: false, upstream_url: null });
    await post(api('overrides'), [], { method: 'PUT' });
    upstream.close();
  });
  await envelope(t, await post(api('overrides'), [{ name: 'flag', match: { path: '/up/**' }, merge: { flagged: true } }], { method: 'PUT' }));
  await envelope(t, await post(api('config/proxy'), { enabled: true, upstream_url: `http://127.0.0.1:${upstream.address().port}` }));
  const res = await fetch(`${server.url}/up/tree`);
  t.equal(res.status, 200, 'no 500');
  t.equal(await res.text(), deep, "the upstream's body, unpatched");
});

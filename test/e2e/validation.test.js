// Request validation modes, statuses, aggregation, overrides, 415 and parameter coercion.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, root, startMock, tmpdir } from '../helpers/cli.js';

const spec = path.join(root, 'examples/petstore.yaml');
// built once: every petstore server of this file serves this build (their flags are run-time ones)
const out = await buildOnce(spec);
// the tests are independent (servers and folders of their own): three at a time
t.jobs = 3;
const post = (server, body, headers = { 'content-type': 'application/json' }) =>
  fetch(`${server.url}/v1/pets`, { method: 'POST', headers, body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) });

t.test('enforce (the default) rejects invalid requests with a problem body naming the error', async (t) => {
  const server = await startMock(['--spec', spec, '--out', out]);
  t.teardown(() => server.stop());
  const ok = await post(server, { name: 'Kitty', kind: 'cat' });
  t.equal(ok.status, 201);
  // POST /pets documents its 400 as an Error with an example: the README's quick start answers that
  const quickStart = await post(server, {});
  t.equal(quickStart.status, 400);
  t.equal(quickStart.headers.get('content-type'), 'application/json');
  t.equal(quickStart.headers.get('x-mock-error-detail'), "body must have required property 'name'");
  t.same(await quickStart.json(), { code: 400, message: 'the request is not a valid pet' }, "the description's own Error, its example");
  const missing = await post(server, { name: 'Kitty' }, { 'content-type': 'application/json', prefer: 'error-body=problem' });
  t.equal(missing.status, 400);
  t.equal(missing.headers.get('content-type'), 'application/problem+json');
  const body = await missing.json();
  t.equal(body.title, 'Request validation failed');
  t.equal(body.errors.length, 1, 'one error unless aggregated');
  t.same(body.errors[0], { location: 'body', name: '/kind', message: "body must have required property 'kind'", keyword: 'required' });

  // GET /pets documents `default: Error`: refusals answer in that shape, what was refused in headers
  const query = await fetch(`${server.url}/v1/pets?limit=abc`);
  t.equal(query.status, 400);
  t.equal(query.headers.get('x-mock-error-code'), 'MOCK_ERR_REQUEST_INVALID');
  t.equal(query.headers.get('x-mock-error-detail'), "query parameter 'limit' must be integer");
  t.match(await query.json(), { code: Number, message: String }, 'the documented Error');
  const asProblem = await fetch(`${server.url}/v1/pets?limit=abc`, { headers: { prefer: 'error-body=problem' } });
  t.match((await asProblem.json()).errors[0], { location: 'query', name: 'limit', keyword: 'type' });
  const coerced = await fetch(`${server.url}/v1/pets?limit=5&kind=dog`);
  t.equal(coerced.status, 200, 'query strings are coerced to the documented types');
  const range = await fetch(`${server.url}/v1/pets?limit=1000`);
  t.equal(range.status, 400);
  t.match(range.headers.get('x-mock-error-detail'), /limit.*must be <= 100/);
  const enumBad = await fetch(`${server.url}/v1/pets?kind=fish`);
  t.match(enumBad.headers.get('x-mock-error-detail'), /must be one of "cat", "dog", "bird"/);
  const pathBad = await fetch(`${server.url}/v1/pets/0`);
  t.equal(pathBad.status, 400, 'path parameters are validated (minimum 1)');

  const readOnlyIgnored = await post(server, { name: 'Kitty', kind: 'cat', owner: { email: 'a@b.co' } });
  t.equal(readOnlyIgnored.status, 201, 'readOnly id/created_at are not required in requests');
  const unsupported = await post(server, '<pet/>', { 'content-type': 'application/xml' });
  t.equal(unsupported.status, 415);
  t.match(await unsupported.json(), { code: 'MOCK_ERR_UNSUPPORTED_MEDIA_TYPE', detail: /accepts application\/json, not application\/xml/ }, 'the catalogue code is in the body');
  const empty = await fetch(`${server.url}/v1/pets`, { method: 'POST' });
  t.equal(empty.status, 400);
  t.equal(empty.headers.get('x-mock-error-code'), 'MOCK_ERR_REQUEST_INVALID');
  t.match(empty.headers.get('x-mock-error-detail'), /request body is required/);
  // "Kitty" with a lone 0xff byte: not UTF-8 (JSON.parse of the decoded text would accept U+FFFD)
  const latin = Buffer.concat([Buffer.from('{"name":"Kit'), Buffer.from([0xff]), Buffer.from('ty","kind":"cat"}')]);
  const notUtf8 = await post(server, latin);
  t.equal(notUtf8.status, 400, 'a JSON body that is not UTF-8 is refused');
  t.match(notUtf8.headers.get('x-mock-error-detail'), /not valid UTF-8/);
  const utf8 = await post(server, Buffer.from('{"name":"Kätzchen 🐈","kind":"cat"}'));
  t.equal(utf8.status, 201, 'multi-byte UTF-8 is fine');
});

t.test('--validation-status and --aggregate-errors', async (t) => {
  const server = await startMock(['--spec', spec, '--out', out, '--validation-status', '422', '--aggregate-errors']);
  t.teardown(() => server.stop());
  const pet = { name: '', kind: 'fish', tag: 'x'.repeat(40) };
  const res = await post(server, pet);
  t.equal(res.status, 422);
  t.equal(res.headers.get('x-mock-error-code'), 'MOCK_ERR_REQUEST_INVALID');
  t.match(await res.json(), { code: Number, message: String }, 'POST /pets documents its 422 as an Error');
  const problem = await post(server, pet, { 'content-type': 'application/json', prefer: 'error-body=problem' });
  t.equal(problem.status, 422);
  const body = await problem.json();
  t.equal(body.status, 422);
  t.equal(body.errors.length, 3, 'every error is returned together');
  t.same(body.errors.map((e) => e.name).sort(), ['/kind', '/name', '/tag']);
});

t.test('warn accepts invalid requests; off does not even look', async (t) => {
  // side by side; stop() waits for the exit, and the server writes every log line before it exits
  await Promise.all(
    ['warn', 'off'].map(async (mode) => {
      const server = await startMock(['--spec', spec, '--out', out, '--validation', mode], { env: { MOCK_LOG_LEVEL: 'warn' } });
      const res = await post(server, { name: 'Kitty' });
      t.equal(res.status, 201, `${mode}: accepted`);
      await fetch(`${server.url}/v1/pets?limit=abc`);
      await server.stop();
      if (mode === 'warn') t.match(server.stdout + server.stderr, /request validation failed/, 'warn logs the errors');
      else t.notMatch(server.stdout + server.stderr, /request validation failed/);
    }),
  );
});

t.test('MOCK_REQUEST_VALIDATION and per-route overrides from mock.yaml', async (t) => {
  const dir = t.testdir({
    'mock.yaml': [
      'specs: [' + JSON.stringify(spec) + ']',
      'validation:',
      '  mode: enforce',
      '  overrides:',
      '    "POST /v1/pets": "off"',
      '    "/v1/pets/*": warn',
    ].join('\n'),
  });
  const server = await startMock(['--out', out], { cwd: dir });
  t.teardown(() => server.stop());
  t.equal((await post(server, { bogus: true })).status, 201, 'exact key override: off');
  t.equal((await fetch(`${server.url}/v1/pets/0`)).status, 200, 'glob override: warn');
  t.equal((await fetch(`${server.url}/v1/pets?limit=abc`)).status, 400, 'others keep enforce');

  const envServer = await startMock(['--spec', spec, '--out', out], { env: { MOCK_REQUEST_VALIDATION: 'off' } });
  t.teardown(() => envServer.stop());
  t.equal((await fetch(`${envServer.url}/v1/pets?limit=abc`)).status, 200, 'MOCK_REQUEST_VALIDATION=off');
});

t.test('--validate-responses warns about responses that break their schema', async (t) => {
  const bad = path.join(t.testdir({
    'api.yaml': [
      'openapi: 3.0.3',
      'info: {title: bad, version: "1"}',
      'paths:',
      '  /thing:',
      '    get:',
      '      responses:',
      '        "200":',
      '          description: ok',
          '          content:',
      '            application/json:',
      '              schema: {type: object, required: [id], properties: {id: {type: integer}}}',
      '              example: {id: "not a number"}',
    ].join('\n'),
  }), 'api.yaml');
  const server = await startMock(['--spec', bad, '--out', tmpdir(), '--validate-responses', '--seed', '1'], { env: { MOCK_LOG_LEVEL: 'warn' } });
  const res = await fetch(`${server.url}/thing?__example=example`);
  t.same(await res.json(), { id: 'not a number' }, 'the answer is unchanged');
  const generated = await fetch(`${server.url}/thing`);
  t.type((await generated.json()).id, 'number', 'an invalid example is not served by default');
  await server.stop(); // every log line is written before the exit
  t.match(server.stdout + server.stderr, /response does not match its schema/);
});

t.test('form bodies are parsed and coerced', async (t) => {
  const form = path.join(t.testdir({
    'api.yaml': [
      'openapi: 3.0.3',
      'info: {title: form, version: "1"}',
      'paths:',
      '  /login:',
      '    post:',
      '      requestBody:',
      '        required: true',
      '        content:',
      '          application/x-www-form-urlencoded:',
      '            schema: {type: object, required: [user, age], properties: {user: {type: string}, age: {type: integer}, tags: {type: array, items: {type: string}}}}',
      '      responses:',
      '        "200": {description: ok}',
    ].join('\n'),
  }), 'api.yaml');
  const server = await startMock(['--spec', form, '--out', tmpdir()]);
  t.teardown(() => server.stop());
  const send = (body) => fetch(`${server.url}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  t.equal((await send('user=ann&age=31&tags=a&tags=b')).status, 200);
  t.equal((await send('user=ann&age=old')).status, 400);
  t.equal((await send('age=3')).status, 400);
});

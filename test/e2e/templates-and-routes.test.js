// Template expansion (off by default) and custom routes from mock.yaml with their matching priority.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, root, startMock, tmpdir } from '../helpers/cli.js';

const spec = path.join(root, 'examples/petstore.yaml');
const config = (extra = []) =>
  [
    `specs: [${JSON.stringify(spec)}]`,
    'http:',
    '  routes:',
    '    - method: GET',
    '      path: /v1/pets/{petId}',
    '      match: { query: { view: full }, headers: { x-tenant: acme } }',
    '      response: { status: 200, body: { rank: query-and-header } }',
    '    - method: GET',
    '      path: /v1/pets/{petId}',
    '      match: { headers: { x-tenant: acme } }',
    '      response: { status: 200, body: { rank: header } }',
    '    - method: GET',
    '      path: /v1/pets/{petId}',
    '      match: { query: { view: full } }',
    '      response: { status: 200, body: { rank: query } }',
    '    - method: POST',
    '      path: /v1/pets',
    '      match: { body: { kind: bird } }',
    '      response: { status: 202, headers: { x-why: birds-fly }, body: { rank: body, name: "{{request.body.name}}" } }',
    '    - method: GET',
    '      path: /v1/echo/{word}',
    '      response:',
    '        status: 200',
    '        headers: { x-request-id: "{{uuid}}" }',
    '        body:',
    '          word: "{{request.path.word}}"',
    '          q: "{{request.query.q}}"',
    '          agent: "{{request.header.x-agent}}"',
    '          id: "{{uuid}}"',
    '          at: "{{now+1h}}"',
    '          n: "{{randInt 1 6}}"',
    '          who: "{{faker.name}}"',
    '          mood: "{{#if (eq request.query.q \'hi\')}}friendly{{else}}neutral{{/if}}"',
    '    - method: GET',
    '      path: /v1/text',
    '      response: { status: 200, body: "plain {{request.query.x}}" }',
    '    - path: /legacy/**',
    '      response: { status: 410, body: { gone: true } }',
    ...extra,
  ].join('\n');

// the first two servers serve the same mock.yaml (expansion is a run-time setting) and one build of
// it, made first (the routes of mock.yaml are part of the build); the tests run side by side
const project = tmpdir();
writeFileSync(path.join(project, 'mock.yaml'), config());
const out = await buildOnce(spec, { cwd: project });
t.jobs = 3;

t.test('custom routes override the description in the documented priority', async (t) => {
  const server = await startMock(['--out', out], { cwd: project });
  t.teardown(() => server.stop());
  const get = (p, headers) => fetch(`${server.url}${p}`, { headers }).then((r) => r.json());
  t.same(await get('/v1/pets/1?view=full', { 'x-tenant': 'acme' }), { rank: 'query-and-header' });
  t.same(await get('/v1/pets/1?view=full'), { rank: 'query' }, 'query conditions outrank header conditions');
  t.same(await get('/v1/pets/1', { 'x-tenant': 'acme' }), { rank: 'header' });
  t.equal((await get('/v1/pets/1')).name, 'Tom', 'no condition holds: the description answers');
  const bird = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Tweety', kind: 'bird' }) });
  t.equal(bird.status, 202);
  t.equal(bird.headers.get('x-why'), 'birds-fly');
  t.same(await bird.json(), { rank: 'body', name: '{{request.body.name}}' }, 'tokens stay literal while expansion is off');
  const cat = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Tom', kind: 'cat' }) });
  t.equal(cat.status, 201, 'body condition does not hold');
  const legacy = await fetch(`${server.url}/legacy/a/b/c`, { method: 'DELETE' });
  t.equal(legacy.status, 410, 'catch-all route answers any method below its prefix');
});

t.test('template expansion with --response-template-expand', async (t) => {
  const server = await startMock(['--out', out, '--response-template-expand'], { cwd: project });
  t.teardown(() => server.stop());
  const before = Date.now();
  const res = await fetch(`${server.url}/v1/echo/hello?q=hi`, { headers: { 'x-agent': 'tap "quoted"' } });
  const body = await res.json();
  t.equal(body.word, 'hello');
  t.equal(body.q, 'hi');
  t.equal(body.agent, 'tap "quoted"', 'inserted values are JSON-escaped');
  t.match(body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.match(res.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'headers expand too');
  const at = Date.parse(body.at);
  t.ok(at >= before + 3_600_000 - 5_000 && at <= Date.now() + 3_600_000 + 5_000, 'now+1h');
  t.ok(Number(body.n) >= 1 && Number(body.n) <= 6);
  t.ok(body.who.length > 2);
  t.equal(body.mood, 'friendly');
  t.equal((await fetch(`${server.url}/v1/echo/x?q=yo`).then((r) => r.json())).mood, 'neutral');
  const text = await fetch(`${server.url}/v1/text?x=42`);
  t.equal(await text.text(), 'plain 42');
  t.match(text.headers.get('content-type'), /text\/plain/);
  const bird = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Tweety', kind: 'bird' }) });
  t.same(await bird.json(), { rank: 'body', name: 'Tweety' });
});

t.test('MOCK_RESPONSE_TEMPLATE_EXPAND=true and examples in the description', async (t) => {
  const dir = t.testdir({
    'api.yaml': [
      'openapi: 3.0.3',
      'info: {title: t, version: "1"}',
      'paths:',
      '  /users/{id}:',
      '    get:',
      '      parameters: [{name: id, in: path, required: true, schema: {type: string}}]',
      '      responses:',
      '        "200":',
      '          description: ok',
      '          content:',
      '            application/json:',
      '              example: {id: "{{request.path.id}}", token: "{{uuid}}"}',
    ].join('\n'),
  });
  // one build for both servers: the second finds it fresh
  const examplesOut = tmpdir();
  const off = await startMock(['--spec', path.join(dir, 'api.yaml'), '--out', examplesOut]);
  t.same(await fetch(`${off.url}/users/u1`).then((r) => r.json()), { id: '{{request.path.id}}', token: '{{uuid}}' });
  await off.stop();
  const on = await startMock(['--spec', path.join(dir, 'api.yaml'), '--out', examplesOut], { env: { MOCK_RESPONSE_TEMPLATE_EXPAND: 'true' } });
  const body = await fetch(`${on.url}/users/u1`).then((r) => r.json());
  await on.stop();
  t.equal(body.id, 'u1');
  t.match(body.token, /^[0-9a-f-]{36}$/);
});

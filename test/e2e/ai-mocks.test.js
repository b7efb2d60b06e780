// AI-assisted mocks (issue 41 item 4, docs/ai.md) through `mock serve` as a user runs it: a fake
// OpenAI-compatible endpoint started here (node:http answering chat.completions JSON) counts its
// calls, keeps the request bodies it got, and can be told to answer a valid pet, a pet that breaks
// the schema, garbage, or to stall. Covered routes get the model's answer (X-Mock-Source: ai) when
// it is valid and in time, the ordinary generated answer otherwise; identical requests come from
// the cache; uncovered routes never reach the endpoint; the key never reaches a log.
import t from 'tap';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, root, runCli, startMock, tmpdir } from '../helpers/cli.js';

const spec = path.join(root, 'examples', 'petstore.yaml');
const API_KEY = 'sk-test-SECRET-4f1c9a';
const CLIENT_TOKEN = 'client-bearer-XYZ-77';
const TIMEOUT_MS = 800;

/** The fake model: `mode` says how it answers the next calls. */
function fakeModel() {
  const fake = { mode: 'ok', calls: 0, bodies: [], authorizations: [], counter: 0 };
  const stalled = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      fake.calls++;
      fake.bodies.push(text);
      fake.authorizations.push(req.headers.authorization);
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      if (fake.mode === 'stall') {
        stalled.push(res);
        return;
      }
      fake.counter++;
      const content = {
        ok: () => JSON.stringify({ id: 4000 + fake.counter, name: `AI-Pet-${fake.counter}`, kind: 'dog', created_at: '2025-03-01T12:00:00Z' }),
        list: () => JSON.stringify([{ id: 1, name: `AI-List-${fake.counter}`, kind: 'bird', created_at: '2025-03-01T12:00:00Z' }]),
        invalid: () => JSON.stringify({ id: 'not a number', name: 'AI-Broken' }),
        garbage: () => 'Sure! Here is a pet: {id: 1, name',
      }[fake.mode]();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  fake.listen = () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/v1`)));
  fake.close = () => {
    for (const res of stalled) res.destroy();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return fake;
}

const out = await buildOnce(spec);

t.test('a covered route is answered by the model, checked, cached, and falls back to the generator', async (t) => {
  const fake = fakeModel();
  const endpoint = await fake.listen();
  t.teardown(() => fake.close());
  const dir = tmpdir();
  const log = path.join(dir, 'mock.log');
  mkdirSync(path.join(dir, 'fixtures', 'http'), { recursive: true });
  // a fixture of the same operation (another pet): --rag-provider fixtures puts it in the prompt
  const fixture = {
    fingerprint: { method: 'GET', path: '/v1/pets/77', query_params: {}, headers: {} },
    status_code: 200,
    response_headers: { 'content-type': 'application/json' },
    response_body: JSON.stringify({ id: 77, name: 'Fixture-Rex', kind: 'dog', created_at: '2024-05-01T00:00:00Z' }),
    metadata: {},
  };
  writeFileSync(path.join(dir, 'fixtures', 'http', 'pet-77.json'), JSON.stringify(fixture));
  const config = path.join(dir, 'mock.yaml');
  writeFileSync(
    config,
    [
      `logging: { level: debug, file: ${JSON.stringify(log)} }`,
      'core: { fixtures: { dir: ./fixtures } }',
      'ai:',
      `  endpoint: ${endpoint}`,
      '  model: fake-model',
      `  timeout_ms: ${TIMEOUT_MS}`,
      '  rules:',
      "    - endpoint: 'GET /pets/{petId}'",
      '      rules: [Pet names start with AI-, Only dogs]',
    ].join('\n'),
  );
  const server = await startMock(['--spec', spec, '--http-port', '0', '--host', '127.0.0.1', '--out', out, '-c', config, '--ai-enabled', '--rag-provider', 'fixtures'], {
    cwd: dir,
    env: { MOCK_AI_API_KEY: API_KEY },
  });
  t.teardown(() => server.stop());
  const get = (p, headers = {}) => fetch(`${server.url}/v1${p}`, { headers });

  await t.test('the model answers, valid, marked with its source', async (t) => {
    const res = await get('/pets/5', { authorization: `Bearer ${CLIENT_TOKEN}` });
    t.equal(res.status, 200);
    t.equal(res.headers.get('x-mock-source'), 'ai');
    t.match(res.headers.get('content-type'), /^application\/json/);
    const body = await res.json();
    t.same(body, { id: 4001, name: 'AI-Pet-1', kind: 'dog', created_at: '2025-03-01T12:00:00Z' });
    t.equal(fake.calls, 1, 'one call to the endpoint');
    t.equal(fake.authorizations[0], `Bearer ${API_KEY}`, 'the key from MOCK_AI_API_KEY is sent to the endpoint');
    const request = JSON.parse(fake.bodies[0]);
    t.equal(request.model, 'fake-model');
    const prompt = request.messages.map((m) => m.content).join('\n');
    t.match(prompt, 'GET /v1/pets/{petId}', 'the operation');
    t.match(prompt, '"petId":5', 'the request parameters');
    t.match(prompt, '"created_at"', 'the response schema');
    t.match(prompt, 'Pet names start with AI-', 'the rules');
    t.match(prompt, 'Fixture-Rex', 'the fixture of the same operation (--rag-provider fixtures)');
    t.notMatch(prompt, CLIENT_TOKEN, "the client's credentials are not in the prompt");
  });

  await t.test('an identical request is answered from the cache', async (t) => {
    const res = await get('/pets/5');
    t.equal(res.headers.get('x-mock-source'), 'ai');
    t.equal((await res.json()).name, 'AI-Pet-1');
    t.equal(fake.calls, 1, 'the endpoint was not asked again');
  });

  const ordinary = async (t, p) => {
    const res = await get(p);
    t.equal(res.status, 200);
    t.equal(res.headers.get('x-mock-source'), null, 'not marked as the model answer');
    const body = await res.json();
    t.type(body.id, 'number', 'a valid pet: its id is an integer');
    t.type(body.name, 'string');
    t.ok(['cat', 'dog', 'bird'].includes(body.kind), 'a valid pet: its kind is one of the enum');
    t.notMatch(body.name, /^AI-/);
  };

  await t.test('an answer that breaks the response schema: the ordinary generated answer', async (t) => {
    fake.mode = 'invalid';
    await ordinary(t, '/pets/6');
    t.equal(fake.calls, 2);
  });

  await t.test('garbage: the ordinary generated answer', async (t) => {
    fake.mode = 'garbage';
    await ordinary(t, '/pets/7');
    t.equal(fake.calls, 3);
  });

  await t.test('a stalled endpoint: the ordinary answer within the time-out and a small margin', async (t) => {
    fake.mode = 'stall';
    const started = Date.now();
    await ordinary(t, '/pets/8');
    const took = Date.now() - started;
    t.ok(took >= TIMEOUT_MS - 50 && took < TIMEOUT_MS + 1500, `answered after ${took} ms (ai.timeout_ms ${TIMEOUT_MS})`);
    t.equal(fake.calls, 4);
  });

  await t.test('uncovered routes never call the endpoint', async (t) => {
    fake.mode = 'ok';
    const list = await get('/pets');
    t.equal(list.status, 200);
    t.equal(list.headers.get('x-mock-source'), null);
    t.equal((await get('/health')).status, 200);
    const created = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n', kind: 'cat' }) });
    t.equal(created.status, 201);
    t.equal(fake.calls, 4, 'no call for GET /pets, GET /health, POST /pets');
  });

  await t.test('a request that asks for a documented example (Prefer) or for XML gets the ordinary answer', async (t) => {
    const preferred = await get('/pets/9', { prefer: 'example=dog' });
    t.equal(preferred.headers.get('x-mock-source'), null);
    t.equal((await preferred.json()).name, 'Rex', 'the example it asked for');
    const xml = await get('/pets/9', { accept: 'application/xml' });
    t.match(xml.headers.get('content-type'), /xml/);
    t.equal(fake.calls, 4, 'the model was not asked');
  });

  await t.test('a request validation refuses is refused, not sent to the model', async (t) => {
    const res = await get('/pets/0');
    t.equal(res.status, 400);
    t.equal(fake.calls, 4);
  });

  await t.test('the key never reaches the logs', async (t) => {
    // the log file is written asynchronously
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = readFileSync(log, 'utf8');
    t.ok(written.length > 0, 'the log file has lines');
    t.match(written, /ai: GET \/v1\/pets\/\{petId\} answered by the generator/, 'the fallback is logged');
    t.notMatch(written, API_KEY, 'not in the log file');
    t.notMatch(server.stdout + server.stderr, API_KEY, 'not in the output');
    const shown = await runCli(['config', 'show', '-c', config], { cwd: dir, env: { MOCK_AI_API_KEY: API_KEY } });
    t.notMatch(shown.stdout + shown.stderr, API_KEY, 'mock config show does not print it');
  });
});

t.test('all_generated_routes with --rag-provider recorder: every operation, with recorded answers as examples', async (t) => {
  const fake = fakeModel();
  const endpoint = await fake.listen();
  t.teardown(() => fake.close());
  const dir = tmpdir();
  const config = path.join(dir, 'mock.yaml');
  writeFileSync(config, `ai: { endpoint: ${endpoint}, model: m, all_generated_routes: true, timeout_ms: 3000 }\n`);
  const server = await startMock(['--spec', spec, '--out', out, '-c', config, '--ai-enabled', '--rag-provider', 'recorder', '--recorder', '--recorder-db', path.join(dir, 'rec.db')], { cwd: dir });
  t.teardown(() => server.stop());
  const first = await fetch(`${server.url}/v1/pets/3`);
  t.equal(first.headers.get('x-mock-source'), 'ai');
  t.equal((await first.json()).name, 'AI-Pet-1');
  // the recorder writes on its own thread: the listing sends what is queued first
  const second = await fetch(`${server.url}/v1/pets/4`);
  t.equal((await second.json()).name, 'AI-Pet-2');
  const prompt = JSON.parse(fake.bodies[1])
    .messages.map((m) => m.content)
    .join('\n');
  t.match(prompt, 'AI-Pet-1', 'the recorded answer of the same operation is an example');
  fake.mode = 'invalid';
  const list = await fetch(`${server.url}/v1/pets`);
  t.equal(list.status, 200);
  t.equal(fake.calls, 3, 'GET /pets is covered too');
  t.ok(Array.isArray(await list.json()), 'its invalid model answer fell back to the generated list');
});

t.test('the scenario in use names operations by its mockai_rules', async (t) => {
  const fake = fakeModel();
  fake.mode = 'list';
  const endpoint = await fake.listen();
  t.teardown(() => fake.close());
  const dir = tmpdir();
  const scenario = path.join(dir, '.mock', 'scenarios', 'zoo');
  mkdirSync(scenario, { recursive: true });
  writeFileSync(path.join(scenario, 'config.yaml'), '');
  writeFileSync(path.join(scenario, 'scenario.yaml'), 'name: zoo\nversion: 1.0.0\nmockai_rules:\n  - endpoint: /pets\n    rules: Only birds\n');
  writeFileSync(path.join(dir, '.mock', 'active-scenario.json'), JSON.stringify({ name: 'zoo', version: '1.0.0', dir: '.mock/scenarios/zoo' }));
  const config = path.join(dir, 'mock.yaml');
  writeFileSync(config, `ai: { endpoint: ${endpoint}, model: m }\n`);
  const server = await startMock(['--spec', spec, '--out', out, '-c', config, '--ai-enabled'], { cwd: dir });
  t.teardown(() => server.stop());
  const res = await fetch(`${server.url}/v1/pets`);
  t.equal(res.headers.get('x-mock-source'), 'ai');
  t.same(await res.json(), [{ id: 1, name: 'AI-List-1', kind: 'bird', created_at: '2025-03-01T12:00:00Z' }]);
  t.match(JSON.parse(fake.bodies[0]).messages[1].content, '- Only birds', "the scenario's rules are in the prompt");
  const created = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n', kind: 'cat' }) });
  t.equal(created.status, 201);
  t.equal(fake.calls, 2, '/pets names every method: POST /pets is asked too');
});

t.test('--ai-enabled without an endpoint: a one-line error, exit code non-zero', async (t) => {
  const dir = tmpdir();
  const res = await runCli(['serve', '--spec', spec, '--http-port', '0', '--host', '127.0.0.1', '--out', out, '--ai-enabled'], { cwd: dir });
  t.not(res.code, 0);
  const lines = res.stderr.trim().split('\n');
  t.equal(lines.length, 1, res.stderr);
  t.match(lines[0], /--ai-enabled needs ai\.endpoint \(MOCK_AI_ENDPOINT\) and ai\.model \(MOCK_AI_MODEL\)/);
  t.equal(res.stdout.includes('serving on'), false, 'nothing was served');
});

t.test('--rag-provider recorder without the recorder: a one-line error', async (t) => {
  const dir = tmpdir();
  const res = await runCli(['serve', '--spec', spec, '--http-port', '0', '--out', out, '--ai-enabled', '--rag-provider', 'recorder'], {
    cwd: dir,
    env: { MOCK_AI_ENDPOINT: 'http://127.0.0.1:9/v1', MOCK_AI_MODEL: 'm' },
  });
  t.not(res.code, 0);
  t.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
  t.match(res.stderr, /--rag-provider recorder reads the recorder database: add --recorder/);
});

// mock contract-diff analyze: captures from every source (JSON, JSON Lines, HAR streamed, a
// recordings database, a fixtures folder) held against a description built from the corpus
// petstore, each mismatch kind reported with its location and JSON pointer, confidence rising with
// observations, --fail-on exit codes and one-line errors (exit 2) for inputs it cannot read.
import { readFileSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { corpus, root, runMock, startMock } from '../helpers/cli.js';
import { plainNode } from '../helpers/plain-node.js';

const source = path.join(corpus, 'openapi', 'oai-v3.0-petstore-expanded.yaml');

/** The corpus petstore (mounted under /v2) made strict enough to show every kind. */
function project(t) {
  const dir = t.testdir({});
  const doc = parse(readFileSync(source, 'utf8'));
  doc.paths['/pets'].get.parameters.push({ name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string' } });
  // the request body only: Pet extends NewPet with allOf, which additionalProperties would break
  const strict = structuredClone(doc.components.schemas.NewPet);
  strict.additionalProperties = false;
  strict.properties.name.minLength = 1;
  doc.components.schemas.StrictNewPet = strict;
  doc.paths['/pets'].post.requestBody.content['application/json'].schema = { $ref: '#/components/schemas/StrictNewPet' };
  delete doc.paths['/pets/{id}'].get.responses.default;
  writeFileSync(path.join(dir, 'api.yaml'), stringify(doc));
  return dir;
}

const json = { 'content-type': 'application/json' };
const CAPTURES = [
  { id: 'clean', method: 'GET', path: '/v2/pets', query_params: { limit: '10' }, headers: { 'X-Request-Id': 'a' }, response: { status: 200, headers: json, body: [{ id: 1, name: 'a' }] } },
  { id: 'header', method: 'GET', path: '/v2/pets?limit=3', headers: {} },
  { id: 'param', method: 'GET', path: '/v2/pets', query_params: { limit: 'ten' }, headers: { 'x-request-id': 'b' } },
  { id: 'missing', method: 'POST', path: '/v2/pets', body: { tag: 'x' } },
  { id: 'type', method: 'POST', path: '/v2/pets', body: { name: 5 } },
  { id: 'unknown', method: 'POST', path: '/v2/pets', body: { name: 'a', colour: 'red' } },
  { id: 'schema', method: 'POST', path: '/v2/pets', body: { name: '' } },
  { id: 'media', method: 'POST', path: '/v2/pets', headers: { 'content-type': 'text/plain' }, body: 'hi' },
  { id: 'unparsed', method: 'POST', path: '/v2/pets', headers: json, body: '{not json' },
  { id: 'method', method: 'PUT', path: '/v2/pets' },
  { id: 'endpoint', method: 'GET', path: '/v2/owners' },
  { id: 'status', method: 'GET', path: '/v2/pets/1', response: { status: 418, headers: {}, body: 'teapot' } },
  { id: 'answer', method: 'GET', path: '/v2/pets/1', response: { status: 200, headers: json, body: { id: 'one', name: 'x' } } },
];

const analyze = (dir, requestPath, ...args) => runMock(['contract-diff', 'analyze', '--spec', 'api.yaml', '--request-path', requestPath, ...args], { cwd: dir });

t.test('each mismatch kind, with its location and JSON pointer (JSON file)', async (t) => {
  const dir = project(t);
  writeFileSync(path.join(dir, 'captures.json'), JSON.stringify(CAPTURES));
  const { code, stdout, stderr } = await analyze(dir, 'captures.json', '--format', 'json');
  t.equal(code, 0, stderr);
  const report = JSON.parse(stdout);
  t.match(report, { captures: 13, matched: 11, clean: 1, min_sample: 5, groups_dropped: 0 });
  const kinds = Object.fromEntries(report.groups.map((g) => [g.capture_ids[0], g]));
  const expect = {
    header: { type: 'missing_header', location: 'request.header', field: '/x-request-id', severity: 'high', operation: 'GET /v2/pets' },
    param: { type: 'invalid_parameter', location: 'request.query', field: '/limit', severity: 'medium', keyword: 'type' },
    missing: { type: 'missing_field', location: 'request.body', field: '/name', severity: 'high', operation: 'POST /v2/pets' },
    type: { type: 'type_mismatch', location: 'request.body', field: '/name', keyword: 'type' },
    unknown: { type: 'unknown_field', location: 'request.body', field: '/colour', severity: 'low', keyword: 'additionalProperties' },
    schema: { type: 'schema_mismatch', location: 'request.body', field: '/name', keyword: 'minLength', severity: 'medium' },
    media: { type: 'invalid_content_type', location: 'request.header', field: '/content-type' },
    unparsed: { type: 'invalid_body', location: 'request.body', keyword: 'parse' },
    method: { type: 'invalid_method', location: 'request.method', operation: 'PUT /v2/pets' },
    endpoint: { type: 'missing_endpoint', location: 'request.path', operation: 'GET /v2/owners', severity: 'high' },
    status: { type: 'undocumented_status', location: 'response.status', operation: 'GET /v2/pets/{id}' },
    answer: { type: 'type_mismatch', location: 'response.body', field: '/id' },
  };
  for (const [id, expected] of Object.entries(expect)) t.match(kinds[id], expected, id);
  t.notOk(kinds.clean, 'the clean capture has no mismatch');
  t.equal(report.recommendations.length, report.groups.length, 'one recommendation a group');
  t.match(
    report.recommendations.find((r) => r.type === 'missing_endpoint'),
    {
      message: /possibly drift: 1 of 1 captures of GET \/v2\/owners/,
      confidence: 0.2,
      likely: false,
      suggested_fix: 'add the path /owners (under /v2) with a get operation to paths, or stop calling it',
    },
  );
  t.same(report.by_severity, { high: 7, medium: 4, low: 1 });
  const text = await analyze(dir, 'captures.json');
  t.match(text.stdout, /^captures\.json: 13 captures, 11 matched an operation, 1 clean: 12 mismatches \(7 high, 4 medium, 1 low\) in 12 groups\n/);
  const markdown = await analyze(dir, 'captures.json', '--format', 'markdown');
  t.match(markdown.stdout, /^## Contract drift: captures\.json\n\n13 captures/);
  t.match(markdown.stdout, /\| high \| `missing_header` \| `GET \/v2\/pets` \| `request.header\/x-request-id` \| 1\/3 \|/);
});

t.test('confidence rises with observations that agree; likely from min_sample on', async (t) => {
  const dir = project(t);
  const drifting = { method: 'POST', path: '/v2/pets', body: { name: 5 } };
  const fine = { method: 'POST', path: '/v2/pets', body: { name: 'rex' } };
  const confidence = async (captures) => {
    writeFileSync(path.join(dir, 'c.jsonl'), captures.map((c) => JSON.stringify(c)).join('\n'));
    const { code, stdout, stderr } = await analyze(dir, 'c.jsonl', '--format', 'json');
    t.equal(code, 0, stderr);
    return JSON.parse(stdout).recommendations[0];
  };
  t.match(await confidence([drifting]), { confidence: 0.2, likely: false });
  t.match(await confidence([drifting, drifting, drifting]), { confidence: 0.6, likely: false });
  t.match(await confidence(Array(6).fill(drifting)), { confidence: 1, likely: true, message: /^likely drift: 6 of 6 captures/ });
  t.match(await confidence([...Array(3).fill(drifting), ...Array(7).fill(fine)]), { confidence: 0.3, likely: false }, 'three in ten agree');
  const owners = ['17', '42', 'c0ffee00-0000-4000-8000-000000000001'].map((id) => ({ method: 'GET', path: `/v2/owners/${id}/pets` }));
  t.match(await confidence(owners), { operation: 'GET /v2/owners/{id}/pets', type: 'missing_endpoint', confidence: 0.6 }, 'calls of one missing endpoint with different ids are one group');
});

t.test('--fail-on: exit 1 at that severity or worse', async (t) => {
  const dir = project(t);
  writeFileSync(path.join(dir, 'low.json'), JSON.stringify(CAPTURES.find((c) => c.id === 'unknown')));
  t.equal((await analyze(dir, 'low.json', '--fail-on', 'high')).code, 0, 'a low mismatch passes --fail-on high');
  t.equal((await analyze(dir, 'low.json', '--fail-on', 'medium')).code, 0);
  t.equal((await analyze(dir, 'low.json', '--fail-on', 'low')).code, 1);
  const explained = await analyze(dir, 'low.json', '--llm-provider', 'http://127.0.0.1:9/v1', '--llm-model', 'small');
  t.equal(explained.code, 0, 'an endpoint that refuses never fails the analysis');
  t.match(explained.stderr, /^mock: LLM explanations: 1 of 1 groups? without one \(http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions: /m);
  writeFileSync(path.join(dir, 'clean.json'), JSON.stringify(CAPTURES[0]));
  const clean = await analyze(dir, 'clean.json', '--fail-on', 'low');
  t.equal(clean.code, 0);
  t.equal(clean.stdout, 'clean.json: 1 capture, 1 matched an operation, 1 clean: no mismatches\n');
});

t.test('a HAR file of several MB is streamed entry by entry', async (t) => {
  const dir = project(t);
  const file = path.join(dir, 'traffic.har');
  const entries = [];
  const padding = 'x'.repeat(200);
  for (let i = 0; i < 12_000; i++) {
    const drift = i % 4 === 0;
    entries.push({
      startedDateTime: new Date(0).toISOString(),
      time: 1,
      request: {
        method: 'POST',
        url: `https://petstore.example/v2/pets`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        queryString: [],
        postData: { mimeType: 'application/json', text: JSON.stringify(drift ? { name: i } : { name: `pet-${i}`, tag: padding }) },
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: 'application/json', text: JSON.stringify({ id: i, name: 'p' }) },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
  }
  // what a browser records besides HTTP: left out, and said so
  for (const url of ['data:image/png;base64,iVBORw0KGgo=', 'data:text/plain,hi']) entries.push({ ...entries[1], request: { ...entries[1].request, method: 'GET', url, postData: undefined } });
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }));
  t.ok(statSync(file).size > 3_000_000, `${statSync(file).size} bytes`);
  const { code, stdout, stderr } = await analyze(dir, 'traffic.har', '--format', 'json');
  t.equal(code, 0, stderr);
  t.equal(stderr, 'mock: left out 2 HAR entries of data: URLs (not HTTP)\n');
  const report = JSON.parse(stdout);
  t.match(report, { captures: 12_000, matched: 12_000, clean: 9_000, mismatches: 3_000 });
  t.match(report.groups, [{ type: 'type_mismatch', operation: 'POST /v2/pets', field: '/name', count: 3_000, observations: 12_000, capture_ids: ['har#0', 'har#4', 'har#8', 'har#12', 'har#16'] }]);
  t.match(report.recommendations[0], { confidence: 0.25, likely: false });

  // the reader the command uses, in a process of its own with the collector at hand: the heap while entries
  // stream stays about where it was before the first (a file parsed whole would hold all its entries at once)
  const script = `
    const { readCaptures } = await import(${JSON.stringify(path.join(root, 'dist/src/drift/analyze/index.js'))});
    const { readCapture } = await import(${JSON.stringify(path.join(root, 'dist/runtime/index.js'))});
    gc();
    const before = process.memoryUsage().heapUsed;
    let n = 0, growth = 0;
    for await (const capture of readCaptures(${JSON.stringify(file)}, 'traffic.har', readCapture)) {
      if (++n % 1000 === 0) { gc(); growth = Math.max(growth, process.memoryUsage().heapUsed - before); }
    }
    console.log(JSON.stringify({ n, growth }));`;
  const child = spawnSync(...plainNode(['--expose-gc', '--input-type=module', '-e', script]), { encoding: 'utf8' });
  t.equal(child.status, 0, child.stderr);
  const { n, growth } = JSON.parse(child.stdout);
  t.equal(n, 12_000);
  t.ok(growth < 3_000_000, `the heap grew by at most ${growth} bytes while ${statSync(file).size} bytes of entries streamed`);
});

t.test('a recordings database of mock serve --recorder', async (t) => {
  const dir = project(t);
  const db = path.join(dir, 'rec.db');
  const server = await startMock(['--spec', 'api.yaml', '--out', path.join(dir, 'out'), '--recorder', '--recorder-db', db], { cwd: dir });
  const send = (method, p, body, headers = {}) =>
    fetch(server.url + p, { method, headers: { connection: 'close', ...headers, ...(body === undefined ? {} : json) }, body: body === undefined ? undefined : JSON.stringify(body) }).then(
      (r) => r.status,
    );
  t.same([await send('GET', '/v2/pets', undefined, { 'x-request-id': 'r' }), await send('POST', '/v2/pets', { name: 'rex' }), await send('GET', '/v2/unknown')], [200, 200, 404]);
  t.equal(await server.stop(), 0);
  // the served description, and one where an answer field changed type: the mock's answers drift from it
  const doc = parse(readFileSync(path.join(dir, 'api.yaml'), 'utf8'));
  doc.components.schemas.Pet.allOf[1].properties.id = { type: 'string' };
  writeFileSync(path.join(dir, 'v2.yaml'), stringify(doc));
  const served = await analyze(dir, db, '--format', 'json');
  t.equal(served.code, 0, served.stderr);
  const report = JSON.parse(served.stdout);
  t.match(report, { captures: 3, matched: 2, clean: 2 });
  t.match(report.groups, [{ type: 'missing_endpoint', operation: 'GET /v2/unknown', capture_ids: ['recording#3'] }]);
  const changed = await runMock(['contract-diff', 'analyze', '--spec', 'v2.yaml', '--request-path', db, '--format', 'json'], { cwd: dir });
  const groups = JSON.parse(changed.stdout).groups;
  t.match(
    groups.filter((g) => g.location === 'response.body'),
    [
      { type: 'type_mismatch', operation: 'GET /v2/pets', field: '/*/id', count: 1, capture_ids: ['recording#1'] },
      { type: 'type_mismatch', operation: 'POST /v2/pets', field: '/id', capture_ids: ['recording#2'] },
    ],
  );
});

t.test('a fixtures folder', async (t) => {
  const dir = project(t);
  const fixture = (name, method, p, status, body, request = {}) =>
    writeFileSync(
      path.join(dir, 'fixtures', 'http', name),
      JSON.stringify({ fingerprint: { method, path: p, query_params: {}, headers: {} }, status_code: status, response_headers: json, response_body: JSON.stringify(body), metadata: {}, request }),
    );
  mkdirSync(path.join(dir, 'fixtures', 'http'), { recursive: true });
  fixture('a.json', 'GET', '/v2/pets/7', 200, { id: 7, name: 'ok' });
  fixture('b.json', 'GET', '/v2/pets/8', 200, { id: 8 });
  fixture('c.json', 'POST', '/v2/pets', 200, { id: 9, name: 'n' }, { headers: json, body: JSON.stringify({ name: 'n', extra: 1 }) });
  for (const given of ['fixtures', 'fixtures/http']) {
    const { code, stdout, stderr } = await analyze(dir, given, '--format', 'json');
    t.equal(code, 0, stderr);
    const report = JSON.parse(stdout);
    t.match(report, { captures: 3, matched: 3, clean: 1 }, given);
    t.match(
      report.groups.map((g) => [g.type, g.location, g.field, g.capture_ids[0]]),
      [
        ['missing_field', 'response.body', '/name', 'fixture:http/b.json'],
        ['unknown_field', 'request.body', '/extra', 'fixture:http/c.json'],
      ],
    );
  }
});

t.test('bad inputs: one line naming the input and the fix, exit 2', async (t) => {
  const dir = project(t);
  writeFileSync(path.join(dir, 'bad-capture.json'), JSON.stringify([CAPTURES[0], { method: 'GET' }]));
  writeFileSync(path.join(dir, 'not-json.json'), '[{"method": "GET", "path": "/v2/pets"}, {oops');
  writeFileSync(path.join(dir, 'notes.txt'), 'hello\n');
  writeFileSync(path.join(dir, 'empty.har'), JSON.stringify({ log: { version: '1.2', entries: [] } }));
  mkdirSync(path.join(dir, 'nothing'));
  const fails = async (requestPath, pattern) => {
    const { code, stdout, stderr } = await analyze(dir, requestPath);
    t.equal(code, 2, `${requestPath}: exit 2`);
    t.equal(stdout, '');
    t.equal(stderr.trimEnd().split('\n').length, 1, stderr);
    t.match(stderr, pattern);
  };
  await fails('missing.json', /--request-path missing\.json: no such file or folder; give a JSON file/);
  await fails('bad-capture.json', /--request-path bad-capture\.json: capture 2: path must be a string starting with '\/'/);
  await fails('not-json.json', /--request-path not-json\.json is not valid JSON \(Parser cannot parse input: expected an object key\); give a JSON file/);
  await fails('notes.txt', /--request-path notes\.txt is neither JSON nor a recordings database/);
  await fails('empty.har', /the HAR file has no log\.entries/);
  await fails('nothing', /--request-path nothing holds no fixture files/);
  const missingFlag = await runMock(['contract-diff', 'analyze', '--spec', 'api.yaml'], { cwd: dir });
  t.equal(missingFlag.code, 2);
  t.match(missingFlag.stderr, /Missing required flag request-path/);
});

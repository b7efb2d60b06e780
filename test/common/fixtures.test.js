// common/fixtures: the file's lint, fingerprint keys under the rules, conflicts, rekeying, HAR
// export and import, adding fixtures beside others, and smoke runs with their JUnit report.
import t from 'tap';
import http from 'node:http';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  CREDENTIAL_SECRETS,
  addFixtures,
  applyRekey,
  credentialSecrets,
  currentFingerprint,
  fingerprintKey,
  fingerprintOf,
  fingerprintRules,
  fixtureConflicts,
  fixtureFileName,
  fixtureText,
  fromHar,
  parseFixture,
  planRekey,
  queryMap,
  readFixtureDir,
  responseBodyOf,
  runSmoke,
  smokeJunit,
  storedBody,
  toHar,
} from '../../dist/common/fixtures/index.js';
import { REDACTED } from '../../dist/common/redacted.js';
import { fixture } from '../helpers/fixtures.js';

const rules = (options = {}) => fingerprintRules({ ignore_query_params: [], match_headers: [], match_body: false, ...options });


/** A fixture folder with the given files below http/, read back as FixtureFiles. */
function folder(t, files) {
  const dir = t.testdir({ http: Object.fromEntries(Object.entries(files).map(([name, f]) => [name, typeof f === 'string' ? f : fixtureText(f)])) });
  return { dir, ...readFixtureDir(dir) };
}

const bytesOf = (f) => Buffer.from(responseBodyOf(f));

t.test('lint: every problem of a file at once, by field; a good file reads back', async (t) => {
  const broken = JSON.stringify({
    fingerprint: { method: 'GE T', path: 'v1/pets?x=1', query_params: { a: 1 } },
    timestamp: 'yesterday',
    status_code: 700,
    response_body: 'not base64!',
    metadata: { smoke_test: true, body_encoding: 'base64', sequence: '0' },
    extra: 1,
  });
  const { fixture: none, problems } = parseFixture(broken, 'x.json');
  t.equal(none, undefined);
  t.same(problems.map((p) => p.field).sort(), [
    'extra',
    'fingerprint.method',
    'fingerprint.path',
    'fingerprint.query_params',
    'metadata',
    'metadata.sequence',
    'metadata.smoke_test',
    'response_body',
    'status_code',
    'timestamp',
  ]);
  t.ok(problems.every((p) => p.file === 'x.json' && p.message.length > 10));
  t.match(parseFixture('{', 'y.json').problems, [{ field: '', message: /not valid JSON/ }]);

  const good = parseFixture(fixtureText(fixture({ response_headers: { 'Content-Type': 'text/plain' } })), 'z.json');
  t.same(good.problems, []);
  t.same(good.fixture.response_headers, { 'content-type': 'text/plain' }, 'header names read in lower case');
});

t.test('fingerprint keys: ignored query parameters and selected headers', async (t) => {
  const input = (query, headers = {}) => ({ method: 'get', path: '/v1/pets', query: queryMap(query), headers });
  const plain = rules();
  const ignoring = rules({ ignore_query_params: ['_T', 'cb'] });
  const key = (query, r, headers) => fingerprintKey(fingerprintOf(input(query, headers), r), r);
  t.not(key('limit=10&_t=1', plain), key('limit=10&_t=2', plain), 'without rules a cache buster separates requests');
  t.equal(key('limit=10&_t=1', ignoring), key('limit=10&_t=2', ignoring), 'ignored in any case');
  t.equal(key('limit=10', ignoring), key('limit=10&cb=9', ignoring));
  t.not(key('limit=10', ignoring), key('limit=20', ignoring), 'other parameters still count');
  t.equal(key('a=1&b=2', plain), key('b=2&a=1', plain), 'parameter order does not matter');

  const tenant = rules({ match_headers: ['X-Tenant'] });
  t.not(key('', tenant, { 'x-tenant': 'a' }), key('', tenant, { 'x-tenant': 'b' }), 'a selected header counts');
  t.equal(key('', tenant, { 'x-tenant': 'a', accept: 'x' }), key('', tenant, { 'x-tenant': 'a', accept: 'y' }), 'others do not');
  const secrets = { header: (n) => n === 'authorization', query: (n) => n === 'api_key' };
  const auth = rules({ match_headers: ['authorization'] });
  const fp = fingerprintOf({ ...input('api_key=s3cret&q=1', { authorization: 'Bearer abc' }) }, auth, secrets);
  t.same(fp.headers, { authorization: REDACTED });
  t.same(fp.query_params, { api_key: REDACTED, q: '1' }, 'secrets are stored redacted: they match by presence');

  // the fingerprint is made again from the recorded request: a parameter ignored when recording comes back
  const recorded = fixture({ fingerprint: { method: 'GET', path: '/v1/pets', query_params: { limit: '10' }, headers: {} }, request: { query: 'limit=10&_t=5', headers: { 'x-tenant': 'a' } } });
  t.same(currentFingerprint(recorded, plain).query_params, { limit: '10', _t: '5' });
  t.same(currentFingerprint(recorded, tenant).headers, { 'x-tenant': 'a' });
  t.same(currentFingerprint(fixture(), tenant), fixture().fingerprint, 'without a recorded request: the stored fingerprint');
});

t.test('conflicts: the same fingerprint and sequence in two files, under the rules in force', async (t) => {
  const a = fixture({ request: { query: 'limit=1&_t=1' } });
  const b = fixture({ request: { query: 'limit=1&_t=2' } });
  const { fixtures } = folder(t, { 'a.json': a, 'b.json': b, 'c.json': fixture({ request: { query: 'limit=1&_t=3' }, metadata: { sequence: '2' } }) });
  t.same(fixtureConflicts(fixtures, rules()), [], 'different cache busters: different fingerprints');
  const conflicts = fixtureConflicts(fixtures, rules({ ignore_query_params: ['_t'] }), (file) => path.basename(file));
  t.equal(conflicts.length, 1, 'c.json is sequence 2: no conflict');
  t.match(conflicts[0], { file: /b\.json$/, field: 'fingerprint', message: /sequence 1 as a\.json/ });
});

t.test('rekey: sequences that now share a fingerprint merge in order, generated names follow, warnings for unrecorded headers', async (t) => {
  const old = rules();
  const name = (f, seq) => fixtureFileName(f.fingerprint, fingerprintKey(f.fingerprint, old), seq);
  const at = (query, timestamp, extra = {}) =>
    fixture({ fingerprint: { method: 'GET', path: '/v1/pets', query_params: Object.fromEntries([...queryMap(query)].map(([k, v]) => [k, v[0]])), headers: {} }, timestamp, request: { query }, ...extra });
  const first1 = at('_t=1', '2025-01-01T00:00:01Z', { metadata: { sequence: '1' } });
  const first2 = at('_t=1', '2025-01-01T00:00:03Z', { metadata: { sequence: '2' } });
  const second1 = at('_t=2', '2025-01-01T00:00:02Z', { metadata: { sequence: '1' } });
  const { dir, fixtures } = folder(t, {
    [name(first1, 1)]: first1,
    [name(first2, 2)]: first2,
    [name(second1, 1)]: second1,
    'hand-named.json': fixture({ fingerprint: { method: 'GET', path: '/v1/other', query_params: {}, headers: {} } }),
  });
  const ignoring = rules({ ignore_query_params: ['_t'], match_headers: ['x-tenant'] });
  const plan = planRekey(fixtures, ignoring);
  t.same(plan.collisions, []);
  t.equal(plan.changes.length, 3);
  t.equal(plan.unchanged, 1, 'the hand-named fixture keeps its name and content');
  t.equal(plan.warnings.length, 4, 'no fixture holds x-tenant');
  t.match(plan.warnings[0], { field: 'fingerprint.headers', message: /x-tenant.*answers only requests without one/ });
  applyRekey(plan);

  const after = readFixtureDir(dir).fixtures.filter((f) => f.fixture.fingerprint.path === '/v1/pets');
  const key = fingerprintKey(currentFingerprint(first1, ignoring), ignoring);
  const order = after.map((f) => [path.basename(f.file), f.fixture.metadata.sequence, f.fixture.timestamp]).sort((a, b) => a[1] - b[1]);
  t.same(order, [
    [fixtureFileName(after[0].fixture.fingerprint, key, 1), '1', '2025-01-01T00:00:01Z'],
    [fixtureFileName(after[0].fixture.fingerprint, key, 2), '2', '2025-01-01T00:00:02Z'],
    [fixtureFileName(after[0].fixture.fingerprint, key, 3), '3', '2025-01-01T00:00:03Z'],
  ], 'sequence 1s before 2s, then by timestamp');
  t.same(after[0].fixture.fingerprint.query_params, {}, 'the ignored parameter left the fingerprint');
  t.same(after[0].fixture.request, { query: '_t=1' }, 'the recorded request is kept whole');
  t.ok(existsSync(path.join(dir, 'http', 'hand-named.json')));
  t.equal(readdirSync(path.join(dir, 'http')).length, 4, 'no file lost, no temporary left');
  t.same(planRekey(readFixtureDir(dir).fixtures, ignoring).changes, [], 'a second run changes nothing');
});

t.test('rekey never overwrites a file it does not move', async (t) => {
  const old = rules();
  const a = fixture({ request: { query: '_t=1' }, fingerprint: { method: 'GET', path: '/v1/pets', query_params: { _t: '1' }, headers: {} } });
  const ignoring = rules({ ignore_query_params: ['_t'] });
  const target = fixtureFileName(currentFingerprint(a, ignoring), fingerprintKey(currentFingerprint(a, ignoring), ignoring), 1);
  const { fixtures } = folder(t, { [fixtureFileName(a.fingerprint, fingerprintKey(a.fingerprint, old), 1)]: a, [target]: 'not a fixture' });
  const plan = planRekey(fixtures, ignoring);
  t.equal(plan.collisions.length, 1);
  t.equal(path.basename(plan.collisions[0].to), target);
  t.throws(() => applyRekey(plan), /would be overwritten/);
});

t.test('HAR: export then import gives byte-identical bodies, statuses and headers', async (t) => {
  const binary = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0x89, 0x50, 0x4e, 0x47]);
  const unicode = '{"name":"Zoë","city":"Kraków","greeting":"こんにちは","emoji":"🦊"}';
  const fixtures = [
    fixture({ fingerprint: { method: 'GET', path: '/img/logo.png', query_params: {}, headers: {} }, response_headers: { 'content-type': 'image/png', 'x-a': 'b' }, response_body: binary.toString('base64'), metadata: { body_encoding: 'base64', name: 'logo', smoke_test: 'true' } }),
    fixture({ fingerprint: { method: 'GET', path: '/v1/people/1', query_params: { lang: 'pl' }, headers: {} }, response_headers: { 'content-type': 'application/json; charset=utf-8', 'set-cookie': ['a=1; Path=/', 'b=2; HttpOnly'] }, response_body: unicode }),
    fixture({ fingerprint: { method: 'DELETE', path: '/v1/people/1', query_params: {}, headers: {} }, status_code: 204, response_headers: {}, response_body: '' }),
    fixture({
      fingerprint: { method: 'POST', path: '/v1/upload', query_params: {}, headers: {} },
      status_code: 201,
      request: { query: '', headers: { 'content-type': 'application/octet-stream' }, body: binary.toString('base64'), body_encoding: 'base64' },
    }),
  ];
  const har = JSON.parse(JSON.stringify(toHar(fixtures, 'http://localhost:3000/')));
  t.equal(har.log.version, '1.2');
  t.equal(har.log.creator.name, 'mock');
  const [png, person, deleted, upload] = har.log.entries;
  t.equal(png.request.url, 'http://localhost:3000/img/logo.png');
  t.match(png.response.content, { encoding: 'base64', mimeType: 'image/png', size: binary.length });
  t.equal(person.request.url, 'http://localhost:3000/v1/people/1?lang=pl');
  t.same(person.request.queryString, [{ name: 'lang', value: 'pl' }]);
  t.same(person.response.headers.filter((h) => h.name === 'set-cookie').map((h) => h.value), ['a=1; Path=/', 'b=2; HttpOnly'], 'set-cookie: one entry per cookie');
  t.equal(person.response.content.text, unicode);
  t.equal(person.response.content.size, Buffer.byteLength(unicode));
  t.equal(deleted.response.statusText, 'No Content');
  t.match(upload.request.postData, { mimeType: 'application/octet-stream', encoding: 'base64', text: binary.toString('base64') });
  for (const entry of har.log.entries) t.match(entry, { cache: {}, timings: { send: 0, wait: 0, receive: 0 }, request: { httpVersion: 'HTTP/1.1', headersSize: -1 } });

  const { fixtures: back, problems } = fromHar(har, rules());
  t.same(problems, []);
  t.equal(back.length, fixtures.length);
  back.forEach((f, i) => {
    t.ok(bytesOf(f).equals(bytesOf(fixtures[i])), `body ${i} is byte-identical`);
    t.equal(f.status_code, fixtures[i].status_code);
    t.same(f.response_headers, fixtures[i].response_headers, `headers ${i}`);
    t.same(f.fingerprint, fixtures[i].fingerprint, `fingerprint ${i}`);
    t.same(parseFixture(fixtureText(f), 'x').problems, [], `fixture ${i} passes the lint`);
  });
  t.equal(back[1].response_body, unicode, 'text stays readable text');
  t.match(back[0].metadata, { name: 'logo', smoke_test: 'true', body_encoding: 'base64', source: 'har' }, 'metadata comes back');
  t.ok(Buffer.from(back[3].request.body, 'base64').equals(binary), 'binary request bodies too');
});

t.test("HAR import of a browser's file: base64 content, entries that are no exchange skipped, credentials redacted, sequences by start", async (t) => {
  const entry = (url, started, response, request = {}) => ({
    startedDateTime: started,
    time: 12,
    request: { method: 'GET', url, httpVersion: 'h2', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0, ...request },
    response: { status: 200, statusText: '', httpVersion: 'h2', headers: [], cookies: [], content: { size: 0, mimeType: 'text/plain' }, redirectURL: '', headersSize: -1, bodySize: 0, ...response },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2 },
  });
  const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      entries: [
        entry('https://api.example.com/v1/me?api_key=k&page=1', '2025-02-01T10:00:02.000Z', {
          headers: [
            { name: 'Content-Type', value: 'application/json' },
            { name: 'Content-Encoding', value: 'gzip' },
            { name: 'Content-Length', value: '31' },
          ],
          content: { size: 13, mimeType: 'application/json', text: '{"n":"second"}' },
        }, {
          headers: [
            { name: ':authority', value: 'api.example.com' },
            { name: 'Authorization', value: 'Bearer eyJ' },
            { name: 'X-Api-Key', value: 'k' },
            { name: 'Cookie', value: 'sid=1' },
            { name: 'Accept', value: 'application/json' },
          ],
        }),
        entry('https://api.example.com/v1/me?api_key=k&page=1', '2025-02-01T10:00:01.000Z', { headers: [{ name: 'content-type', value: 'application/json' }], content: { size: 12, mimeType: 'application/json', text: '{"n":"first"}' } }),
        entry('https://api.example.com/pixel.gif', '2025-02-01T10:00:03.000+01:00', { headers: [{ name: 'content-type', value: 'image/gif' }], content: { size: gif.length, mimeType: 'image/gif', text: gif.toString('base64'), encoding: 'base64' } }),
        entry('data:image/png;base64,iVBORw0KGgo=', '2025-02-01T10:00:04.000Z', {}),
        entry('wss://api.example.com/live', '2025-02-01T10:00:05.000Z', { status: 101 }),
        entry('https://ads.example.com/blocked.js', '2025-02-01T10:00:06.000Z', { status: 0 }),
        { nonsense: true },
      ],
    },
  };
  const { fixtures, problems } = fromHar(har, rules());
  t.equal(fixtures.length, 3);
  t.equal(problems.length, 4);
  t.match(problems[0], /^entries\[3\]: GET data:image\/png.*not HTTP \(data:\): skipped$/);
  t.match(problems[1], /^entries\[4\]: GET wss:\/\/api\.example\.com\/live: a WebSocket entry without _webSocketMessages .*: skipped$/);
  t.match(problems[2], /^entries\[5\]: .*status 0/);
  t.match(problems[3], /^entries\[6\]: not a HAR entry/);

  const [second, first, pixel] = fixtures;
  t.equal(first.metadata.sequence, '1', 'the entry that started first comes first');
  t.equal(second.metadata.sequence, '2');
  t.equal(second.response_body, '{"n":"second"}');
  t.same(second.response_headers, { 'content-type': 'application/json' }, 'the transfer headers of a decoded body are left out');
  t.same(second.request.headers, { authorization: REDACTED, 'x-api-key': REDACTED, cookie: REDACTED, accept: 'application/json' }, 'credentials redacted as the request log does; pseudo-headers dropped');
  t.equal(second.request.query, 'api_key=k&page=1', 'query parameters are not secrets by default (as in the request log)');
  t.same(second.fingerprint, { method: 'GET', path: '/v1/me', query_params: { api_key: 'k', page: '1' }, headers: {} });
  t.equal(pixel.metadata.body_encoding, 'base64');
  t.ok(bytesOf(pixel).equals(gif), 'the base64 content is the body');
  t.equal(pixel.timestamp, '2025-02-01T10:00:03.000+01:00');

  const secrets = { header: () => false, query: (n) => n === 'api_key' };
  const custom = fromHar(har, rules({ match_headers: ['authorization'] }), secrets).fixtures[0];
  t.equal(custom.request.query, `api_key=${encodeURIComponent(REDACTED)}&page=1`, 'a redaction callback decides');
  t.same(custom.fingerprint.headers, { authorization: 'Bearer eyJ' });

  const configured = credentialSecrets({ credentials: false, names: ['X-Session', 'token'] });
  t.same([configured.header('authorization'), configured.header('x-session'), configured.query('TOKEN'), configured.query('page')], [false, true, true, false], 'logging.redact_credentials and logging.redact');
  t.same([CREDENTIAL_SECRETS.header('X-Auth-Token'), CREDENTIAL_SECRETS.header('accept'), CREDENTIAL_SECRETS.query('api_key')], [true, false, false]);

  t.throws(() => fromHar({ entries: [] }, rules()), { code: 'MOCK_ERR_HAR_INVALID' });
  t.throws(() => fromHar('x', rules()), /no log\.entries/);
});

t.test('HAR import of WebSocket connections: ts from the start (never negative), sessions of a path in the order they started', async (t) => {
  const at = (iso) => Date.parse(iso) / 1000;
  const socket = (url, startedDateTime, messages) => ({ ...(startedDateTime === undefined ? {} : { startedDateTime }), request: { method: 'GET', url }, response: { status: 101 }, _webSocketMessages: messages });
  const har = {
    log: {
      entries: [
        socket('wss://api.example.com/chat', '2025-03-01T12:00:05.000Z', [{ type: 'receive', time: at('2025-03-01T12:00:05.250Z'), opcode: 1, data: 'later' }]),
        socket('wss://api.example.com/chat', '2025-03-01T12:00:01.000Z', [
          { type: 'receive', time: at('2025-03-01T12:00:00.900Z'), opcode: 1, data: 'early clock' },
          { type: 'send', time: at('2025-03-01T12:00:01.500Z'), opcode: 2, data: 'AAE=' },
          { type: 'receive', time: at('2025-03-01T12:00:01.600Z'), opcode: 8, data: '' },
        ]),
        socket('https://api.example.com/feed', undefined, [
          { type: 'send', time: at('2025-03-01T12:00:10.000Z'), opcode: 1, data: 'subscribe' },
          { type: 'receive', time: at('2025-03-01T12:00:10.125Z'), opcode: 1, data: 'ok' },
        ]),
      ],
    },
  };
  const { fixtures, sessions, problems } = fromHar(har, rules());
  t.same([fixtures, problems], [[], []]);
  t.same(
    sessions.map((s) => [s.path, s.lines]),
    [
      ['/chat', [{ ts: 0, dir: 'out', text: 'early clock' }, { ts: 500, dir: 'in', text: 'AAE=', encoding: 'base64' }]],
      ['/chat', [{ ts: 250, dir: 'out', text: 'later' }]],
      ['/feed', [{ ts: 0, dir: 'in', text: 'subscribe' }, { ts: 125, dir: 'out', text: 'ok' }]],
    ],
    'the connection that started first is the first session; a message before startedDateTime is due at 0; without startedDateTime ts counts from the first message; the close frame is left out',
  );
});

t.test('addFixtures: a fingerprint continues its sequence; no file is replaced', async (t) => {
  const r = rules();
  const existing = fixture({ metadata: { sequence: '1' } });
  const key = fingerprintKey(existing.fingerprint, r);
  const { dir } = folder(t, { [fixtureFileName(existing.fingerprint, key, 1)]: existing, [fixtureFileName(existing.fingerprint, key, 3)]: 'taken, and broken' });
  const written = addFixtures(dir, [fixture({ response_body: '{"id":2}', metadata: { sequence: '1' } }), fixture({ response_body: '{"id":3}', metadata: { sequence: '2' } })], r);
  t.same(written.map((f) => path.basename(f)), [fixtureFileName(existing.fingerprint, key, 2), fixtureFileName(existing.fingerprint, key, 4)]);
  t.equal(readFileSync(path.join(dir, 'http', fixtureFileName(existing.fingerprint, key, 3)), 'utf8'), 'taken, and broken');
  t.same(JSON.parse(readFileSync(written[1], 'utf8')).metadata.sequence, '4');
  t.same(readdirSync(path.join(dir, 'http')).filter((n) => n.startsWith('.')), [], 'no temporary left');
});

t.test('storedBody: text stays text, bytes become base64', async (t) => {
  t.same(storedBody(Buffer.from('é'), 'text/plain; charset=utf-8'), { text: 'é' });
  t.same(storedBody(Buffer.from([0xff]), 'text/plain'), { text: '/w==', encoding: 'base64' });
  t.same(storedBody(Buffer.alloc(0), 'image/png'), { text: '' });
});

t.test('runSmoke: status, media type and body compared; volatile values only by kind; JUnit escaped', async (t) => {
  const answers = {
    '/ok': [200, 'application/json; charset=utf-8', JSON.stringify({ id: 'c0a8012e-7f3b-4c1d-9a2b-3e4f5a6b7c8d', at: new Date().toISOString(), name: 'Tom', tags: ['a'], extra: 1 })],
    '/bad': [200, 'application/json', JSON.stringify({ id: 'not-a-uuid', name: 'Jerry <&>', tags: ['a', 'b'] })],
    '/text': [404, 'text/html', '<p>nope</p>'],
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const [status, type, body] = answers[req.url.split('?')[0]] ?? [500, 'text/plain', 'x'];
      res.writeHead(status, { 'content-type': type }).end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const target = `http://127.0.0.1:${server.address().port}`;
  const recorded = { id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', at: '2024-01-01T00:00:00Z', name: 'Tom', tags: ['a'] };
  const smoke = (p, extra = {}) => fixture({ fingerprint: { method: 'GET', path: p, query_params: {}, headers: {} }, response_body: JSON.stringify(recorded), metadata: { smoke_test: 'true', name: `smoke ${p}` }, ...extra });
  const { fixtures } = folder(t, {
    'a.json': smoke('/ok', { request: { query: 'q=1', headers: { authorization: REDACTED, 'x-trace': 't', connection: 'close' }, body: 'hi' }, fingerprint: { method: 'POST', path: '/ok', query_params: {}, headers: {} } }),
    'b.json': smoke('/bad'),
    'c.json': smoke('/text', { status_code: 200, response_headers: { 'content-type': 'text/plain' }, response_body: 'yes' }),
    'd.json': fixture({ metadata: { smoke_test: 'false' } }),
  });
  const report = await runSmoke(fixtures, target);
  t.same(report.summary, { ...report.summary, total: 3, passed: 1, failed: 2 });
  const byPath = Object.fromEntries(report.results.map((r) => [r.path, r]));
  t.match(byPath['/ok'], { passed: true, method: 'POST', name: 'smoke /ok', file: 'http/a.json', status: { expected: 200, actual: 200 }, differences: [] });
  t.same(byPath['/bad'].differences, [
    { field: 'body.id', expected: 'a uuid (recorded 3fa85f64-5717-4562-b3fc-2c963f66afa6)', actual: 'not-a-uuid' },
    { field: 'body.at', expected: '2024-01-01T00:00:00Z' },
    { field: 'body.name', expected: 'Tom', actual: 'Jerry <&>' },
    { field: 'body.tags.length', expected: 1, actual: 2 },
  ]);
  t.same(byPath['/text'].differences.map((d) => d.field), ['status', 'headers.content-type', 'body']);

  const xml = smokeJunit(report);
  t.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' }).parse(xml);
  const suite = parsed.testsuites.testsuite;
  t.match(suite, { name: 'mock smoke', tests: '3', failures: '2' });
  const bad = suite.testcase.find((c) => c.name === 'smoke /bad');
  t.match(bad.failure['#text'], /body\.name: expected "Tom", got "Jerry <&>"/, 'escaped and read back');
  t.match(bad.failure.message, /^body\.id: expected/);
});

t.test('runSmoke: the POST carried its recorded query, headers and body, without redacted, hop-by-hop or Accept-Encoding headers', async (t) => {
  let seen;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      seen = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() };
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const f = fixture({
    fingerprint: { method: 'POST', path: '/v1/pets', query_params: { q: '1' }, headers: {} },
    status_code: 204,
    response_headers: {},
    response_body: '',
    metadata: { smoke_test: 'true' },
    request: { query: 'q=1&b=%20', headers: { authorization: REDACTED, 'x-trace': 't', connection: 'close', 'accept-encoding': 'gzip', 'content-type': 'text/plain' }, body: 'hi é' },
  });
  const { fixtures } = folder(t, { 'p.json': f });
  const report = await runSmoke(fixtures, `http://127.0.0.1:${server.address().port}/base/`);
  t.equal(report.summary.passed, 1, JSON.stringify(report.results));
  t.equal(seen.url, '/base/v1/pets?q=1&b=%20', 'the target path prefixes, the raw query goes as recorded');
  t.equal(seen.body, 'hi é');
  t.equal(seen.headers['x-trace'], 't');
  t.equal(seen.headers['content-length'], String(Buffer.byteLength('hi é')));
  t.notOk('authorization' in seen.headers, 'a redacted value is not sent');
  t.notOk('accept-encoding' in seen.headers, 'no compressed answer is asked for');
  t.equal(report.results[0].name, 'POST /v1/pets', 'named by method and path without metadata.name');
});

t.test('runSmoke: no server at the target is one error, not a failure per fixture', async (t) => {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  await new Promise((resolve) => server.close(resolve));
  const { fixtures } = folder(t, { 'a.json': fixture({ metadata: { smoke_test: 'true' } }) });
  await t.rejects(runSmoke(fixtures, `http://127.0.0.1:${port}`), { name: 'SmokeUnreachableError', url: `http://127.0.0.1:${port}`, code: 'ECONNREFUSED' });
  const none = await runSmoke([], `http://127.0.0.1:${port}`);
  t.same(none.summary, { total: 0, passed: 0, failed: 0, duration_ms: none.summary.duration_ms });
});

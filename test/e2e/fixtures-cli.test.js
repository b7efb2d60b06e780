// The fixture commands as users run them: validate-fixtures, fixtures rekey, fixtures export and
// import (HAR), and smoke against a real `mock serve`.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import WebSocket from 'ws';
import { currentFingerprint, fingerprintKey, fingerprintRules, fixtureFileName, fixtureText, readFixtureDir, responseBodyOf } from '../../dist/common/fixtures/index.js';
import { buildOnce, runMock, startCommand, startMock, tmpdir } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';

// The tests are independent (a project folder, a server and a port of their own): three at a time.
t.jobs = 3;

/** A project folder: mock.yaml (when given) and fixtures/http/<name> for each fixture (text as it is). */
function project(files, yaml) {
  const dir = tmpdir();
  if (yaml !== undefined) writeFileSync(path.join(dir, 'mock.yaml'), yaml);
  for (const [name, f] of Object.entries(files)) {
    const file = path.join(dir, 'fixtures', 'http', name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof f === 'string' ? f : fixtureText(f));
  }
  return dir;
}

const lines = (text) => text.split('\n').filter((line) => line !== '');

t.test('validate-fixtures: clean folders exit 0 in one line; each problem is one line naming file and field, exit 1', async (t) => {
  const clean = project({ 'a.json': fixture(), 'v1/b.json': fixture({ fingerprint: { method: 'POST', path: '/v1/pets', query_params: {}, headers: {} } }) });
  const ok = await runMock(['validate-fixtures'], { cwd: clean });
  t.equal(ok.code, 0, ok.stderr);
  t.equal(ok.stdout, '2 fixture files, no problems\n');

  const broken = project({
    'good.json': fixture(),
    'broken.json': JSON.stringify({ fingerprint: { method: 'GET', path: 'no-slash', query_params: {} }, status_code: 99, response_body: 1, metadata: { smoke_test: 'yes' } }),
    'nested/dup.json': fixture(),
    'not-json.json': '{"fingerprint": ',
  });
  const res = await runMock(['validate-fixtures', '--dir', 'fixtures'], { cwd: broken });
  t.equal(res.code, 1);
  const expected = [
    /^fixtures\/http\/broken\.json: fingerprint\.path: must be a path/,
    /^fixtures\/http\/broken\.json: status_code: /,
    /^fixtures\/http\/broken\.json: metadata\.smoke_test: /,
    /^fixtures\/http\/broken\.json: response_body: /,
    /^fixtures\/http\/nested\/dup\.json: fingerprint: same fingerprint and sequence 1 as fixtures\/http\/good\.json/,
    /^fixtures\/http\/not-json\.json: not valid JSON/,
  ];
  const got = lines(res.stdout);
  t.equal(got.length, expected.length, res.stdout);
  expected.forEach((line, i) => t.match(got[i], line));

  const one = await runMock(['validate-fixtures', '--file', 'fixtures/http/good.json', '--file', 'fixtures/http/broken.json'], { cwd: broken });
  t.equal(one.code, 1);
  t.ok(lines(one.stdout).every((line) => line.startsWith('fixtures/http/broken.json: ')), 'only the files given');

  const httpFolder = await runMock(['validate-fixtures', '--dir', 'fixtures/http/nested'], { cwd: broken });
  t.same([httpFolder.code, httpFolder.stdout], [0, '1 fixture file, no problems\n'], 'a folder without http/ is linted whole');

  const missing = await runMock(['validate-fixtures', '--dir', 'nowhere'], { cwd: broken });
  t.equal(missing.code, 1);
  t.equal(missing.stderr, 'mock validate-fixtures: there is no fixture folder nowhere: give --dir the folder that holds http/ (or set core.fixtures.dir in mock.yaml)\n');
  const unreadable = await runMock(['validate-fixtures', '--file', 'gone.json'], { cwd: broken });
  t.same([unreadable.code, unreadable.stdout], [1, 'gone.json: cannot be read (ENOENT)\n']);
});

t.test('fixtures rekey: after ignore_query_params changes, files are rewritten and renamed, and sequences merge in recording order', async (t) => {
  const old = fingerprintRules({ ignore_query_params: [], match_headers: [], match_body: false });
  const recorded = (query, seq, timestamp) =>
    fixture({ fingerprint: { method: 'GET', path: '/v1/pets', query_params: Object.fromEntries(new URLSearchParams(query)), headers: {} }, timestamp, request: { query, headers: { accept: 'application/json' } }, metadata: { sequence: String(seq) }, response_body: `{"at":"${timestamp}"}` });
  const named = (f) => [fixtureFileName(f.fingerprint, fingerprintKey(f.fingerprint, old), Number(f.metadata.sequence)), f];
  const a1 = recorded('limit=5&_t=100', 1, '2025-01-01T00:00:01Z');
  const a2 = recorded('limit=5&_t=100', 2, '2025-01-01T00:00:04Z');
  const b1 = recorded('limit=5&_t=200', 1, '2025-01-01T00:00:02Z');
  const other = recorded('limit=9&_t=300', 1, '2025-01-01T00:00:03Z');
  const dir = project(Object.fromEntries([a1, a2, b1, other].map(named)), 'core:\n  fixtures:\n    dir: fixtures\n');
  const http = path.join(dir, 'fixtures', 'http');
  const before = readdirSync(http).sort();
  t.equal((await runMock(['validate-fixtures'], { cwd: dir })).code, 0, 'clean under the old rules');

  writeFileSync(path.join(dir, 'mock.yaml'), 'core:\n  fixtures:\n    dir: fixtures\n    ignore_query_params: [_t]\n    match_headers: [x-tenant]\n');
  const conflicting = await runMock(['validate-fixtures'], { cwd: dir });
  t.equal(conflicting.code, 1, 'the new rules make two sequences claim the same places');
  t.match(conflicting.stdout, /same fingerprint and sequence 1 as/);

  const dry = await runMock(['fixtures', 'rekey', '--dry-run'], { cwd: dir });
  t.equal(dry.code, 0, dry.stderr);
  t.match(dry.stdout, /^mock: dry run, nothing written: fixtures\/http would have 4 renamed, 0 rewritten in place, 0 unchanged\n/);
  t.equal(lines(dry.stdout).filter((line) => line.startsWith('  would rename ')).length, 4);
  t.same(readdirSync(http).sort(), before, 'a dry run writes nothing');
  t.equal(lines(dry.stderr).filter((line) => /^mock: warning: fixtures\/http\/.*: fingerprint\.headers: recorded without the x-tenant header/.test(line)).length, 4, 'a warning per fixture without the header now selected');

  const run = await runMock(['fixtures', 'rekey'], { cwd: dir });
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /^mock: rekeyed fixtures\/http: 4 renamed/);
  const now = fingerprintRules({ ignore_query_params: ['_t'], match_headers: ['x-tenant'], match_body: false });
  const { fixtures, problems } = readFixtureDir(path.join(dir, 'fixtures'));
  t.same(problems, []);
  t.equal(fixtures.length, 4, 'no file lost');
  const pets5 = fixtures.filter((f) => f.fixture.fingerprint.query_params.limit === '5').sort((x, y) => x.fixture.metadata.sequence - y.fixture.metadata.sequence);
  t.same(
    pets5.map((f) => [f.fixture.metadata.sequence, f.fixture.timestamp]),
    [
      ['1', '2025-01-01T00:00:01Z'],
      ['2', '2025-01-01T00:00:02Z'],
      ['3', '2025-01-01T00:00:04Z'],
    ],
    'the merged sequence: first the 1s by time, then the 2',
  );
  for (const f of fixtures) {
    const fp = currentFingerprint(f.fixture, now);
    t.equal(path.basename(f.file), fixtureFileName(fp, fingerprintKey(fp, now), Number(f.fixture.metadata.sequence)), `${path.basename(f.file)} is named after its new fingerprint`);
    t.same(f.fixture.fingerprint, fp, 'the stored fingerprint is the new one');
  }
  t.same(readdirSync(http).filter((n) => n.startsWith('.')), [], 'no temporary left');
  t.equal((await runMock(['validate-fixtures'], { cwd: dir })).code, 0, 'clean again');
  const again = await runMock(['fixtures', 'rekey'], { cwd: dir });
  t.match(again.stdout, /0 renamed, 0 rewritten in place, 4 unchanged/);
});

t.test('fixtures rekey refuses, changing nothing, when a new name is taken by another file', async (t) => {
  const old = fingerprintRules({ ignore_query_params: [], match_headers: [], match_body: false });
  const now = fingerprintRules({ ignore_query_params: ['_t'], match_headers: [], match_body: false });
  const f = fixture({ fingerprint: { method: 'GET', path: '/v1/pets', query_params: { _t: '1' }, headers: {} }, request: { query: '_t=1' } });
  const fp = currentFingerprint(f, now);
  const source = fixtureFileName(f.fingerprint, fingerprintKey(f.fingerprint, old), 1);
  const taken = fixtureFileName(fp, fingerprintKey(fp, now), 1);
  const dir = project({ [source]: f, [taken]: 'someone else\'s file' }, 'core:\n  fixtures:\n    ignore_query_params: [_t]\n');
  const res = await runMock(['fixtures', 'rekey'], { cwd: dir });
  t.equal(res.code, 1);
  t.match(lines(res.stderr).at(-1), new RegExp(`^mock fixtures rekey: fixtures/http/${source} would be renamed to fixtures/http/${taken}, which is another file: move that one away and run it again \\(nothing was changed\\)$`));
  t.equal(readFileSync(path.join(dir, 'fixtures', 'http', taken), 'utf8'), "someone else's file");
  t.ok(existsSync(path.join(dir, 'fixtures', 'http', source)));
});

t.test('fixtures export then import: byte-identical bodies, binary included; import never overwrites', async (t) => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b90000000049454e44ae426082', 'hex');
  const text = 'Zażółć gęślą jaźń — 日本語 ✓';
  const dir = project({
    'logo.json': fixture({ fingerprint: { method: 'GET', path: '/logo.png', query_params: {}, headers: {} }, response_headers: { 'content-type': 'image/png' }, response_body: png.toString('base64'), metadata: { body_encoding: 'base64', smoke_test: 'true' } }),
    'text.json': fixture({ fingerprint: { method: 'GET', path: '/hello', query_params: { lang: 'pl' }, headers: {} }, response_headers: { 'content-type': 'text/plain; charset=utf-8', 'set-cookie': ['a=1', 'b=2'] }, response_body: text }),
    'empty.json': fixture({ fingerprint: { method: 'DELETE', path: '/v1/pets/1', query_params: {}, headers: {} }, status_code: 204, response_headers: {}, response_body: '' }),
  });
  const exported = await runMock(['fixtures', 'export', '--har', 'all.har', '--origin', 'https://api.example.com'], { cwd: dir });
  t.equal(exported.code, 0, exported.stderr);
  t.equal(exported.stdout, 'mock: exported 3 fixtures from fixtures/http to all.har\n');
  const har = JSON.parse(readFileSync(path.join(dir, 'all.har'), 'utf8'));
  t.same(har.log.entries.map((e) => e.request.url).sort(), ['https://api.example.com/hello?lang=pl', 'https://api.example.com/logo.png', 'https://api.example.com/v1/pets/1']);

  const imported = await runMock(['fixtures', 'import', '--har', 'all.har', '--dir', 'copy'], { cwd: dir });
  t.equal(imported.code, 0, imported.stderr);
  t.match(imported.stdout, /^mock: imported 3 fixtures from all\.har into copy\/http\n/);
  const original = readFixtureDir(path.join(dir, 'fixtures')).fixtures.map((f) => f.fixture);
  const copy = readFixtureDir(path.join(dir, 'copy')).fixtures.map((f) => f.fixture);
  t.equal(copy.length, 3);
  for (const o of original) {
    const c = copy.find((f) => f.fingerprint.path === o.fingerprint.path);
    t.ok(Buffer.from(responseBodyOf(c)).equals(Buffer.from(responseBodyOf(o))), `${o.fingerprint.path}: byte-identical body`);
    t.equal(c.status_code, o.status_code);
    t.same(c.response_headers, o.response_headers);
    t.same(c.metadata.smoke_test, o.metadata.smoke_test);
  }
  t.equal((await runMock(['validate-fixtures', '--dir', 'copy'], { cwd: dir })).code, 0, 'the imported fixtures pass the lint');

  const before = Object.fromEntries(readdirSync(path.join(dir, 'copy', 'http')).map((n) => [n, readFileSync(path.join(dir, 'copy', 'http', n), 'utf8')]));
  const twice = await runMock(['fixtures', 'import', '--har', 'all.har', '--dir', 'copy', '--smoke'], { cwd: dir });
  t.equal(twice.code, 0, twice.stderr);
  const after = readdirSync(path.join(dir, 'copy', 'http'));
  t.equal(after.length, 6, 'imported again beside the first import');
  for (const [name, content] of Object.entries(before)) t.equal(readFileSync(path.join(dir, 'copy', 'http', name), 'utf8'), content, `${name} untouched`);
  const again = readFixtureDir(path.join(dir, 'copy')).fixtures.filter((f) => !(path.basename(f.file) in before));
  t.ok(again.every((f) => f.fixture.metadata.sequence === '2' && f.fixture.metadata.smoke_test === 'true'), 'the second import is sequence 2, marked with --smoke');
  t.equal((await runMock(['validate-fixtures', '--dir', 'copy'], { cwd: dir })).code, 0, 'no conflict');
});

t.test('fixtures import redacts what the request log redacts, logging.redact included', async (t) => {
  const dir = project({}, 'logging:\n  redact: [session]\n');
  const har = { log: { version: '1.2', creator: { name: 'Firefox', version: '128' }, entries: [{
    startedDateTime: '2025-03-01T12:00:00.000+01:00',
    time: 5,
    request: { method: 'GET', url: 'https://api.example.com/v1/me?session=abc&page=2', httpVersion: 'HTTP/2', headers: [{ name: 'Authorization', value: 'Bearer x' }, { name: 'Session', value: 's' }, { name: 'Accept', value: '*/*' }], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/2', headers: [{ name: 'Content-Type', value: 'text/plain' }], cookies: [], content: { size: 2, mimeType: 'text/plain', text: 'hi' }, redirectURL: '', headersSize: -1, bodySize: 2 },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  }] } };
  writeFileSync(path.join(dir, 'firefox.har'), JSON.stringify(har));
  const res = await runMock(['fixtures', 'import', '--har', 'firefox.har'], { cwd: dir });
  t.equal(res.code, 0, res.stderr);
  const [{ fixture: f }] = readFixtureDir(path.join(dir, 'fixtures')).fixtures;
  t.same(f.request.headers, { authorization: '[redacted]', session: '[redacted]', accept: '*/*' });
  t.equal(f.request.query, 'session=%5Bredacted%5D&page=2');
  t.same(f.fingerprint.query_params, { session: '[redacted]', page: '2' });
  t.equal(f.response_body, 'hi');
});

/** A HAR as Chrome saves it: an HTTP exchange and, for each [url, _webSocketMessages], a WebSocket connection (status 101). */
function chromeHar(...sockets) {
  const request = (url, headers = []) => ({ method: 'GET', url, httpVersion: 'HTTP/1.1', headers, queryString: [], cookies: [], headersSize: -1, bodySize: 0 });
  const response = (status, content = { size: 0, mimeType: 'x-unknown' }) => ({ status, statusText: '', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content, redirectURL: '', headersSize: -1, bodySize: 0 });
  const http = { startedDateTime: '2025-03-01T11:59:59.000Z', time: 5, request: request('https://api.example.com/v1/me?token=s3cret'), response: response(200, { size: 2, mimeType: 'text/plain', text: 'hi' }), cache: {}, timings: { send: 0, wait: 5, receive: 0 } };
  const websocket = ([url, messages]) => ({
    startedDateTime: '2025-03-01T12:00:00.000Z',
    time: 900,
    _resourceType: 'websocket',
    request: request(url, [{ name: 'Authorization', value: 'Bearer s3cret-bearer' }, { name: 'Cookie', value: 'sid=s3cret-cookie' }, { name: 'Upgrade', value: 'websocket' }]),
    response: response(101),
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    _webSocketMessages: messages,
  });
  return { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [http, ...sockets.map(websocket)] } };
}

/** 2025-03-01T12:00:00Z, when chromeHar's connections start, in the epoch seconds of _webSocketMessages. */
const OPENED = Date.parse('2025-03-01T12:00:00.000Z') / 1000;
const CHAT = [
  { type: 'receive', time: OPENED + 0.05, opcode: 1, data: '{"hello":"client"}' },
  { type: 'send', time: OPENED + 0.1, opcode: 1, data: 'hi' },
  { type: 'send', time: OPENED + 0.15, opcode: 9, data: '' },
  { type: 'receive', time: OPENED + 0.2, opcode: 2, data: 'AAEC/w==' },
];
const CHAT_SCRIPT = ['{"ts":50,"dir":"out","text":"{\\"hello\\":\\"client\\"}"}', '{"ts":100,"dir":"in","text":"hi"}', '{"ts":200,"dir":"out","text":"AAEC/w==","encoding":"base64"}', ''].join('\n');

/** Every file below `dir` (the HAR read aside) that holds `secret`. */
function filesHolding(dir, secret) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.endsWith('.har'))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => readFileSync(file, 'utf8').includes(secret));
}

t.test('fixtures import: a WebSocket connection becomes a replay script under websocket/<path>/, numbered on; validate-fixtures checks scripts line by line', async (t) => {
  const dir = project({}, 'logging:\n  redact: [token]\n');
  writeFileSync(path.join(dir, 'chrome.har'), JSON.stringify(chromeHar(['wss://api.example.com/chat/room-1?token=s3cret&v=2', CHAT])));
  const res = await runMock(['fixtures', 'import', '--har', 'chrome.har'], { cwd: dir });
  t.equal(res.code, 0, res.stderr);
  t.equal(res.stderr, '');
  t.match(res.stdout, /^mock: imported 1 fixture from chrome\.har into fixtures\/http, 1 WebSocket session into fixtures\/websocket\n {2}wrote fixtures\/http\/get-v1-me-\S+\.json\n {2}wrote fixtures\/websocket\/chat\/room-1\/session-0001\.jsonl\n$/);
  const first = path.join(dir, 'fixtures', 'websocket', 'chat', 'room-1', 'session-0001.jsonl');
  t.equal(readFileSync(first, 'utf8'), CHAT_SCRIPT, 'received messages are out lines, sent ones in lines without waitFor; ts from startedDateTime; the binary frame as base64; the ping left out');
  t.same(filesHolding(dir, 's3cret'), [], 'neither the query token nor the credential headers are written anywhere');

  const again = await runMock(['fixtures', 'import', '--har', 'chrome.har'], { cwd: dir });
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /\n {2}wrote fixtures\/websocket\/chat\/room-1\/session-0002\.jsonl\n$/, 'a second session of the path is numbered after the first');
  t.equal(readFileSync(first, 'utf8'), CHAT_SCRIPT, 'the first is untouched');

  const clean = await runMock(['validate-fixtures'], { cwd: dir });
  t.same([clean.code, clean.stdout], [0, '2 fixture files, 2 WebSocket scripts, no problems\n'], 'the imported scripts pass the lint');
  const one = await runMock(['validate-fixtures', '--file', 'fixtures/websocket/chat/room-1/session-0001.jsonl'], { cwd: dir });
  t.same([one.code, one.stdout], [0, '1 WebSocket script, no problems\n'], '--file takes a script');

  const exported = await runMock(['fixtures', 'export', '--har', 'out.har'], { cwd: dir });
  t.equal(exported.stdout, 'mock: exported 2 fixtures from fixtures/http to out.har (2 WebSocket scripts below fixtures/websocket left out: the export holds HTTP fixtures only)\n', 'export says what it leaves out');

  writeFileSync(path.join(dir, 'fixtures', 'websocket', 'chat', 'room-1', 'session-0002.jsonl'), `${CHAT_SCRIPT}{"ts": 300, "dir": "sideways"}\nnot json\n`);
  const broken = await runMock(['validate-fixtures'], { cwd: dir });
  t.equal(broken.code, 1);
  const got = lines(broken.stdout);
  t.equal(got.length, 2, broken.stdout);
  t.equal(got[0], 'fixtures/websocket/chat/room-1/session-0002.jsonl:4: dir must be "in" (the client sends) or "out" (the mock sends) (got "sideways")');
  t.match(got[1], /^fixtures\/websocket\/chat\/room-1\/session-0002\.jsonl:5: is not JSON \(/);
});

t.test('fixtures import: WebSocket entries it cannot replay are one warning line each, not a crash', async (t) => {
  const dir = project({}, 'logging:\n  redact: [token]\n');
  const har = chromeHar(
    ['wss://api.example.com/a?token=s3cret', 'not a list'],
    ['wss://api.example.com/b', [CHAT[0], { type: 'send', time: OPENED + 1, opcode: 1 }]],
    ['wss://api.example.com/c', [{ type: 'send', time: OPENED, opcode: 9, data: '' }]],
  );
  writeFileSync(path.join(dir, 'odd.har'), JSON.stringify(har));
  const res = await runMock(['fixtures', 'import', '--har', 'odd.har'], { cwd: dir });
  t.equal(res.code, 0, res.stderr);
  t.same(lines(res.stderr), [
    'mock: warning: odd.har: entries[1]: GET wss://api.example.com/a?token=%5Bredacted%5D: _webSocketMessages is not a list (got string): skipped',
    'mock: warning: odd.har: entries[2]: GET wss://api.example.com/b: _webSocketMessages[1] has no data (a string; base64 for a binary frame): skipped',
    'mock: warning: odd.har: entries[3]: GET wss://api.example.com/c: a WebSocket entry with no text or binary message to replay: skipped',
  ]);
  t.match(res.stdout, /^mock: imported 1 fixture from odd\.har into fixtures\/http \(3 entries skipped\)\n/);
  t.notOk(existsSync(path.join(dir, 'fixtures', 'websocket')), 'no script written');
});

t.test('an imported WebSocket session is what mock serve --replay plays on its path', async (t) => {
  const dir = project({});
  writeFileSync(path.join(dir, 'chrome.har'), JSON.stringify(chromeHar(['wss://api.example.com/chat/room-1', CHAT])));
  t.equal((await runMock(['fixtures', 'import', '--har', 'chrome.har'], { cwd: dir })).code, 0);
  const spec = path.join(dir, 'api.yaml');
  writeFileSync(spec, 'openapi: 3.0.3\ninfo: {title: api, version: "1"}\npaths: {}\n');
  const out = await buildOnce(spec);
  const server = await startCommand(['serve', '--spec', spec, '--out', out, '--replay', '--http-port', '0', '--ws-port', '0', '--host', '127.0.0.1'], /WebSocket mock on (ws:\/\/\S+)/, { cwd: dir, env: { MOCK_LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());

  const ws = new WebSocket(`${server.url}/chat/room-1`);
  const received = [];
  const done = new Promise((resolve, reject) => {
    ws.on('message', (data, binary) => {
      received.push(binary ? [...data] : data.toString());
      if (received.length === 1) ws.send('hi');
      if (received.length === 2) resolve();
    });
    ws.on('error', reject);
    // a path that plays something else (an echo) would wait for ever
    setTimeout(() => reject(new Error(`the recorded session did not play: got ${JSON.stringify(received)}`)), 10_000).unref();
  });
  await done;
  ws.close();
  t.same(received, ['{"hello":"client"}', [0, 1, 2, 255]], 'the text, then (after the client spoke) the binary frame');
});

t.test('fixtures import and export: one line for bad input', async (t) => {
  const dir = project({ 'a.json': fixture() });
  writeFileSync(path.join(dir, 'broken.har'), '{"log": ');
  writeFileSync(path.join(dir, 'other.json'), '{"entries": []}');
  const cases = [
    [['fixtures', 'import', '--har', 'broken.har'], /^mock fixtures import: broken\.har is not JSON \(.*\); a HAR file is the JSON a browser's network panel saves\n$/],
    [['fixtures', 'import', '--har', 'other.json'], /^mock fixtures import: other\.json: not a HAR file: it has no log\.entries list/],
    [['fixtures', 'import', '--har', 'missing.har'], /^mock fixtures import: cannot read --har missing\.har \(ENOENT\)\n$/],
    [['fixtures', 'export', '--har', 'out.har', '--dir', 'nowhere'], /^mock fixtures export: there is no fixture folder nowhere/],
    [['fixtures', 'export', '--har', 'no/such/folder/out.har', '--origin', 'localhost:3000'], /^mock fixtures export: --origin localhost:3000 is not a scheme, host and port/],
  ];
  for (const [args, message] of cases) {
    const res = await runMock(args, { cwd: dir });
    t.equal(res.code, 1, args.join(' '));
    t.match(res.stderr, message, args.join(' '));
    t.equal(lines(res.stderr).length, 1, 'one line');
  }
});

t.test('smoke against a running mock serve: exit 1 with a failure, JSON and JUnit reports, exit 0 when all pass', async (t) => {
  const spec = path.join(tmpdir(), 'pets.yaml');
  writeFileSync(
    spec,
    [
      'openapi: 3.0.3',
      'info: {title: pets, version: "1"}',
      'paths:',
      '  /pets/{id}:',
      '    get:',
      '      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]',
      '      responses:',
      '        "200":',
      '          description: a pet',
      '          content:',
      '            application/json:',
      '              schema:',
      '                type: object',
      '                required: [id, name, born]',
      '                properties:',
      '                  id: {type: string, format: uuid}',
      '                  name: {type: string, enum: [Tom]}',
      '                  born: {type: string, format: date-time}',
      '',
    ].join('\n'),
  );
  const out = await buildOnce(spec);
  const server = await startMock(['--spec', spec, '--out', out]);
  t.teardown(() => server.stop());

  const recordedPet = { id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', name: 'Tom', born: '2021-04-12T08:00:00Z' };
  const passing = fixture({ fingerprint: { method: 'GET', path: '/pets/1', query_params: {}, headers: {} }, response_body: JSON.stringify(recordedPet), metadata: { smoke_test: 'true', name: 'pet 1 is Tom' } });
  const failing = fixture({ fingerprint: { method: 'GET', path: '/pets/2', query_params: {}, headers: {} }, response_body: JSON.stringify({ ...recordedPet, name: 'Jerry & <Co>' }), metadata: { smoke_test: 'true' } });
  const dir = project({ 'pass.json': passing, 'fail.json': failing, 'other.json': fixture({ metadata: { smoke_test: 'false' } }) });

  const text = await runMock(['smoke', '--target', server.url], { cwd: dir });
  t.equal(text.code, 1, text.stderr);
  t.match(text.stdout, /^pass GET \/pets\/1 "pet 1 is Tom" 200 \(\d+ ms\)\nFAIL GET \/pets\/2 "GET \/pets\/2" 200 \(\d+ ms\)\n {5}body\.name: expected "Jerry & <Co>", got "Tom"\nmock smoke: 2 fixtures against http:\/\/\S+: 1 passed, 1 failed \(\d+ ms\)\n$/);

  const json = await runMock(['smoke', '--target', server.url, '--format', 'json'], { cwd: dir });
  t.equal(json.code, 1);
  const report = JSON.parse(json.stdout);
  t.match(report, { target: server.url, summary: { total: 2, passed: 1, failed: 1 } });
  t.match(report.results.find((r) => r.path === '/pets/1'), { passed: true, name: 'pet 1 is Tom', file: 'http/pass.json', method: 'GET', status: { expected: 200, actual: 200 }, differences: [] });
  t.same(report.results.find((r) => r.path === '/pets/2').differences, [{ field: 'body.name', expected: 'Jerry & <Co>', actual: 'Tom' }]);

  const junit = await runMock(['smoke', '--target', server.url, '--format', 'junit', '--output', 'reports/smoke.xml'], { cwd: dir });
  t.equal(junit.code, 1);
  t.match(junit.stdout, /1 passed, 1 failed/, 'the text report on stdout');
  const xml = readFileSync(path.join(dir, 'reports', 'smoke.xml'), 'utf8');
  t.equal(XMLValidator.validate(xml), true, 'well-formed');
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'testsuite' }).parse(xml);
  const [suite] = parsed.testsuites.testsuite;
  t.match(suite, { name: 'mock smoke', tests: '2', failures: '1' });
  t.same(suite.testcase.map((c) => [c.classname, c.name, c.failure === undefined]).sort(), [
    ['mock.smoke', 'GET /pets/2', false],
    ['mock.smoke', 'pet 1 is Tom', true],
  ]);
  t.equal(suite.testcase.find((c) => c.failure).failure['#text'], 'body.name: expected "Jerry & <Co>", got "Tom"', 'escaped and read back');

  rmSync(path.join(dir, 'fixtures', 'http', 'fail.json'));
  const green = await runMock(['smoke', '--target', server.url], { cwd: dir });
  t.equal(green.code, 0, green.stdout + green.stderr);
  t.match(green.stdout, /1 passed, 0 failed/);

  rmSync(path.join(dir, 'fixtures', 'http', 'pass.json'));
  const none = await runMock(['smoke', '--target', server.url], { cwd: dir });
  t.equal(none.code, 2, 'no smoke fixture: exit 2');
  t.match(none.stderr, /^mock smoke: no fixture below fixtures\/http is a smoke test \(1 other fixture\): set metadata\.smoke_test to "true"/);
});

t.test('smoke: a target with no server is one line naming it and the fix', async (t) => {
  const dir = project({ 'a.json': fixture({ metadata: { smoke_test: 'true' } }) }, 'server:\n  http_port: 1\n');
  const res = await runMock(['smoke'], { cwd: dir });
  t.equal(res.code, 1);
  t.equal(res.stderr, 'mock smoke: cannot reach http://127.0.0.1:1 (ECONNREFUSED): start the server (mock serve) or point --target at a running one\n', 'the default target is server.http_port of mock.yaml');
  const bad = await runMock(['smoke', '--target', 'ftp://x'], { cwd: dir });
  t.same([bad.code, bad.stderr], [1, 'mock smoke: --target ftp://x is not an http(s) URL such as http://127.0.0.1:3000\n']);
});

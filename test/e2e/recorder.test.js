// The recorder database end to end (docs/recorder-database.md): `mock serve --recorder` writes
// every exchange into an SQLite file (credentials redacted as the request log redacts them), the
// admin API lists, reads and converts recordings (the spec's POST /api/recorder/convert/{id}), and
// `mock recorder convert` turns a file into fixtures or custom routes that `mock config validate`
// accepts. The file is read back with the recorder's own library after the server stopped.
import t from 'tap';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { parseFixture } from '../../dist/common/fixtures/index.js';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';
import { envelope, failure, post } from '../helpers/admin.js';

const { Database } = sqlite;

const SPEC = `openapi: 3.0.3
info: { title: recorded, version: '1' }
paths:
  /things/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' }, example: { id: 1, name: first } } } }
  /things:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' }, example: { id: 2, name: made } } } }
  /uploads:
    put:
      requestBody: { required: true, content: { application/octet-stream: { schema: { type: string, format: binary } } } }
      responses:
        '204': { description: stored }
components:
  schemas:
    Thing: { type: object, required: [id, name], properties: { id: { type: integer }, name: { type: string } } }
`;

const dir = tmpdir();
writeFileSync(path.join(dir, 'api.yaml'), SPEC);
// `session` is redacted by name (logging.redact), as in request logs
const CONFIG = 'specs: [api.yaml]\nlogging: { redact: [session] }\n';
writeFileSync(path.join(dir, 'mock.yaml'), CONFIG);
// the folder does not exist yet: the recorder makes it
const DB = path.join(dir, 'data', 'rec.db');
const BYTES = Buffer.from([0, 255, 1, 254, 0x80, 0x81, 10, 13]);

const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--recorder', '--recorder-db', DB, '--admin', '--admin-port', '0'], { cwd: dir });
t.teardown(() => server.stop());
const admin = server.adminUrl;

/** One request; `connection: close`, so that the server stops at once when asked. */
function send(method, p, { headers = {}, body } = {}) {
  return fetch(server.url + p, { method, headers: { connection: 'close', ...headers }, body });
}

/** Recording ids by `METHOD path`, once the first test has made them. */
let ids = {};
let listing;

t.test('mock serve --recorder answers as usual', async (t) => {
  const sent = [
    await send('GET', '/things/1?session=abc&view=full', { headers: { authorization: 'Bearer s3cr3t-token', 'x-api-key': 'k-123' } }),
    await send('POST', '/things', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 7, name: 'seven' }) }),
    await send('PUT', '/uploads', { headers: { 'content-type': 'application/octet-stream' }, body: BYTES }),
    await send('GET', '/nowhere'),
  ];
  t.same(
    sent.map((r) => r.status),
    [200, 201, 204, 404],
  );
  await Promise.all(sent.map((r) => r.arrayBuffer()));
  listing = await envelope(t, await fetch(`${admin}/__mock/api/recorder/recordings`));
  ids = Object.fromEntries(listing.recordings.map((r) => [`${r.method} ${r.path}`, r.id]));
});

t.test('the admin API lists the recordings newest first, at once (queued rows are written before a read)', async (t) => {
  t.equal(listing.total, 4);
  t.same(
    listing.recordings.map((r) => `${r.method} ${r.path} ${r.status}`),
    ['GET /nowhere 404', 'PUT /uploads 204', 'POST /things 201', 'GET /things/1 200'],
  );
  t.match(listing.recorder, { file: DB, library: process.getBuiltinModule?.('node:sqlite') === undefined ? 'node-sqlite3-wasm' : 'node:sqlite', recorded: 4, queued: 0, dropped: 0 });
  const page = await envelope(t, await fetch(`${admin}/__mock/recorder/recordings?limit=1&offset=1`));
  t.same(page.recordings.map((r) => r.path), ['/uploads'], 'limit and offset page through them');
  await failure(t, await fetch(`${admin}/__mock/recorder/recordings?limit=0`), 400, /limit: expected a whole number from 1 to 1000/);
});

t.test('one recording, on the spec literal path of the admin port: both directions, credentials redacted', async (t) => {
  const one = await envelope(t, await fetch(`${admin}/api/recorder/recordings/${ids['GET /things/1']}`));
  t.match(one, { protocol: 'http', route: 'GET /things/{id}', client_address: '127.0.0.1', request: { method: 'GET', path: '/things/1' }, response: { status: 200 } });
  t.equal(one.request.query, 'session=%5Bredacted%5D&view=full');
  t.equal(one.request.headers.authorization, '[redacted]');
  t.equal(one.request.headers['x-api-key'], '[redacted]');
  t.same(JSON.parse(one.response.body), { id: 1, name: 'first' });
  const upload = await envelope(t, await fetch(`${admin}/__mock/recorder/recordings/${ids['PUT /uploads']}`));
  t.same(Buffer.from(upload.request.body, 'base64'), BYTES, 'bytes that are not text come as base64');
  t.equal(upload.request.body_encoding, 'base64');
  await failure(t, await fetch(`${admin}/__mock/recorder/recordings/999`), 404, /no recording 999/);
  await failure(t, await fetch(`${admin}/__mock/recorder/recordings/x1`), 400, /recording id/);
});

t.test('POST recorder/convert/{id}: json is a fixture file, yaml custom routes mock config validate accepts', async (t) => {
  const json = await envelope(t, await post(`${admin}/__mock/recorder/convert/${ids['GET /things/1']}`, { format: 'json' }));
  t.match(json, { recording_id: ids['GET /things/1'], format: 'json', file_name: /^get-things-1-[0-9a-f]{10}-0001\.json$/ });
  const parsed = parseFixture(json.content, json.file_name);
  t.same(parsed.problems, [], 'a valid fixture');
  t.match(parsed.fixture, {
    fingerprint: { method: 'GET', path: '/things/1', query_params: { session: '[redacted]', view: 'full' }, headers: {} },
    status_code: 200,
    metadata: { source: 'recorder', recording_id: String(ids['GET /things/1']) },
    request: { headers: { authorization: '[redacted]' } },
  });

  const upload = await envelope(t, await post(`${admin}/api/recorder/convert/${ids['PUT /uploads']}`, { format: 'json' }));
  const fixture = parseFixture(upload.content, upload.file_name).fixture;
  t.equal(fixture.request.body_encoding, 'base64');
  t.same(Buffer.from(fixture.request.body, 'base64'), BYTES, 'the binary request body survives');

  const yaml = await envelope(t, await post(`${admin}/api/recorder/convert/${ids['POST /things']}`, { format: 'yaml' }));
  t.match(yaml, { format: 'yaml', file_name: `recording-${ids['POST /things']}.yaml` });
  t.match(yaml.content, /http:\n {2}routes:\n/);
  const project = tmpdir();
  writeFileSync(path.join(project, 'api.yaml'), SPEC);
  writeFileSync(path.join(project, 'mock.yaml'), `specs: [api.yaml]\n${yaml.content}`);
  const check = await runMock(['config', 'validate', '-c', path.join(project, 'mock.yaml')], { cwd: project });
  t.equal(check.code, 0, `config validate accepts the fragment\n${check.stdout}${check.stderr}`);
  t.match(check.stdout, /HTTP endpoints: 4\b/, 'three operations and the recorded route');

  await failure(t, await post(`${admin}/__mock/recorder/convert/${ids['POST /things']}`, { format: 'xml' }), 400, /format: expected yaml/);
  await failure(t, await post(`${admin}/__mock/recorder/convert/999`, { format: 'yaml' }), 404, /no recording 999/);
});

t.test('after SIGTERM the file holds every exchange, as the recorder library reads it', async (t) => {
  t.equal(await server.stop(), 0, 'serve stopped cleanly, writing what was queued');
  t.notOk(existsSync(`${DB}.lock`), 'no lock left behind');
  const db = new Database(DB, { readOnly: true });
  t.teardown(() => db.close());
  const rows = db.all('SELECT * FROM recordings ORDER BY id');
  t.equal(rows.length, 4, 'the admin requests are not recorded: only the mock port');
  const [get, created, upload, missing] = rows;
  t.match(get, { protocol: 'http', method: 'GET', path: '/things/1', query: 'session=%5Bredacted%5D&view=full', status: 200, route: 'GET /things/{id}', client_address: '127.0.0.1' });
  t.match(get.recorded_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'recorded_at is ISO 8601 UTC');
  t.ok(get.duration_ms > 0 && get.duration_ms < 10_000, `duration_ms ${get.duration_ms}`);
  const headers = JSON.parse(get.request_headers);
  t.equal(headers.authorization, '[redacted]', 'Authorization redacted');
  t.equal(headers['x-api-key'], '[redacted]', 'a header named as a credential redacted');
  t.notMatch(JSON.stringify(rows), /s3cr3t-token|k-123|session=abc/, 'no credential anywhere in the file');
  t.match(JSON.parse(get.response_headers), { 'content-type': 'application/json' });
  t.same(JSON.parse(Buffer.from(get.response_body).toString()), { id: 1, name: 'first' });
  t.same(JSON.parse(Buffer.from(created.request_body).toString()), { id: 7, name: 'seven' }, 'request bodies are kept');
  t.equal(created.status, 201);
  t.same(Buffer.from(upload.request_body), BYTES, 'a binary request body byte for byte');
  t.equal(upload.response_body, null, 'a 204 has no body');
  t.match(missing, { path: '/nowhere', status: 404, route: null });
  t.equal(db.get('PRAGMA user_version').user_version, 1, 'the table version');
});

t.test('mock recorder convert reads the file: one recording or every one, json or yaml', async (t) => {
  const one = await runMock(['recorder', 'convert', '--input', DB, '--recording-id', String(ids['GET /things/1']), '--format', 'json']);
  t.equal(one.code, 0, one.stderr);
  t.same(parseFixture(one.stdout, 'stdout').problems, [], 'stdout holds one fixture');

  // a recording whose answer is bytes (as a proxied upstream may send), written beside the server's
  const db = new Database(DB);
  db.run(
    `INSERT INTO recordings (recorded_at, duration_ms, protocol, method, path, query, request_headers, request_body, status, response_headers, response_body, route, client_address)
     VALUES ('2026-01-01T00:00:00.000Z', 1.5, 'http', 'GET', '/things/9', '', '{}', NULL, 200, '{"content-type":"image/png"}', ?, 'GET /things/{id}', '127.0.0.1')`,
    [BYTES],
  );
  db.close();

  const folder = path.join(tmpdir(), 'fixtures');
  const routes = path.join(tmpdir(), 'routes.yaml');
  // both read the file: side by side
  const [all, yaml] = await Promise.all([
    runMock(['recorder', 'convert', '--input', DB, '--format', 'json', '--output', folder]),
    runMock(['recorder', 'convert', '--input', DB, '--format', 'yaml', '--output', routes]),
  ]);
  t.equal(all.code, 0, all.stderr);
  t.match(all.stderr, /wrote 5 fixture file\(s\) to /);
  const files = readdirSync(folder).sort();
  t.equal(files.length, 5, 'one fixture file per recording');
  const fixtures = files.map((name) => parseFixture(readFileSync(path.join(folder, name), 'utf8'), name));
  t.same(fixtures.flatMap((f) => f.problems), [], 'every file is a valid fixture');
  const png = fixtures.find((f) => f.fixture.fingerprint.path === '/things/9').fixture;
  t.equal(png.metadata.body_encoding, 'base64', 'a binary answer is base64 with the marker');
  t.same(Buffer.from(png.response_body, 'base64'), BYTES);

  t.equal(yaml.code, 0, yaml.stderr);
  const text = readFileSync(routes, 'utf8');
  t.match(text, /recording \d+, 2026-01-01T00:00:00.000Z: its 8-byte image\/png body is not text/, 'a body a route cannot hold is named, not lost silently');
  const project = tmpdir();
  writeFileSync(path.join(project, 'api.yaml'), SPEC);
  writeFileSync(path.join(project, 'mock.yaml'), `specs: [api.yaml]\n${text}`);
  const check = await runMock(['config', 'validate', '-c', path.join(project, 'mock.yaml')], { cwd: project });
  t.equal(check.code, 0, `config validate accepts every recording as routes\n${check.stdout}${check.stderr}`);

  // the default --input: recorder.db_path of mock.yaml
  mkdirSync(path.join(project, 'rec'));
  writeFileSync(path.join(project, 'mock.yaml'), `specs: [api.yaml]\nrecorder: { db_path: ${JSON.stringify(DB)} }\n`);
  const fromConfig = await runMock(['recorder', 'convert', '--recording-id', String(ids['POST /things'])], { cwd: project });
  t.equal(fromConfig.code, 0, fromConfig.stderr);
  t.match(fromConfig.stdout, /method: POST\n\s+path: \/things\n/);
});

t.test('unhappy paths are one line naming the file and the fix', async (t) => {
  const missing = path.join(dir, 'missing.db');
  const notDb = path.join(dir, 'mock.yaml');
  // a folder the recorder cannot make: its parent is a file
  const blocked = path.join(dir, 'api.yaml', 'rec.db');
  // each refused on its own: side by side
  const [res, unknown, other, serve] = await Promise.all([
    runMock(['recorder', 'convert', '--input', missing]),
    runMock(['recorder', 'convert', '--input', DB, '--recording-id', '999']),
    runMock(['recorder', 'convert', '--input', notDb]),
    runMock(['serve', '-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--http-port', '0', '--recorder', '--recorder-db', blocked], { cwd: dir }),
  ]);
  t.equal(res.code, 1);
  t.equal(res.stderr.trim().split('\n').length, 1, 'one line');
  t.match(res.stderr, `${missing}: no such recordings database; record one with mock serve --recorder --recorder-db ${missing}, or give an existing one with --input <file>`);

  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /--recording-id 999: .* has no such recording \(it holds 5; omit --recording-id to convert every one\)/);

  t.equal(other.code, 1);
  t.match(other.stderr, /cannot be read as a recordings database \(file is not a database\)/);

  t.equal(serve.code, 1, 'serve stops before listening');
  t.match(serve.stderr, `recorder.db_path ${blocked}: ${path.dirname(blocked)} is a file, not a folder; give a path in a folder`);
  t.equal(serve.stderr.trim().split('\n').length, 1, 'one line');
  t.notMatch(serve.stdout, /serving on/);
});

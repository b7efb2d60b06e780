// `mock verify-mocks` (SPEC "Command line"): traffic recorded by `mock serve --recorder` held
// against the description with the server's own router and validators. Clean traffic exits 0
// with --fail-on-drift; rows written into the file with answers that break the schema, an
// undocumented status, an undocumented field, an undocumented media type and an unknown path exit
// 1, and the report names each by its recording id. Unhappy inputs are one-line errors.
import t from 'tap';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { runMock, sideBySide, startMock, tmpdir } from '../helpers/cli.js';

const { Database } = sqlite;

const SPEC = `openapi: 3.0.3
info: { title: verified, version: '1' }
paths:
  /things/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' }, example: { id: 1, name: first, tags: [{ label: a }] } } } }
        '404': { description: missing }
  /things:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' }, example: { id: 2, name: made } } } }
        '422': { description: refused, content: { application/json: { schema: { type: object } } } }
  /health:
    get:
      responses: { '200': { description: up, content: { text/plain: { schema: { type: string }, example: ok } } } }
components:
  schemas:
    Thing:
      type: object
      required: [id, name]
      properties:
        id: { type: integer }
        name: { type: string }
        tags: { type: array, items: { type: object, properties: { label: { type: string } } } }
`;

const dir = tmpdir();
const spec = path.join(dir, 'api.yaml');
writeFileSync(spec, SPEC);
const DB = path.join(dir, 'rec.db');

const server = await startMock(['--spec', spec, '--out', path.join(dir, 'out'), '--recorder', '--recorder-db', DB, '--validation-status', '422'], { cwd: dir });
t.teardown(() => server.stop());

t.test('traffic the mock answered by its description has no drift', async (t) => {
  const send = (method, p, body) =>
    fetch(server.url + p, { method, headers: { connection: 'close', ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.status);
  t.same([await send('GET', '/things/1'), await send('POST', '/things', { id: 3, name: 'three' }), await send('GET', '/things/2')], [200, 201, 200]);
  t.equal(await server.stop(), 0);

  const report = path.join(dir, 'clean.json');
  const newestReport = path.join(dir, 'newest.json');
  // both read the file: side by side
  const [res, newest] = await Promise.all([
    runMock(['verify-mocks', '--spec', spec, '--capture-db', DB, '--fail-on-drift', '--output', report], { cwd: dir }),
    runMock(['verify-mocks', '--spec', spec, '--capture-db', DB, '--limit', '1', '--output', newestReport], { cwd: dir }),
  ]);
  t.equal(res.code, 0, `${res.stdout}${res.stderr}`);
  t.match(res.stdout, /3 recorded exchange\(s\) of rec\.db \(the newest, at most 500\)/);
  t.match(res.stdout, /coverage: 2 of 3 operations \(66\.7%\); never exercised: GET \/health/);
  t.match(res.stdout, /no drift/);
  const json = JSON.parse(readFileSync(report, 'utf8'));
  t.match(json, {
    exchanges: 3,
    limit: 500,
    drift: false,
    counts: { unmatched: 0, undocumented_statuses: 0, undocumented_content_types: 0, undocumented_fields: 0, schema_drift: 0, request_issues: 0 },
    coverage: { operations: 3, exercised: 2, percent: 66.7 },
  });
  t.same(json.coverage.by_operation, [
    { operation: 'GET /things/{id}', count: 2 },
    { operation: 'POST /things', count: 1 },
    { operation: 'GET /health', count: 0 },
  ]);

  t.equal(newest.code, 0);
  t.match(JSON.parse(readFileSync(newestReport, 'utf8')), { exchanges: 1, limit: 1, coverage: { by_operation: [{ count: 1 }, { count: 0 }, { count: 0 }] } }, '--limit reads the newest');
});

t.test('answers that drift from the description exit 1 with --fail-on-drift, each named by its recording', async (t) => {
  const drifted = path.join(dir, 'drifted.db');
  copyFileSync(DB, drifted);
  const db = new Database(drifted);
  const insert = (method, p, status, type, body, requestBody = null) =>
    db.run(
      `INSERT INTO recordings (recorded_at, duration_ms, protocol, method, path, query, request_headers, request_body, status, response_headers, response_body, route, client_address)
       VALUES ('2026-01-01T00:00:00.000Z', 1, 'http', ?, ?, '', ?, ?, ?, ?, ?, NULL, '127.0.0.1')`,
      [method, p, JSON.stringify(requestBody === null ? {} : { 'content-type': 'application/json' }), requestBody, status, JSON.stringify(type === null ? {} : { 'content-type': type }), body === null ? null : Buffer.from(body)],
    ).lastInsertRowid;
  const ids = {
    wrongType: insert('GET', '/things/4', 200, 'application/json', '{"id":"four","name":"x"}'),
    teapot: insert('GET', '/things/5', 418, 'text/plain', 'short and stout'),
    extra: insert('GET', '/things/6', 200, 'application/json', '{"id":6,"name":"x","secret":true,"tags":[{"label":"a","colour":"red"}]}'),
    mediaType: insert('GET', '/things/7', 200, 'text/html', '<p>7</p>'),
    unknown: insert('GET', '/nowhere', 404, null, null),
    wrongMethod: insert('DELETE', '/things/8', 405, null, null),
    badRequest: insert('POST', '/things', 201, 'application/json', '{"id":9,"name":"nine"}', Buffer.from('{"name":9}')),
  };
  db.close();

  const report = path.join(dir, 'drift.json');
  const [res, lenient] = await Promise.all([
    runMock(['verify-mocks', '--spec', spec, '--capture-db', drifted, '--fail-on-drift', '--output', report], { cwd: dir }),
    runMock(['verify-mocks', '--spec', spec, '--capture-db', drifted], { cwd: dir }),
  ]);
  t.equal(res.code, 1, 'drift fails the run');
  const json = JSON.parse(readFileSync(report, 'utf8'));
  t.equal(json.drift, true);
  t.match(json.counts, { unmatched: 2, undocumented_statuses: 1, undocumented_content_types: 1, undocumented_fields: 1, schema_drift: 1, request_issues: 1 });
  t.match(json.schema_drift, [{ recording_id: ids.wrongType, operation: 'GET /things/{id}', status: 200, content_type: 'application/json', errors: [{ name: '/id', message: /must be integer/ }] }]);
  t.match(json.undocumented_statuses, [{ recording_id: ids.teapot, status: 418, documented: ['200', '404'] }]);
  t.match(json.undocumented_fields, [{ recording_id: ids.extra, fields: ['$.secret', '$.tags[].colour'] }], 'undeclared even where additionalProperties lets them through');
  t.match(json.undocumented_content_types, [{ recording_id: ids.mediaType, content_type: 'text/html', documented: ['application/json'] }]);
  t.match(json.unmatched, [
    { recording_id: ids.unknown, path: '/nowhere', reason: 'no operation has this path' },
    { recording_id: ids.wrongMethod, method: 'DELETE', reason: /no DELETE operation has this path/ },
  ]);
  t.match(json.request_issues, [{ recording_id: ids.badRequest, operation: 'POST /things', issues: [{ location: 'body' }] }]);
  t.match(res.stdout, new RegExp(`schema drift: 1\\n  #${ids.wrongType} GET /things/\\{id\\} 200 application/json: body /id must be integer`));
  t.match(res.stdout, new RegExp(`#${ids.teapot} GET /things/\\{id\\} answered 418 \\(documented: 200, 404\\)`));
  t.match(res.stdout, new RegExp(`#${ids.unknown} GET /nowhere → 404: no operation has this path`));
  t.match(res.stdout, /drift: 6 finding\(s\)/);

  t.equal(lenient.code, 0, 'without --fail-on-drift the report is information');
});

t.test('unhappy paths are one line naming the file and the fix', async (t) => {
  const missing = path.join(dir, 'missing.db');
  const other = path.join(dir, 'other.db');
  const db = new Database(other);
  db.exec('CREATE TABLE notes (text TEXT)');
  db.close();
  // each refused on its own: side by side
  const [gone, noTable, notDb, ...limits] = await sideBySide(
    [
      ['--capture-db', missing],
      ['--capture-db', other],
      ['--capture-db', spec],
      ['--capture-db', DB, '--limit', '0'],
      ['--capture-db', DB, '--limit', 'many'],
    ].map((args) => () => runMock(['verify-mocks', '--spec', spec, ...args], { cwd: dir })),
  );
  t.equal(gone.code, 1);
  t.equal(gone.stderr.trim().split('\n').length, 1, 'one line');
  t.match(gone.stderr, `${missing}: no such recordings database; record one with mock serve --recorder --recorder-db ${missing}, or give an existing one with --capture-db <file>`);

  t.equal(noTable.code, 1);
  t.match(noTable.stderr, `${other} has no recordings table: it is not a database mock serve --recorder wrote; give one with --capture-db <file>`);

  t.equal(notDb.code, 1);
  t.match(notDb.stderr, /cannot be read as a recordings database \(file is not a database\)/);

  for (const [i, bad] of ['0', 'many'].entries()) {
    const limit = limits[i];
    t.not(limit.code, 0, `--limit ${bad} is refused`);
    t.match(limit.stderr, /^mock: --limit: Expected an integer .*\(see mock verify-mocks --help\)\n$/);
  }
});

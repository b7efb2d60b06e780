// Record and replay through the real CLI: a real upstream on loopback recorded through
// --proxy-target, then replayed with the upstream gone (and a connection counter in its place),
// ordered sequences, binary bodies, redaction, files picked up while serving, malformed files,
// the fixture endpoints of the admin API, and a recording killed with SIGKILL.
import t from 'tap';
import http from 'node:http';
import net from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, root, startMock, tmpdir } from '../helpers/cli.js';
import { onceAcrossBackends } from '../helpers/node-http.js';

const spec = path.join(root, 'examples', 'petstore.yaml');
const out = await buildOnce(spec);

let served = 0;
const upstream = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    served++;
    if (req.url.startsWith('/v1/bin')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-kind': 'bytes' });
      res.end(Buffer.from([0, 255, 1, 254, 128, 10, 13]));
      return;
    }
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-served': String(served), 'set-cookie': 'session=s3cr3t; HttpOnly' });
    res.end(JSON.stringify({ served, method: req.method, url: req.url, body: Buffer.concat(chunks).toString('utf8'), name: 'Zoë' }));
  });
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;

const project = tmpdir();
const fixtures = path.join(project, 'fixtures', 'http');
writeFileSync(path.join(project, 'mock.yaml'), `specs: [${JSON.stringify(spec)}]\ncore:\n  fixtures:\n    dir: ./fixtures\n    ignore_query_params: [_]\n`);
const config = ['-c', path.join(project, 'mock.yaml'), '--out', out];

const files = () => (existsSync(fixtures) ? readdirSync(fixtures).filter((n) => n.endsWith('.json')).sort() : []);
const read = (name) => JSON.parse(readFileSync(path.join(fixtures, name), 'utf8'));
async function until(what, check, ms = 5000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
async function exchange(base, target, init = {}) {
  const res = await fetch(`${base}${target}`, init);
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), headers: res.headers, body };
}

const recorded = {};
await t.test('recording through --proxy-target writes one fixture per exchange, redacted, in order', async (t) => {
  const server = await startMock([...config, '--record', '--proxy-target', upstreamUrl]);
  t.teardown(() => server.stop());
  recorded.list = [];
  for (const stamp of [1, 2, 3]) {
    recorded.list.push(await exchange(server.url, `/v1/pets?limit=2&_=${stamp}`, { headers: { authorization: 'Bearer top-secret-token', 'x-api-key': 'k-123' } }));
  }
  recorded.bin = await exchange(server.url, '/v1/bin');
  recorded.post = await exchange(server.url, '/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json', cookie: 'session=abc' }, body: JSON.stringify({ name: 'Rex' }) });
  t.equal(served, 5, 'every request reached the upstream');
  await until('5 fixture files', () => files().length === 5);

  const pets = files().filter((n) => n.startsWith('get-v1-pets-'));
  t.equal(pets.length, 3, 'a repeated request is three files, not one');
  t.same(pets.map((n) => read(n).metadata.sequence), ['1', '2', '3'], 'numbered in the order answered');
  t.same(pets.map((n) => JSON.parse(read(n).response_body).served), [1, 2, 3], 'each holds its own answer');
  const first = read(pets[0]);
  t.same(first.fingerprint, { method: 'GET', path: '/v1/pets', query_params: { limit: '2' }, headers: {} }, 'the ignored cache buster is not part of the fingerprint');
  t.equal(first.request.query, 'limit=2&_=1', 'the request keeps its whole query');
  t.equal(first.request.headers.authorization, '[redacted]', 'Authorization is redacted');
  t.equal(first.request.headers['x-api-key'], '[redacted]', 'an API key header is redacted');
  t.equal(first.response_headers['set-cookie'], '[redacted]', 'Set-Cookie is redacted');
  t.equal(first.metadata.source, 'upstream', 'the upstream answered');
  for (const name of files()) t.notMatch(readFileSync(path.join(fixtures, name), 'utf8'), /top-secret-token|k-123|s3cr3t|session=abc/, `${name} holds no credential`);

  const bin = read(files().find((n) => n.startsWith('get-v1-bin-')));
  t.equal(bin.metadata.body_encoding, 'base64', 'a binary body is marked');
  t.same([...Buffer.from(bin.response_body, 'base64')], [0, 255, 1, 254, 128, 10, 13], 'and kept byte for byte');
  const post = read(files().find((n) => n.startsWith('post-v1-pets-')));
  t.equal(post.request.body, '{"name":"Rex"}', 'the request body is kept');
  t.equal(post.request.headers.cookie, '[redacted]', 'Cookie is redacted');
});

let counted = 0;
const counter = net.createServer((socket) => {
  counted++;
  socket.destroy();
});
await new Promise((resolve) => counter.listen(0, '127.0.0.1', resolve));
await new Promise((resolve) => upstream.close(resolve));
t.teardown(() => counter.close());

await t.test('replay answers byte for byte without opening a connection to the upstream', async (t) => {
  writeFileSync(path.join(fixtures, 'broken.json'), '{"fingerprint": {"method": "GET"');
  const server = await startMock([...config, '--replay', '--proxy-target', `http://127.0.0.1:${counter.address().port}`, '--admin', '--admin-port', '0'], { env: { MOCK_LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());
  t.match(server.stdout, /fixture skipped: http\/broken\.json: not valid JSON/, 'a malformed file is reported at start, by name and reason');
  t.match(server.stdout, /replaying 5 fixture\(s\)/, 'the others serve');

  for (const [i, stamp] of [7, 8, 9, 10].entries()) {
    const replayed = await exchange(server.url, `/v1/pets?_=${stamp}&limit=2`, { headers: { authorization: 'Bearer another-token' } });
    const original = recorded.list[Math.min(i, 2)];
    t.equal(replayed.status, original.status, `#${i + 1}: status`);
    t.equal(replayed.type, original.type, `#${i + 1}: content-type`);
    t.equal(replayed.headers.get('x-served'), original.headers.get('x-served'), `#${i + 1}: the upstream's own header`);
    t.equal(replayed.headers.get('set-cookie'), null, `#${i + 1}: a redacted Set-Cookie is not sent`);
    t.ok(replayed.body.equals(original.body), `#${i + 1}: body byte for byte (${i === 3 ? 'the last entry again' : 'in recorded order'})`);
  }
  const bin = await exchange(server.url, '/v1/bin');
  t.ok(bin.body.equals(recorded.bin.body), 'a binary body replays byte for byte');
  t.equal(bin.type, 'application/octet-stream');
  const post = await exchange(server.url, '/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Other' }) });
  t.equal(post.status, 201, 'POST replays its status');
  t.ok(post.body.equals(recorded.post.body), 'and its body');
  t.equal(counted, 0, 'no connection was opened to the upstream');

  const admin = server.adminUrl;
  const list = (await (await fetch(`${admin}/__mock/fixtures`)).json()).data;
  t.equal(list.length, 5, 'GET /__mock/fixtures lists the fixtures');
  const item = list.find((f) => f.path === '/v1/bin');
  t.same(Object.keys(item).sort(), ['file_path', 'file_size', 'fingerprint', 'id', 'metadata', 'method', 'path', 'protocol', 'saved_at'], 'listing item fields');
  t.equal(item.protocol, 'http');
  t.match(item.file_path, /^http\/get-v1-bin-[0-9a-f]{10}-0001\.json$/);

  // a file added while serving is answered from; changed, the new answer; removed, the chain answers again
  const added = path.join(fixtures, 'hand-written.json');
  const fixture = (body) => JSON.stringify({ fingerprint: { method: 'GET', path: '/v1/pets/77', query_params: {}, headers: {} }, status_code: 200, response_headers: { 'content-type': 'application/json' }, response_body: body, metadata: { name: 'pet 77', smoke_test: 'true' } });
  writeFileSync(added, fixture('{"id":77}'));
  await until('the added fixture', async () => (await exchange(server.url, '/v1/pets/77')).body.toString() === '{"id":77}');
  t.pass('a fixture file added while serving answers');
  writeFileSync(added, fixture('{"id":77,"changed":true}'));
  await until('the changed fixture', async () => (await exchange(server.url, '/v1/pets/77')).body.toString() === '{"id":77,"changed":true}');
  t.pass('a changed file answers its new content');
  const before = counted;
  rmSync(added);
  await until('the removed fixture to stop answering', async () => (await exchange(server.url, '/v1/pets/77')).status === 502);
  t.equal(counted, before + 1, 'once removed, the request falls through to the proxy');

  const smoke = (await (await fetch(`${admin}/__mock/smoke`)).json()).data;
  t.same(smoke, [], 'no smoke-test fixture now');
});

await t.test('the fixture endpoints of the admin API', async (t) => {
  const server = await startMock([...config, '--replay', '--admin', '--admin-port', '0']);
  t.teardown(() => server.stop());
  const admin = server.adminUrl;
  const json = (method, body) => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const call = async (target, init) => {
    const res = await fetch(`${admin}/__mock${target}`, init);
    return { status: res.status, body: await res.json() };
  };
  const fixture = { fingerprint: { method: 'GET', path: '/v1/pets/5', query_params: {}, headers: {} }, status_code: 200, response_headers: { 'content-type': 'application/json' }, response_body: '{"id":5}', metadata: { name: 'five', smoke_test: 'true' } };

  const created = await call('/fixtures', json('POST', fixture));
  t.equal(created.status, 201, 'POST /__mock/fixtures creates');
  const id = created.body.data.id;
  t.ok(existsSync(path.join(project, 'fixtures', created.body.data.file_path)), 'as a file in the folder');
  t.equal((await exchange(server.url, '/v1/pets/5')).body.toString(), '{"id":5}', 'and answers at once');
  t.same((await call('/smoke')).body.data.map((s) => s.name), ['five'], 'GET /__mock/smoke lists smoke-test fixtures');

  const bad = await call('/fixtures', json('POST', { ...fixture, status_code: 42 }));
  t.equal(bad.status, 400, 'an invalid fixture is refused');
  t.match(bad.body.error, /status_code/, 'naming the field');

  const smokeRun = await call('/smoke/run');
  t.equal(smokeRun.status, 200, 'GET /__mock/smoke/run runs the smoke tests');
  t.match(smokeRun.body.data, { message: '1 of 1 smoke tests passed', summary: { total: 1, passed: 1, failed: 0 } }, 'against this server');
  t.match(smokeRun.body.data.results[0], { id, name: 'five', passed: true, status: { expected: 200, actual: 200 } });
  const foreign = await fetch(`${admin}/__mock/smoke/run`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' } });
  t.equal(foreign.status, 403, 'a page of another site cannot start a run');

  const updated = await call(`/fixtures/${id}`, json('PUT', { ...fixture, response_body: '{"id":5,"v":2}' }));
  t.equal(updated.status, 200, 'PUT /__mock/fixtures/{id} replaces');
  t.equal((await exchange(server.url, '/v1/pets/5')).body.toString(), '{"id":5,"v":2}', 'the new content answers');
  t.same((await call(`/fixtures/${id}`)).body.data.fixture.response_body, '{"id":5,"v":2}', 'GET /__mock/fixtures/{id} shows it');

  const download = await fetch(`${admin}/__mock/fixtures/download?id=${id}`);
  t.equal(download.status, 200);
  t.match(download.headers.get('content-disposition'), /^attachment; filename="get-v1-pets-5-/, 'downloads as a file');
  t.equal(JSON.parse(await download.text()).response_body, '{"id":5,"v":2}', 'with the file content');

  const crossSite = await fetch(`${admin}/__mock/fixtures`, { ...json('POST', fixture), headers: { 'content-type': 'application/json', origin: 'https://evil.example' } });
  t.equal(crossSite.status, 403, 'a write from another site is refused');
  const form = await fetch(`${admin}/__mock/fixtures/delete`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ fixture_id: id }) });
  t.equal(form.status, 415, 'a write without a JSON body type is refused');

  const deleted = await call('/fixtures/delete', json('POST', { fixture_id: id }));
  t.equal(deleted.status, 200, 'POST /__mock/fixtures/delete deletes');
  t.equal((await call(`/fixtures/${id}`)).status, 404, 'it is gone');

  const ids = (await call('/fixtures')).body.data.filter((f) => f.method === 'GET' && f.path === '/v1/pets').map((f) => f.id);
  const bulk = await call('/fixtures/delete-bulk', json('POST', { fixture_ids: [...ids, 'nope'] }));
  t.same({ ...bulk.body.data, errors: bulk.body.data.errors.map((e) => e.fixture_id) }, { deleted_count: 3, total_requested: 4, errors: ['nope'] }, 'delete-bulk reports what it deleted and what it could not');
  t.same(files().filter((n) => n.startsWith('get-v1-pets-')), [], 'the files are gone');

  const settings = await call('/fixtures/settings', json('PUT', { replay_enabled: false }));
  t.equal(settings.body.data.replay_enabled, false, 'replay can be switched off');
  t.equal((await exchange(server.url, '/v1/bin')).status, 404, 'then the description answers');

  t.equal((await call('/fixtures', json('POST', fixture))).status, 201);
  const failing = await call('/smoke/run');
  t.match(failing.body.data, { summary: { total: 1, passed: 0, failed: 1 } }, 'with replay off the description answers, and the smoke test fails');
  t.ok(failing.body.data.results[0].differences.length > 0, 'naming the differences');

  const har = await fetch(`${admin}/__mock/fixtures/har?origin=http://api.test`);
  t.equal(har.status, 200, 'GET /__mock/fixtures/har exports');
  const exported = await har.json();
  const count = (await call('/fixtures')).body.data.length;
  t.equal(exported.log.entries.length, count, 'every fixture as a HAR entry');
  t.ok(exported.log.entries.every((e) => e.request.url.startsWith('http://api.test/')), 'at the origin asked for');
  const imported = await call('/fixtures/har', json('POST', exported));
  t.equal(imported.status, 201, 'POST /__mock/fixtures/har imports');
  t.equal(imported.body.data.imported, count, 'every entry');
  t.equal((await call('/fixtures')).body.data.length, 2 * count, 'as new files beside the old ones');
  const notHar = await call('/fixtures/har', json('POST', { entries: [] }));
  t.equal(notHar.status, 400);
  t.match(notHar.body.error, /not a HAR file/, 'a body that is not a HAR is refused');
  const socket = { startedDateTime: '2025-03-01T12:00:00.000Z', request: { method: 'GET', url: 'wss://api.test/chat' }, response: { status: 101 }, _webSocketMessages: [{ type: 'receive', time: 1740830400, opcode: 1, data: 'hi' }] };
  const websocket = await call('/fixtures/har', json('POST', { log: { entries: [socket] } }));
  t.equal(websocket.status, 400);
  t.equal(websocket.body.error, 'POST /__mock/fixtures/har: entries[0]: WebSocket /chat: this endpoint imports HTTP fixtures; mock fixtures import saves WebSocket sessions: skipped', 'a WebSocket session is said to be left out');

  const sibling = path.join(project, 'fixtures');
  rmSync(sibling, { recursive: true });
  mkdirSync(sibling);
  writeFileSync(path.join(sibling, 'http'), 'not a folder');
  const failed = await call('/fixtures');
  t.equal(failed.status, 500);
  t.match(failed.body.error, /^Failed to load fixtures/, 'an unreadable folder: Failed to load fixtures');
});

await t.test('a recording killed with SIGKILL leaves no partial fixture', { skip: onceAcrossBackends('its subject is how fixture files are saved, not the server library') }, async (t) => {
  const dir = tmpdir();
  const killed = path.join(dir, 'fixtures', 'http');
  const args = ['--spec', spec, '--out', out];
  const server = await startMock([...args, '--record'], { cwd: dir });
  const { port } = new URL(server.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  let sent = 0;
  const blast = async () => {
    while (server.child.exitCode === null && server.child.signalCode === null) {
      await new Promise((resolve) => http.get({ host: '127.0.0.1', port, path: `/v1/pets?limit=${sent++}`, agent }, (res) => res.resume().on('end', resolve)).on('error', resolve));
    }
  };
  const clients = Array.from({ length: 16 }, blast);
  await until('recording under way', () => existsSync(killed) && readdirSync(killed).filter((n) => n.endsWith('.json')).length > 50, 20_000);
  server.child.kill('SIGKILL');
  await Promise.all(clients);
  agent.destroy();
  const names = readdirSync(killed);
  const complete = names.filter((n) => n.endsWith('.json'));
  t.ok(complete.length > 50, `${complete.length} fixtures written before the kill`);
  for (const name of complete) JSON.parse(readFileSync(path.join(killed, name), 'utf8'));
  t.pass('every fixture file is whole JSON');
  const restarted = await startMock([...args, '--replay'], { cwd: dir, env: { MOCK_LOG_LEVEL: 'info' } });
  t.teardown(() => restarted.stop());
  t.same(readdirSync(killed).filter((n) => !n.endsWith('.json')), [], 'the next start removes the temporary files of saves the kill cut short');
  t.match(restarted.stdout, new RegExp(`replaying ${complete.length} fixture\\(s\\)`), 'and serves every whole fixture');
});

await t.test('SIGTERM while fixtures are being saved: the saves finish and the server exits 0', async (t) => {
  const dir = tmpdir();
  const saved = path.join(dir, 'fixtures', 'http');
  const server = await startMock(['--spec', spec, '--out', out, '--record'], { cwd: dir });
  const { port } = new URL(server.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let sent = 0;
  const one = () => new Promise((resolve) => http.get({ host: '127.0.0.1', port, path: `/v1/pets?limit=${sent++ % 1000}`, agent }, (res) => res.resume().on('end', resolve)).on('error', resolve));
  await Promise.all(Array.from({ length: 400 }, one));
  // saves are in flight now: write-file-atomic's signal handler must not kill the process
  const code = await server.stop();
  agent.destroy();
  t.equal(code, 0, 'exit 0 (the signal was handled, not re-raised)');
  const names = readdirSync(saved);
  t.same(names.filter((n) => !n.endsWith('.json')), [], 'no temporary file is left');
  t.ok(names.length >= 400 || names.length === 1000, `every exchange was saved before exiting (${names.length})`);
});

await t.test('a query parameter named __proto__ is part of the fingerprint, not dropped from it', async (t) => {
  // assigned to an ordinary object, it set the prototype: the recording's key was the bare path, which other requests then replayed
  const dir = tmpdir();
  const saved = path.join(dir, 'fixtures', 'http');
  const server = await startMock(['--spec', spec, '--out', out, '--record'], { cwd: dir });
  t.teardown(() => server.stop());
  const answered = await exchange(server.url, '/v1/pets?__proto__=a&__proto__=b&limit=1');
  t.equal(answered.status, 200, 'answered');
  await until('the fixture', () => existsSync(saved) && readdirSync(saved).some((n) => n.endsWith('.json')));
  const fixture = JSON.parse(readFileSync(path.join(saved, readdirSync(saved).find((n) => n.endsWith('.json'))), 'utf8'));
  t.ok(Object.hasOwn(fixture.fingerprint.query_params, '__proto__'), 'kept as a parameter');
  t.same(Object.entries(fixture.fingerprint.query_params), [['__proto__', ['a', 'b']], ['limit', '1']]);
});

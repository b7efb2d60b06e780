// Header names uWebSockets.js once could not read are served by it now; the node:http backend is
// there when asked for with server.http_backend: node.
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { buildOnce, corpus, root, startMock, tmpdir } from '../helpers/cli.js';

const petstoreV3 = path.join(corpus, 'openapi', 'swagger-petstore-v3.yaml');
const petstore = path.join(root, 'examples', 'petstore.yaml');
const petstoreBuild = await buildOnce(petstore);

/** One raw request, for headers fetch would not let us judge (HEAD, 204); resolves with the raw answer. */
function raw(url, text) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve(data);
    }, 2000);
  });
}

t.test('a description declaring api_key is served by uWebSockets.js, and such requests are answered', async (t) => {
  const server = await startMock(['--spec', petstoreV3, '--out', tmpdir(), '--admin-embed']);
  t.teardown(() => server.stop());
  t.notMatch(server.stdout + server.stderr, /node:http/, 'no fallback to node:http');
  const deleted = await fetch(`${server.url}/api/v3/pet/7`, { method: 'DELETE', headers: { api_key: 'secret', authorization: 'Bearer token', connection: 'close' }, signal: AbortSignal.timeout(5000) });
  await deleted.arrayBuffer();
  t.equal(deleted.status, 200, 'a request carrying api_key gets its answer');
  const found = await fetch(`${server.url}/api/v3/pet/findByStatus?status=available`, { headers: { authorization: 'Bearer token', connection: 'close' } });
  t.equal(found.status, 200);
  t.ok(Array.isArray(await found.json()), 'generated from the schema');
  const invalid = await fetch(`${server.url}/api/v3/pet/not-a-number`, { headers: { authorization: 'Bearer token', connection: 'close' } });
  t.equal(invalid.status, 400, 'validated');
  t.equal(invalid.headers.get('x-mock-error-code'), 'MOCK_ERR_REQUEST_INVALID');
  t.equal(await invalid.text(), '', 'the description documents its 400 without content: none');

  const health = await fetch(`${server.url}/__mock/health`, { headers: { connection: 'close' } });
  t.equal((await health.json()).services.http, 'running', 'the embedded admin API answers too');
  const logs = await (await fetch(`${server.url}/__mock/logs?method=DELETE&limit=1`, { headers: { connection: 'close' } })).json();
  t.equal(logs.data[0].client_ip, '127.0.0.1', 'client addresses read as text');
  t.equal(logs.data[0].headers.api_key, '[redacted]', "the description's apiKey header is redacted in the request log");

  const head = await raw(server.url, 'HEAD /api/v3/pet/findByStatus?status=available HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer token\r\nConnection: close\r\n\r\n');
  t.match(head, /^HTTP\/1\.1 200 /);
  t.equal(head.split('\r\n\r\n')[1], '', 'HEAD answers carry no body');
});

t.test('forced by server.http_backend: node, with runtime mocks, SSE, 204 and 413', async (t) => {
  const dir = tmpdir();
  const { writeFileSync } = await import('node:fs');
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${petstore}]\nserver: { http_backend: node }\nhttp: { max_body_bytes: 1024 }\n`);
  const server = await startMock(['--admin-embed', '--out', petstoreBuild], { cwd: dir });
  t.teardown(() => server.stop());

  const pet = await fetch(`${server.url}/v1/pets/1`);
  t.equal(pet.status, 200);
  t.same(Object.keys(await pet.json()).sort().includes('name'), true);

  const created = await fetch(`${server.url}/__mock/mocks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'GET', path: '/v1/pets/{id}', status_code: 204, response: { body: { ignored: true } } }),
  });
  t.equal(created.status, 201);
  const empty = await raw(server.url, 'GET /v1/pets/3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  t.match(empty, /^HTTP\/1\.1 204 /);
  t.notMatch(empty, /content-length/i, 'a 204 carries no length');
  t.equal(empty.split('\r\n\r\n')[1], '', 'and no content');

  const tooLarge = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(2000) }) });
  t.equal(tooLarge.status, 413);
  t.match((await tooLarge.json()).detail, /exceeds 1024 bytes/);

  const stream = await fetch(`${server.url}/__mock/logs/sse`);
  t.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  const reader = stream.body.getReader();
  await fetch(`${server.url}/v1/health`).then((r) => r.arrayBuffer());
  let text = '';
  const decoder = new TextDecoder();
  while (!text.includes('event: log')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  const data = JSON.parse(/event: log\ndata: (.*)\n/.exec(text)[1]);
  t.equal(data.path, '/v1/health', 'request log entries stream as they happen');
  await reader.cancel();
  const after = await fetch(`${server.url}/v1/health`);
  t.equal(after.status, 200, 'a closed stream leaves the server answering');
});

t.test('MOCK_HTTP_BACKEND=node beats server.http_backend: uws in mock.yaml (the node:http pass of test/node-http/ relies on it)', async (t) => {
  const dir = tmpdir();
  const { writeFileSync } = await import('node:fs');
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${petstore}]\nserver: { http_backend: uws }\n`);
  const [file, env] = await Promise.all([
    startMock(['--out', petstoreBuild], { cwd: dir }),
    startMock(['--out', petstoreBuild], { cwd: dir, env: { MOCK_HTTP_BACKEND: 'node' } }),
  ]);
  t.teardown(() => Promise.all([file.stop(), env.stop()]));
  // an HTTP/1.0 client tells them apart: uWS refuses it, node:http answers it
  const request = 'GET /v1/pets/1 HTTP/1.0\r\n\r\n';
  t.match(await raw(file.url, request), /^HTTP\/1\.1 505 /, 'mock.yaml alone: uWS');
  t.match(await raw(env.url, request), /^HTTP\/1\.1 200 [^]*"id":1/, 'with the variable: node:http');
});

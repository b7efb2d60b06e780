// Request smuggling through ambiguous framing, tried on raw sockets against both HTTP backends: a
// second Content-Length or a Transfer-Encoding other than one `chunked` would let the bytes after
// the first body be read as a request of their own. Each gets a prompt 400 and a closed connection.
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { buildOnce, root, startMock, tmpdir } from '../helpers/cli.js';
import { MALFORMED_REQUESTS } from '../helpers/malformed-requests.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');

// One server per backend for the whole file, both serving one build (the backend is a run-time setting).
const out = await buildOnce(petstore);
async function serve(backend) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${JSON.stringify(petstore)}]\nserver: { http_backend: ${backend} }\n`);
  return startMock(['--out', out], { cwd: dir });
}
const [uws, node] = await Promise.all([serve('uws'), serve('node')]);
const servers = { uws, node };
t.teardown(() => Promise.all([servers.uws.stop(), servers.node.stop()]));

/** Sends `text` on a fresh connection; resolves with what came back and whether the server closed it. */
function send(url, text, waitMs = 2000) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let data = '';
    let closedMs;
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('close', () => {
      closedMs ??= performance.now() - started;
      resolve({ text: data, closedMs });
    });
    socket.on('error', reject);
    setTimeout(() => {
      closedMs ??= undefined;
      socket.destroy();
    }, waitMs);
  });
}

const statuses = (text) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

const pet = '{"name":"Rex","kind":"dog"}';
const smuggled = 'GET /v1/pets/1 HTTP/1.1\r\nHost: localhost\r\n\r\n';
const post = (headers, body) => `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${headers.join('\r\n')}\r\n\r\n${body}`;

const chunks = `${pet.length.toString(16)}\r\n${pet}\r\n0\r\n\r\n`;
/** Each with the bytes an attacker would have parsed as a request of its own (empty where the framing hides none). */
const AMBIGUOUS = {
  'two different Content-Length headers': [post([`Content-Length: ${pet.length}`, `Content-Length: ${pet.length + smuggled.length}`], pet), smuggled],
  'Transfer-Encoding: chunked, identity': [post(['Transfer-Encoding: chunked, identity'], chunks), smuggled],
  'two Transfer-Encoding headers': [post(['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'], chunks), smuggled],
  'Content-Length that is not a number': [post([`Content-Length: ${pet.length}x`], pet), ''],
};

for (const backend of ['uws', 'node']) {
  t.test(`backend ${backend}`, async (t) => {
    const server = servers[backend];

    for (const [name, [request, hidden]] of Object.entries(AMBIGUOUS)) {
      const alone = await send(server.url, request);
      t.same(statuses(alone.text), [400], `${name}: 400`);
      // uWS's own parser refuses a length that is not a number; node:http's refusals come in the catalogue's shape too
      if (backend === 'node' || hidden !== '') t.match(alone.text, /"code":"MOCK_ERR_REQUEST_(FRAMING|MALFORMED)"/, `${name}: a problem answer from the catalogue`);
      t.ok(alone.closedMs !== undefined && alone.closedMs < 1500, `${name}: and the connection is closed at once (${alone.closedMs?.toFixed(0)} ms)`);
      if (hidden === '') continue;
      // uWS drops the connection when bytes come in behind a request it has not answered yet
      const smuggling = await send(server.url, request + hidden);
      t.ok(statuses(smuggling.text).every((status) => status === 400), `${name}, with a request behind it: only the 400, the hidden request is never answered`);
      t.ok(smuggling.closedMs !== undefined && smuggling.closedMs < 1500, `${name}, with a request behind it: the connection is closed at once`);
    }

    // RFC 9110 8.6 lets a server take a repeated length as one; node:http's parser refuses it
    const repeated = await send(server.url, post([`Content-Length: ${pet.length}`, `Content-Length: ${pet.length}`, 'Connection: close'], pet));
    t.same(statuses(repeated.text), [backend === 'uws' ? 201 : 400], 'one length given twice');

    const chunked = await send(server.url, post(['Transfer-Encoding: chunked', 'Connection: close'], `${pet.length.toString(16)}\r\n${pet}\r\n0\r\n\r\n`));
    t.same(statuses(chunked.text), [201], 'a plain chunked body is served');
  });
}

t.test('the node:http backend answers malformed requests at once and closes the connection', async (t) => {
  const server = servers.node;
  for (const [name, request] of Object.entries(MALFORMED_REQUESTS)) {
    const { text, closedMs } = await send(server.url, request);
    const [status] = statuses(text);
    t.ok(status === 400 || status === 200, `${name}: answered ${status}`);
    t.ok(closedMs !== undefined && closedMs < 1500, `${name}: the connection is closed at once (${closedMs?.toFixed(0)} ms)`);
  }
  const absolute = await send(server.url, 'GET http://localhost/v1/pets/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  t.same(statuses(absolute.text), [200], 'an absolute-form request (RFC 9112 3.2.2) is served');
});

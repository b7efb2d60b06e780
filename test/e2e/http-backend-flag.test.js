// `mock serve --http-backend node` serves what uWebSockets.js refuses: HTTP/1.0 clients (curl
// --http1.0, raw sockets, with and without keep-alive, with a body) and the malformed request shapes
// uWS leaves unanswered until its idle timeout. The flag and MOCK_HTTP_BACKEND choose the backend,
// which the start line names; a bad value is one line. docs/backends.md.
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { buildOnce, needsCurl, root, runMock, startMock } from '../helpers/cli.js';
import { MALFORMED_REQUESTS } from '../helpers/malformed-requests.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
const out = await buildOnce(petstore);
// whatever the environment of the run says (the node:http pass sets MOCK_HTTP_BACKEND), each server is what its case asks for
const start = (args, env = {}) => startMock(['--spec', petstore, '--out', out, ...args], { env: { MOCK_HTTP_BACKEND: undefined, ...env } });
const [node, byEnv, flagOverEnv] = await Promise.all([start(['--http-backend', 'node']), start([], { MOCK_HTTP_BACKEND: 'node' }), start(['--http-backend', 'uws'], { MOCK_HTTP_BACKEND: 'node' })]);
t.teardown(() => Promise.all([node.stop(), byEnv.stop(), flagOverEnv.stop()]));

/**
 * Writes `text` on a fresh connection (then `more`, once the first answer is in) and collects what
 * comes back until the server closes the connection or `waitMs` passes; `closedByServer` tells which.
 */
function exchange(url, text, { more, waitMs = 5000 } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let data = '';
    let closedByServer = false;
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (more !== undefined && /\r\n\r\n[^]*\{[^]*\}$/.test(data)) {
        socket.write(more);
        more = undefined;
      }
    });
    socket.on('end', () => (closedByServer = true));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: data, closedByServer });
    });
    socket.on('error', reject);
    const timer = setTimeout(() => socket.destroy(), waitMs);
  });
}

// a second answer's status line follows the first answer's body directly
const statuses = (text) => [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));

t.test('the start line names the backend the flag or MOCK_HTTP_BACKEND chose, the flag winning', async (t) => {
  t.match(node.stdout, /serving on http:\/\/\S+ \(node:http\)\n/, '--http-backend node');
  t.match(byEnv.stdout, /serving on http:\/\/\S+ \(node:http\)\n/, 'MOCK_HTTP_BACKEND=node');
  t.match(flagOverEnv.stdout, /serving on http:\/\/\S+ \(uWebSockets\.js; HTTP\/1\.0 clients get 505: serve them with --http-backend node\)\n/, '--http-backend uws beats the variable, and says what it refuses');
  const refused = await exchange(flagOverEnv.url, 'GET /v1/pets/1 HTTP/1.0\r\n\r\n', { waitMs: 2000 });
  t.same(statuses(refused.text), [505], 'which is true: uWS answers HTTP/1.0 with 505');
  const env = await exchange(byEnv.url, 'GET /v1/pets/1 HTTP/1.0\r\n\r\n');
  t.same(statuses(env.text), [200], 'the variable alone serves HTTP/1.0');
});

t.test('a bad --http-backend is one line naming the flag and its values', async (t) => {
  const { code, stdout, stderr } = await runMock(['serve', '--spec', petstore, '--out', out, '--http-backend', 'express']);
  t.equal(code, 2);
  t.equal(stdout, '');
  t.equal(stderr, 'mock: Expected --http-backend=express to be one of: auto, uws, node (see mock serve --help)\n');
});

t.test('curl --http1.0 is served', { skip: needsCurl }, async (t) => {
  const { stdout } = await new Promise((resolve, reject) =>
    execFile('curl', ['-sS', '-i', '--http1.0', '--max-time', '10', `${node.url}/v1/pets/1`], (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve({ stdout }))),
  );
  const [head, body] = stdout.split('\r\n\r\n');
  t.match(head, /^HTTP\/1\.1 200 OK\r\n/);
  t.match(head, /\r\nconnection: close(\r\n|$)/i, 'an HTTP/1.0 request without keep-alive gets its connection closed');
  t.equal(JSON.parse(body).name, 'Tom');
});

t.test('raw HTTP/1.0 requests: without and with keep-alive, with a body', async (t) => {
  const plain = await exchange(node.url, 'GET /v1/pets/1 HTTP/1.0\r\n\r\n');
  t.same(statuses(plain.text), [200], 'no Host, no headers at all: HTTP/1.0 needs none');
  t.match(plain.text, /\r\ncontent-length: \d+\r\n/i, 'the body says its length');
  t.ok(plain.closedByServer, 'the server closes the connection after the answer');

  const kept = await exchange(node.url, 'GET /v1/pets/1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n', { more: 'GET /v1/pets/2 HTTP/1.0\r\n\r\n' });
  t.same(statuses(kept.text), [200, 200], 'Connection: keep-alive carries a second request on the same connection');
  t.match(kept.text, /\r\nconnection: keep-alive\r\n[^]*\r\nconnection: close\r\n/i, 'the first answer keeps the connection, the second (no keep-alive asked) closes it');
  t.ok(kept.closedByServer);

  const closing = await exchange(node.url, 'GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  t.same(statuses(closing.text), [200]);
  t.match(closing.text, /\r\nconnection: close\r\n/i);
  t.ok(closing.closedByServer, 'Connection: close on HTTP/1.1 closes it too');

  const pet = JSON.stringify({ name: 'Kitty', kind: 'cat' });
  const posted = await exchange(node.url, `POST /v1/pets HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${pet.length}\r\n\r\n${pet}`);
  t.same(statuses(posted.text), [201], 'a body with Content-Length is read and validated');
  t.ok(posted.closedByServer);
  const invalid = await exchange(node.url, 'POST /v1/pets HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
  t.same(statuses(invalid.text), [400], 'and refused when it does not match the schema');
});

// uWS leaves each of these unanswered until its 10 s idle timeout (the second security pass, item 12)
t.test('malformed requests get an answer and a closed connection, not silence', async (t) => {
  for (const [name, request] of Object.entries(MALFORMED_REQUESTS)) {
    const { text, closedByServer } = await exchange(node.url, request);
    const [status] = statuses(text);
    t.ok(status === 400 || status === 200, `${name}: answered ${status}`);
    t.ok(closedByServer, `${name}: the server closed the connection`);
  }
});

// http.keepalive_hint (MOCK_HTTP_KEEPALIVE_HINT=1): answers that keep their connection say so and
// give the server's real idle timeout, on both backends; a connection idle for just under the
// advertised timeout still carries the next request.
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { buildOnce, root, startMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
// one build for the three servers (the backend and the hint are run-time settings): they find it fresh
const out = await buildOnce(petstore);

async function serve(t, backend, hint) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${JSON.stringify(petstore)}]\nserver: { http_backend: ${backend} }\n`);
  const server = await startMock(['--out', out], { cwd: dir, env: hint ? { MOCK_HTTP_KEEPALIVE_HINT: '1' } : {} });
  t.teardown(() => server.stop());
  return server;
}

/** Requests on one connection, each written after the previous answer (and `pauses[i]` ms); resolves with the heads. */
function onOneConnection(url, requests, pauses = []) {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const heads = [];
    let buffer = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(requests[0]));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      // each answer here is small and whole once its body has arrived (Content-Length)
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        heads.push(head.toLowerCase().split('\r\n'));
        buffer = buffer.slice(end + 4 + length);
        const next = requests[heads.length];
        if (next === undefined) {
          socket.destroy();
          resolve(heads);
          return;
        }
        setTimeout(() => socket.write(next), pauses[heads.length - 1] ?? 0);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(heads));
  });
}

const get = (close = false) => `GET /v1/pets/1 HTTP/1.1\r\nHost: localhost\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;

// the servers start together, and the two idle waits run side by side
const [uwsHinted, uwsPlain, nodeHinted] = await Promise.all([serve(t, 'uws', true), serve(t, 'uws', false), serve(t, 'node', true)]);

t.test('uWebSockets.js with the hint: keep-alive and its 10 s idle timeout, none on a closing answer; node:http its own', async (t) => {
  const [kept, closing] = await onOneConnection(uwsHinted.url, [get(), get(true)]);
  t.ok(kept.includes('connection: keep-alive'), kept.join(' | '));
  t.ok(kept.includes('keep-alive: timeout=10'));
  t.notOk(closing.includes('connection: keep-alive'), 'an answer that ends the connection does not say keep-alive');
  t.notOk(closing.some((line) => line.startsWith('keep-alive:')));

  const [head] = await onOneConnection(nodeHinted.url, [get()]);
  t.ok(head.includes('connection: keep-alive'), head.join(' | '));
  const timeout = Number(head.find((line) => line.startsWith('keep-alive: timeout='))?.split('=')[1]);
  t.ok(timeout > 0, `node:http: keep-alive: timeout=${timeout}`);

  const [uwsIdle, nodeIdle] = await Promise.all([
    onOneConnection(uwsHinted.url, [get(), get()], [9000]),
    onOneConnection(nodeHinted.url, [get(), get()], [(timeout - 1) * 1000]),
  ]);
  t.equal(uwsIdle.length, 2, 'a uWS connection idle for 9 s, under the advertised 10, still carries the next request');
  t.equal(nodeIdle.length, 2, `a node:http connection idle for ${timeout - 1} s still carries the next request`);
});

t.test('uWebSockets.js without the hint: no keep-alive fields (off by default)', async (t) => {
  const [head] = await onOneConnection(uwsPlain.url, [get()]);
  t.notOk(head.some((line) => line.startsWith('keep-alive:') || line === 'connection: keep-alive'), head.join(' | '));
});

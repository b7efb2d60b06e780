// Request shapes the previous uWebSockets.js build never answered (docs/architecture.md, "Node.js versions and the HTTP server library"),
// sent on raw sockets to the default backend: each gets an answer within a second, and none holds
// up another client.
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';

const server = await startMock(['--spec', path.join(root, 'examples', 'petstore.yaml'), '--out', tmpdir()]);
t.teardown(() => server.stop());
const { port } = new URL(server.url);

/** Sends `text` and resolves with what came back within `ms` and whether the server closed. */
function raw(text, ms = 1000) {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    let data = '';
    let settled = false;
    const done = (closed) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ data, closed, ms: performance.now() - started, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]) || undefined });
    };
    socket.on('data', (chunk) => {
      data += chunk;
      // one whole answer is enough
      const end = data.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(data)?.[1];
      if (end >= 0 && length !== undefined && data.length >= end + 4 + Number(length)) done(false);
    });
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
    setTimeout(() => done(false), ms);
  });
}

const get = (headers) => `GET /v1/pets/1 HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;

t.test('header names with _ and . are read', async (t) => {
  for (const header of ['api_key: secret', 'x.trace.id: 7', 'a_b.c_d: x']) {
    const res = await raw(get(['Host: localhost', header]));
    t.equal(res.status, 200, `${header} (${res.ms.toFixed(0)} ms)`);
  }
});

t.test('60 headers are read', async (t) => {
  const headers = Array.from({ length: 60 }, (_, i) => `X-Header-${i}: value-${i}`);
  const res = await raw(get(['Host: localhost', ...headers]));
  t.equal(res.status, 200, `answered in ${res.ms.toFixed(0)} ms`);
});

t.test('HTTP/1.1 without Host is a 400', async (t) => {
  const res = await raw(get(['Accept: */*']));
  t.equal(res.status, 400);
  t.ok(res.ms < 1000, `at once (${res.ms.toFixed(0)} ms)`);
});

t.test('HTTP/1.0 gets an explicit answer saying it is not supported', async (t) => {
  const res = await raw('GET /v1/pets/1 HTTP/1.0\r\nHost: localhost\r\n\r\n');
  t.equal(res.status, 505);
  t.match(res.data, /does not support HTTP\/1\.0/);
  t.ok(res.ms < 1000, `at once (${res.ms.toFixed(0)} ms)`);
});

t.test('a garbage request line is refused at once, while another client is served', async (t) => {
  const garbage = raw('HELLO THERE\r\n\r\n');
  const meanwhile = raw(get(['Host: localhost']));
  const [bad, good] = await Promise.all([garbage, meanwhile]);
  t.ok(bad.status >= 400 || bad.closed, `refused (${bad.status ?? 'closed'}, ${bad.ms.toFixed(0)} ms)`);
  t.ok(bad.ms < 1000, 'promptly');
  t.equal(good.status, 200, 'the other client got its answer');
  t.ok(good.ms < 1000);
  const binary = await raw(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]).toString('latin1') + '\r\n\r\n');
  t.ok(binary.status >= 400 || binary.closed, `a TLS hello on the plain port is refused or closed (${binary.ms.toFixed(0)} ms)`);
});

t.test('request heads up to 16 KiB are read (as node:http reads them); larger ones get 431 at once', async (t) => {
  const long = await raw(`GET /v1/pets?q=${'a'.repeat(9 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  t.equal(long.status, 200, 'a 9 KiB query string');
  const huge = await raw(`GET /v1/pets?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  t.equal(huge.status, 431);
  t.ok(huge.ms < 1000, `at once (${huge.ms.toFixed(0)} ms)`);
});

// The proxy never joins a path with dot segments to its upstream's: `mock serve --proxy-target`
// in front of a real upstream that records what reaches it, with raw request lines written over a
// socket (and curl --path-as-is), which no URL parser on the client side normalises first. The
// WebSocket relay joins paths with the same function: its upstream (a ws server on the same port)
// records the paths of the upgrades it receives.
import t from 'tap';
import http from 'node:http';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { needsCurl, root, startMock, tmpdir } from '../helpers/cli.js';

const received = [];
const upstream = http.createServer((req, res) => {
  received.push(req.url);
  if (req.url.endsWith('/huge')) {
    res.setHeader('content-type', 'application/octet-stream');
    res.end(Buffer.alloc(64 * 1024));
    return;
  }
  if (req.url.endsWith('/endless')) {
    // an answer that never ends: chunks as fast as the socket takes them
    const more = () => {
      while (!res.destroyed && res.write(Buffer.alloc(16 * 1024)));
      if (!res.destroyed) res.once('drain', more);
    };
    more();
    return;
  }
  res.setHeader('content-type', 'application/json');
  // UTF-8 bytes in a header value, as servers send them today
  res.setHeader('x-name', Buffer.from('Zoë', 'utf8').toString('latin1'));
  // a body of bytes: with a text body node:http would encode the head as UTF-8, the bytes twice
  res.end(Buffer.from(JSON.stringify({ upstream: true, url: req.url })));
});
const upgrades = [];
const wsUpstream = new WebSocketServer({ server: upstream });
wsUpstream.on('connection', (socket, req) => {
  upgrades.push(req.url);
  socket.send(`upstream saw ${req.url}`);
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
t.teardown(() => {
  wsUpstream.close();
  upstream.close();
});

const dir = tmpdir();
writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${JSON.stringify(path.join(root, 'examples', 'petstore.yaml'))}]\nproxy: { enabled: true }\nhttp: { max_body_bytes: 32768 }\n`);
const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--proxy-target', `http://127.0.0.1:${upstream.address().port}/srv/api`, '--ws-port', '0']);
t.teardown(() => server.stop());
const { port } = new URL(server.url);
const wsPort = Number(new URL(server.wsUrl).port);

/** One raw request line, as written; resolves with the status and the parsed body. */
function raw(target) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      let json;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(text.split(' ')[1]), json });
    });
  });
}

t.test('a plain path reaches the upstream below its path', async (t) => {
  const { status, json } = await raw('/v1/pets/1?x=1');
  t.equal(status, 200);
  t.same(json, { upstream: true, url: '/srv/api/v1/pets/1?x=1' });
  const dots = await raw('/v1/.well-known/a..b/...');
  t.equal(dots.status, 200, 'dots inside a name are no dot segment');
});

/** One raw upgrade request to the WebSocket port, path as written; resolves with the status, the parsed body of a refusal, and the first message after a 101. */
function rawUpgrade(target) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(wsPort, '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`),
    );
    let bytes = Buffer.alloc(0);
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.on('data', (chunk) => {
      bytes = Buffer.concat([bytes, chunk]);
      const end = bytes.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = bytes.subarray(0, end).toString('latin1');
      const status = Number(head.split(' ')[1]);
      const rest = bytes.subarray(end + 4);
      if (status === 101) {
        // an unmasked server text frame of less than 126 bytes: its length in the second byte
        if (rest.length >= 2 && rest.length >= 2 + (rest[1] & 127)) done({ status, message: rest.subarray(2, 2 + (rest[1] & 127)).toString('utf8') });
        return;
      }
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? -1);
      if (length >= 0 && rest.length >= length) done({ status, json: JSON.parse(rest.subarray(0, length).toString('utf8')) });
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: 0 }));
  });
}

const DOT_PATHS = [
    '/api/../../etc/passwd',
    '/api/./x',
    '/api/..',
    '/api/%2e%2e/%2e%2e/etc/passwd',
    '/api/%2E%2E/x',
    '/api/%2E./x',
    '/api/.%2e/x',
    '/api/%2e/x',
    '/api/%252e%252e/x',
    '/api\\..\\..\\etc\\passwd',
    '/api/..%5c..%5cetc',
    '/api/..%2f..%2fetc',
    '/api/..;jsessionid=1/x',
];

t.test('dot segments, raw or encoded, are refused with 400 and never reach the upstream', async (t) => {
  const before = received.length;
  for (const target of DOT_PATHS) {
    const { status, json } = await raw(target);
    t.equal(status, 400, `${target}: 400`);
    t.equal(json?.code, 'MOCK_ERR_PROXY_DOT_SEGMENT', `${target}: the catalogue's problem`);
    t.match(json?.detail, /\. or \.\. segment/, 'the detail says why');
  }
  t.same(received.slice(before), [], 'the upstream received none of them');
});

t.test('the WebSocket relay joins paths as the proxy does: dot segments refused at the upgrade with the same 400', async (t) => {
  const plain = await rawUpgrade('/feed/live?since=1');
  t.equal(plain.status, 101, 'a plain path is relayed');
  t.equal(plain.message, 'upstream saw /srv/api/feed/live?since=1', 'below the upstream\'s path, with the query');
  const before = upgrades.length;
  for (const target of ['/x/../../secret', '/x/%2e%2e/%2e%2e/secret', ...DOT_PATHS]) {
    const { status, json } = await rawUpgrade(target);
    t.equal(status, 400, `${target}: 400 instead of 101`);
    t.equal(json?.code, 'MOCK_ERR_PROXY_DOT_SEGMENT', `${target}: the proxy's problem from the catalogue`);
  }
  t.same(upgrades.slice(before), [], 'the upstream received no upgrade (before the fix it got /secret)');
});

t.test('curl --path-as-is /api/../../etc/passwd', { skip: needsCurl }, async (t) => {
  const before = received.length;
  const status = await new Promise((resolve) =>
    execFile('curl', ['-sS', '--path-as-is', '-o', '/dev/null', '-w', '%{http_code}', `${server.url}/api/../../etc/passwd`], (_error, stdout) => resolve(stdout)),
  );
  t.equal(status, '400');
  t.same(received.slice(before), [], 'nothing reached the upstream (before the fix it got GET /etc/passwd)');
});

t.test('an upstream answer larger than http.max_body_bytes is a 502, not held whole', async (t) => {
  for (const target of ['/v1/huge', '/v1/endless']) {
    const { status, json } = await raw(target);
    t.equal(status, 502, `${target}: 502`);
    t.equal(json?.code, 'MOCK_ERR_UPSTREAM_TOO_LARGE', `${target}: the catalogue's problem`);
    t.match(json?.detail, /larger than 32768 bytes \(raise http\.max_body_bytes/);
  }
  t.equal((await raw('/v1/pets/1')).status, 200, 'the proxy goes on');
});

t.test('header bytes beyond ASCII reach the client as the upstream sent them', async (t) => {
  const bytes = await new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write('GET /v1/pets/2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    const chunks = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks)));
  });
  t.ok(bytes.includes(Buffer.from('x-name: Zoë\r\n', 'utf8')), 'the UTF-8 bytes, not their Latin-1 reading encoded again');
});

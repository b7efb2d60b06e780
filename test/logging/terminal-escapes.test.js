// Escape sequences from the network never reach the terminal that shows mock's log: a request's
// control characters (C0, DEL, C1) are written as visible escapes, and runtime mocks (created on
// the management router, open on the mock port) refuse them in their paths, names and headers.
import t from 'tap';
import net from 'node:net';
import { jsonLines, requestLines, serveWith, until } from './helpers.js';

const server = await serveWith('logging:\n  format: json\n  request_lines_per_second: 0\n');
t.teardown(() => server.stop());
const { port } = new URL(server.url);

/** One raw HTTP/1.1 GET with a header value of raw UTF-8 bytes (fetch would refuse them). */
const rawGet = (path, headerBytes) =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end(Buffer.concat([Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nUser-Agent: `), headerBytes, Buffer.from('\r\n\r\n')]));
    });
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });

t.test('a C1 control (CSI) in a request header is an escape in the log line, not a byte the terminal acts on', async (t) => {
  // U+009B is CSI: `CSI 2 J` clears a terminal that honours C1 controls
  const answer = await rawGet('/v1/pets?limit=1', Buffer.from('spoof\u009b2J\u009b31mRED', 'utf8'));
  t.match(answer, /^HTTP\/1\.1 200/, 'answered');
  const line = await until(() => requestLines(server.stdout).find((l) => l.request.path === '/v1/pets'), 5_000, 'the request line');
  t.notOk(/[\u007f-\u009f]/.test(server.stdout), 'no C1 control anywhere in the output');
  t.match(line.request.user_agent, /spoof\\x9b2J\\x9b31mRED$/, 'the user agent shows where they were');
});

const createMock = (body) => fetch(`${server.url}/__mock/mocks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

t.test('runtime mocks refuse control characters in their path, name and headers', async (t) => {
  const title = '\u001b]2;pwned\u0007';
  for (const [what, body, pattern] of [
    ['a path setting the window title', { method: 'GET', path: `/x${title}`, response: { body: {} } }, /^path holds the control character U\+001B; paths and names of mocks may not hold control characters/],
    ['a name with CSI', { method: 'GET', path: '/ok', name: 'n\u009b2J', response: { body: {} } }, /^name holds the control character U\+009B/],
    ['a header value with CSI', { method: 'GET', path: '/ok', response: { body: {}, headers: { 'x-a': 'v\u009b2J' } } }, /the control character U\+009B in its value/],
    ['a header value with ESC', { method: 'GET', path: '/ok', response: { body: {}, headers: { 'x-a': `v${title}` } } }, /the control character U\+001B in its value/],
  ]) {
    const res = await createMock(body);
    t.equal(res.status, 400, `${what}: 400`);
    t.match((await res.json()).error, pattern, 'naming the field and the character');
  }
  const list = await (await fetch(`${server.url}/__mock/mocks`)).json();
  t.same(list.data, [], 'none was created');
  const fine = await createMock({ method: 'GET', path: '/café/ünïcode', name: 'tabs\tare fine? no: names are one line', response: { body: {} } });
  t.equal(fine.status, 400, 'a tab is a control character too');
  const ok = await createMock({ method: 'GET', path: '/café/ünïcode', name: 'letters beyond ASCII are fine', response: { body: {}, headers: { 'x-a': 'tab\tin a header value is fine' } } });
  t.equal(ok.status, 201, 'letters beyond ASCII, and a tab in a header value, are fine');
  t.notOk(jsonLines(server.stdout).some((l) => /\u001b|\u0007/.test(JSON.stringify(l))), 'nothing of the refused ones in the log');
});

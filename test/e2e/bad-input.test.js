// Bad input: one clear line naming the input and the fix, non-zero exit, no stack trace.
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { buildOnce, root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const spec = path.join(root, 'examples/petstore.yaml');
// the two serves of the petstore use one build (serve builds before it listens)
const out = await buildOnce(spec);
// the tests are independent (their own folders and ports): three at a time
t.jobs = 3;
const oneLine = (t, res, pattern) => {
  t.not(res.code, 0, 'non-zero exit');
  const lines = res.stderr.trim().split('\n');
  t.equal(lines.length, 1, `one line: ${res.stderr}`);
  t.match(lines[0], pattern);
  t.notMatch(res.stderr, /\n\s+at /, 'no stack trace');
};

t.test('missing spec file', async (t) => {
  oneLine(t, await runMock(['build', '--spec', 'nope.yaml', '--out', tmpdir()]), /spec not found: nope\.yaml/);
});

t.test('malformed YAML names the line and column', async (t) => {
  const dir = t.testdir({ 'api.yaml': 'openapi: 3.0.0\ninfo: {title: x\n  bad: [\n' });
  oneLine(t, await runMock(['build', '--spec', path.join(dir, 'api.yaml'), '--out', tmpdir()]), /api\.yaml:\d+:\d+: invalid YAML/);
});

t.test('unresolvable $ref', async (t) => {
  const dir = t.testdir({
    'api.yaml': 'openapi: 3.0.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: "#/components/schemas/Nope"}\n',
  });
  oneLine(t, await runMock(['build', '--spec', path.join(dir, 'api.yaml'), '--out', tmpdir()]), /Can't resolve \$ref at #\/paths/);
});

t.test('not an API description', async (t) => {
  const dir = t.testdir({ 'api.yaml': 'hello: world\n', 'list.yaml': '- 1\n' });
  oneLine(t, await runMock(['build', '--spec', path.join(dir, 'api.yaml'), '--out', tmpdir()]), /unsupported description version/);
  oneLine(t, await runMock(['build', '--spec', path.join(dir, 'list.yaml'), '--out', tmpdir()]), /not an OpenAPI or Swagger document/);
});

t.test('invalid flag values', async (t) => {
  oneLine(t, await runMock(['serve', '--spec', spec, '--validation', 'maybe']), /^mock: Expected --validation=maybe to be one of: off, warn, enforce \(see mock serve --help\)$/);
  oneLine(t, await runMock(['serve', '--spec', spec, '--http-port', 'abc']), /^mock: --http-port: Expected an integer but received: abc \(see mock serve --help\)$/);
});

t.test('a port already in use', async (t) => {
  const blocker = net.createServer();
  await new Promise((r) => blocker.listen(0, '127.0.0.1', r));
  t.teardown(() => blocker.close());
  const { port } = blocker.address();
  oneLine(t, await runMock(['serve', '--spec', spec, '--out', out, '--host', '127.0.0.1', '--http-port', String(port)]), new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
});

t.test('a template syntax error is a build error naming the example', async (t) => {
  const dir = t.testdir({
    'api.yaml': 'openapi: 3.0.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              example: {a: "{{#if request.query.x}}open"}\n',
  });
  oneLine(t, await runMock(['build', '--spec', path.join(dir, 'api.yaml'), '--out', tmpdir()]), /GET \/a 200 application\/json example "example": template error/);
});

/**
 * Writes `request` on a bare socket at once and resolves with the answer read until the server
 * closes: fetch may fail to send the rest of a body the server refused (EPIPE) before it reads
 * the answer, a bare socket always sees what the server said.
 */
function rawExchange(url, request) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    const chunks = [];
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 10 s')), 10_000);
    socket.on('data', (d) => chunks.push(d));
    // a reset after the answer (the server closed with the body unread) loses nothing already read
    socket.on('error', (e) => (chunks.length === 0 ? reject(e) : undefined));
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + Number(headers['content-length'])) });
    });
  });
}

t.test('oversized bodies get 413 and the server keeps serving', async (t) => {
  const dir = t.testdir({ 'mock.yaml': `specs: [${JSON.stringify(spec)}]\nhttp:\n  max_body_bytes: 1000\n` });
  const server = await startMock(['--out', out], { cwd: dir });
  t.teardown(() => server.stop());
  const head = (framing) => `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;
  const body = JSON.stringify({ name: 'x'.repeat(5000), kind: 'cat' });
  const chunked = Array.from({ length: 10 }, () => `1f4\r\n${'x'.repeat(500)}\r\n`).join('') + '0\r\n\r\n';
  for (const [what, request] of [
    ['a body whose Content-Length is over the limit', head(`Content-Length: ${body.length}`) + body],
    ['a chunked body that grows over the limit', head('Transfer-Encoding: chunked') + chunked],
  ]) {
    const refused = await rawExchange(server.url, request);
    t.equal(refused.status, 413, `${what}: 413`);
    t.match(refused.headers['content-type'], /^application\/problem\+json/);
    t.match(refused.headers.connection, /^close$/i, 'the connection is closed: the rest of the body is not read');
    t.same(JSON.parse(refused.body), {
      type: 'about:blank',
      title: 'Payload Too Large',
      status: 413,
      detail: 'request body exceeds 1000 bytes (raise http.max_body_bytes in mock.yaml)',
      code: 'MOCK_ERR_PAYLOAD_TOO_LARGE',
    }, `${what}: the problem names the limit and the setting`);
  }
  const ok = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Kitty', kind: 'cat' }) });
  t.equal(ok.status, 201, 'still serving');
});

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
  const bad = await runMock(['serve', '--spec', spec, '--validation', 'maybe']);
  t.not(bad.code, 0);
  t.match(bad.stderr, /validation/);
  const port = await runMock(['serve', '--spec', spec, '--http-port', 'abc']);
  t.not(port.code, 0);
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

t.test('oversized bodies get 413 and the server keeps serving', async (t) => {
  const dir = t.testdir({ 'mock.yaml': `specs: [${JSON.stringify(spec)}]\nhttp:\n  max_body_bytes: 1000\n` });
  const server = await startMock(['--out', out], { cwd: dir });
  t.teardown(() => server.stop());
  const big = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(5000), kind: 'cat' }) }).catch((e) => e);
  if (!(big instanceof Error)) {
    t.equal(big.status, 413);
    t.match((await big.json()).detail, /exceeds 1000 bytes/);
  } else t.pass('connection closed after refusing the body');
  const chunked = await fetch(`${server.url}/v1/pets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(500)));
        controller.close();
      },
    }),
    duplex: 'half',
  }).catch((e) => e);
  t.ok(chunked instanceof Error || chunked.status === 413, 'a chunked body over the limit is refused too');
  const ok = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Kitty', kind: 'cat' }) });
  t.equal(ok.status, 201, 'still serving');
});

// Response splitting and one-request crashes, tried through the real CLI on both HTTP backends:
// request data that templates put into header values (a runtime mock, a mock.yaml route, a
// description's header example) never writes a header of its own, header fields are checked when a
// mock, a route or an override rule is created, and no header value ends the node:http process.
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';

const DESCRIPTION = `openapi: 3.0.3
info: { title: orders, version: '1' }
servers: [{ url: /api }]
paths:
  /orders/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '302':
          description: moved
          headers:
            Location: { schema: { type: string }, example: /orders/1 }
            X-Trace: { schema: { type: string }, example: "a\\r\\nSet-Cookie: planted=1" }
`;

const ROUTES = `
response_template_expand: true
http:
  routes:
    - path: /routed/{id}
      response: { status: 302, headers: { location: "/routed/{{request.path.id}}" }, body: moved }
`;

const INJECTION = '1%0d%0aX-Injected:%20yes%0d%0a%0d%0a%3Cscript%3Ealert(1)%3C%2Fscript%3E';

/** Writes `text` (requests, the last asking to close) on one connection; resolves with every byte of the answers. */
function exchange(url, text) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let data = Buffer.alloc(0);
    const done = () => resolve({ text: data.toString('latin1'), bytes: data });
    socket.on('data', (chunk) => (data = Buffer.concat([data, chunk])));
    socket.on('close', done);
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), 5000);
  });
}

const heads = (text) => text.split(/(?=HTTP\/1\.1 \d{3} )/).map((answer) => answer.split('\r\n\r\n')[0].split('\r\n'));

const get = (pathAndQuery, { last = true } = {}) => `GET ${pathAndQuery} HTTP/1.1\r\nHost: localhost\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;

// One project for both backends (a configuration file each, the backend being a run-time setting)
// and one build, made first by `mock build`: both servers find it fresh.
const project = tmpdir();
const out = path.join(project, 'out');
writeFileSync(path.join(project, 'api.yaml'), DESCRIPTION);
for (const backend of ['uws', 'node']) writeFileSync(path.join(project, `mock-${backend}.yaml`), `specs: [api.yaml]\nserver: { http_backend: ${backend} }\n${ROUTES}`);
const build = await runMock(['build', '-c', path.join(project, 'mock-uws.yaml'), '--out', out], { cwd: project });
// the tests are independent (a server, or a folder, of their own): side by side
t.jobs = 3;

t.test("the build leaves out a description's header example that would split the response, and says so", async (t) => {
  t.equal(build.code, 0, build.stderr);
  t.match(build.stdout + build.stderr, /header "X-Trace" is left out: it has CR \(a line break\)/);
});

async function serve(t, backend) {
  const server = await startMock(['-c', path.join(project, `mock-${backend}.yaml`), '--admin', '--admin-port', '0', '--out', out], { cwd: project, env: { MOCK_LOG_LEVEL: 'warn' } });
  t.teardown(() => server.stop());
  return { server, admin: server.adminUrl };
}

for (const backend of ['uws', 'node']) {
  t.test(`backend ${backend}`, async (t) => {
    const { server, admin } = await serve(t, backend);
    const url = server.url;

    t.test('a runtime mock whose Location takes the path parameter', async (t) => {
      const created = await fetch(`${url}/__mock/mocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'GET', path: '/mocked/{id}', status_code: 302, response: { headers: { location: '/mocked/{{request.path.id}}', 'x-wide': '\u0100é' }, body: 'moved' } }),
      });
      t.equal(created.status, 201, 'created');
      const { text, bytes } = await exchange(url, get(`/mocked/${INJECTION}`, { last: false }) + get('/mocked/2'));
      const [first, second] = heads(text);
      t.equal(first[0], 'HTTP/1.1 302 Found');
      t.ok(first.includes('location: /mocked/1X-Injected: yes<script>alert(1)</script>'), 'CR and LF are cut from the value');
      t.notOk(text.split('\r\n').some((line) => /^x-injected:/i.test(line)), 'no header was injected');
      t.notMatch(text, /\r\n\r\n<script>/, 'no body was injected');
      t.ok(bytes.includes(Buffer.from('x-wide: \u0100é\r\n', 'utf8')), 'characters beyond ASCII go out as their UTF-8 bytes, on both backends');
      t.equal(second?.[0], 'HTTP/1.1 302 Found', 'the next request on the connection gets its own answer');
      t.ok(second.includes('location: /mocked/2'));
    });

    t.test("a description's header example that would split the response", async (t) => {
      const { text } = await exchange(url, get('/api/orders/1'));
      const [head] = heads(text);
      t.equal(head[0], 'HTTP/1.1 302 Found');
      t.ok(head.includes('location: /orders/1'), head.join(' | '));
      t.notOk(head.some((line) => /^set-cookie:/i.test(line)), 'nothing planted');
      t.notMatch(text, /planted/, 'the example holding CR LF is left out (the header is generated instead)');
    });

    t.test('a mock.yaml route with a template', async (t) => {
      const { text } = await exchange(url, get(`/routed/${INJECTION}`));
      const [head] = heads(text);
      t.ok(head.includes('location: /routed/1X-Injected: yes<script>alert(1)</script>'), head.join(' | '));
      t.notOk(head.some((line) => /^x-injected:/i.test(line)));
    });

    t.test('header fields are checked when a mock or an override rule is created', async (t) => {
      const refused = async (target, method, body, pattern) => {
        const res = await fetch(target, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const answer = await res.json();
        t.equal(res.status, 400, `${method} ${target}: ${answer.error}`);
        t.match(answer.error, pattern);
      };
      const mock = (headers) => ({ method: 'GET', path: '/refused', response: { headers, body: 'x' } });
      await refused(`${url}/__mock/mocks`, 'POST', mock({ 'x-a': 'a\r\nb' }), /response\.headers "x-a" has CR \(a line break\)/);
      await refused(`${url}/__mock/mocks`, 'POST', mock({ 'x-a': 'a\u0000b' }), /"x-a" has NUL/);
      await refused(`${url}/__mock/mocks`, 'POST', mock({ 'x a': 'b' }), /"x a" is not a valid header name/);
      await refused(`${admin}/__mock/overrides`, 'PUT', [{ name: 'split', match: { path: '/api/**' }, headers: { 'set-cookie': 'a\nb' } }], /rules\[0\] \("split"\): headers "set-cookie" has LF/);
      const listed = await (await fetch(`${url}/__mock/mocks`)).json();
      t.notOk(listed.data.some((m) => m.path === '/refused'), 'nothing refused was kept');
    });

    t.test('the server is still up and answering', async (t) => {
      const res = await fetch(`${url}/routed/3`, { redirect: 'manual' });
      t.equal(res.status, 302);
      t.equal(res.headers.get('location'), '/routed/3');
      t.equal(server.child.exitCode, null, 'no header value ended the process');
    });
  });
}

t.test('a mock.yaml route whose header would split the response is a build error naming it', async (t) => {
  const dir = tmpdir();
  mkdirSync(path.join(dir, 'out'));
  writeFileSync(path.join(dir, 'api.yaml'), DESCRIPTION);
  writeFileSync(path.join(dir, 'mock.yaml'), 'specs: [api.yaml]\nhttp:\n  routes:\n    - path: /x\n      response: { headers: { x-a: "a\\r\\nb" } }\n');
  const built = await runMock(['build', '--out', path.join(dir, 'out')], { cwd: dir });
  t.equal(built.code, 1);
  t.match(built.stderr, /mock\.yaml: http\.routes\[0\]\.response\.headers: "x-a" has CR \(a line break\) in its value/);
  t.equal(built.stderr.trim().split('\n').length, 1, 'one line');
});

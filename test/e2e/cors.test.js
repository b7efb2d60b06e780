// http.cors through `mock serve`: preflights answered before the description's own OPTIONS
// operation and before security, allow-origin on every answer (errors included, 413 too), listed
// origins echoed with credentials, `*` without, refused origins, and off by default.
import t from 'tap';
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';

const ok = { 200: { description: 'ok', headers: { 'X-Total': { schema: { type: 'integer', example: 3 } } }, content: { 'application/json': { example: { ok: true } } } } };
const description = {
  openapi: '3.0.3',
  info: { title: 'cors', version: '1' },
  paths: {
    '/items': {
      get: { responses: ok },
      post: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: ok },
      options: { responses: { 200: { description: 'the description answers OPTIONS itself', content: { 'text/plain': { example: 'own options' } } } } },
    },
    '/secret': { get: { security: [{ key: [] }], responses: ok } },
    '/limited': { get: { parameters: [{ name: 'n', in: 'query', required: true, schema: { type: 'integer' } }], responses: ok } },
  },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
};

async function serve(t, cors) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'api.json'), JSON.stringify(description));
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [api.json]\nhttp:\n  max_body_bytes: 64\n${cors === undefined ? '' : `  cors: ${JSON.stringify(cors)}\n`}`);
  const server = await startMock(['--out', path.join(dir, 'out')], { cwd: dir });
  t.teardown(() => server.stop());
  return server;
}

const preflight = (url, origin, extra = {}) => fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', ...extra } });

t.test('listed origins: preflight 204 before the description, allow-origin on answers and errors', async (t) => {
  const server = await serve(t, { enabled: true, allowed_origins: ['https://app.example.com', 'http://localhost:*'], allowed_headers: ['Content-Type', 'X-Key'] });
  const res = await preflight(`${server.url}/items`, 'https://app.example.com', { 'access-control-request-headers': 'content-type' });
  t.equal(res.status, 204);
  t.equal(res.headers.get('access-control-allow-origin'), 'https://app.example.com');
  t.equal(res.headers.get('access-control-allow-credentials'), 'true');
  t.equal(res.headers.get('access-control-allow-methods'), 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  t.equal(res.headers.get('access-control-allow-headers'), 'Content-Type, X-Key');
  t.match(res.headers.get('vary'), /Origin/);
  t.equal(await res.text(), '');

  const secured = await preflight(`${server.url}/secret`, 'http://localhost:5173');
  t.equal(secured.status, 204, 'a preflight needs no credentials, even where security is declared');
  t.equal(secured.headers.get('access-control-allow-origin'), 'http://localhost:5173', 'http://localhost:* allows any port');

  const own = await fetch(`${server.url}/items`, { method: 'OPTIONS' });
  t.equal(await own.text(), 'own options', "a plain OPTIONS (no preflight) still reaches the description's operation");

  const get = await fetch(`${server.url}/items`, { headers: { origin: 'https://app.example.com' } });
  t.equal(get.status, 200);
  t.equal(get.headers.get('access-control-allow-origin'), 'https://app.example.com');
  t.match(get.headers.get('access-control-expose-headers'), /x-total/, 'documented response headers are readable by the page');
  t.match(get.headers.get('vary'), /Origin/);

  for (const [what, target, init, status] of [
    ['401', '/secret', {}, 401],
    ['400', '/limited?n=x', {}, 400],
    ['404', '/nowhere', {}, 404],
    ['405', '/secret', { method: 'DELETE' }, 405],
    ['413', '/items', { method: 'POST', body: JSON.stringify({ big: 'x'.repeat(200) }), headers: { 'content-type': 'application/json' } }, 413],
  ]) {
    const answer = await fetch(server.url + target, { ...init, headers: { ...init.headers, origin: 'https://app.example.com' } });
    t.equal(answer.status, status, what);
    t.equal(answer.headers.get('access-control-allow-origin'), 'https://app.example.com', `${what} carries allow-origin`);
  }

  const foreign = await preflight(`${server.url}/items`, 'https://evil.example');
  t.equal(foreign.status, 403, 'a preflight from an origin not listed is refused');
  t.equal(foreign.headers.get('access-control-allow-origin'), null);
  t.match((await foreign.json()).detail, /https:\/\/evil\.example .*http\.cors\.allowed_origins/);
  t.equal(foreign.headers.get('x-mock-error-code'), 'MOCK_ERR_CORS_ORIGIN', "mock.yaml's refusal: the problem body, marked like every refusal");
  const foreignGet = await fetch(`${server.url}/items`, { headers: { origin: 'https://evil.example' } });
  t.equal(foreignGet.status, 200, 'a simple request is answered (the browser withholds it from the page)');
  t.equal(foreignGet.headers.get('access-control-allow-origin'), null);
});

t.test('`*`: any origin, answered with *, no credentials; the headers a preflight asks for', async (t) => {
  const server = await serve(t, { enabled: true });
  const res = await preflight(`${server.url}/items`, 'https://anywhere.example', { 'access-control-request-headers': 'x-custom, content-type' });
  t.equal(res.status, 204);
  t.equal(res.headers.get('access-control-allow-origin'), '*');
  t.equal(res.headers.get('access-control-allow-credentials'), null);
  t.equal(res.headers.get('access-control-allow-headers'), 'x-custom, content-type');
  const get = await fetch(`${server.url}/items`, { headers: { origin: 'null' } });
  t.equal(get.headers.get('access-control-allow-origin'), '*');
});

t.test('off by default: no CORS headers, the preflight reaches the description', async (t) => {
  const server = await serve(t, undefined);
  const res = await preflight(`${server.url}/items`, 'https://app.example.com');
  t.equal(res.headers.get('access-control-allow-origin'), null);
  t.equal(await res.text(), 'own options');
  // raw socket: no CORS header anywhere in the head
  const head = await new Promise((resolve, reject) => {
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write('GET /items HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example.com\r\nConnection: close\r\n\r\n'));
    let data = '';
    socket.on('data', (c) => (data += c));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  t.notMatch(head, /access-control/i);
});

t.test('a malformed origin in http.cors.allowed_origins is a one-line config error', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'api.json'), JSON.stringify(description));
  writeFileSync(path.join(dir, 'mock.yaml'), 'specs: [api.json]\nhttp:\n  cors: { enabled: true, allowed_origins: ["app.example.com"] }\n');
  const run = await runMock(['config', 'validate'], { cwd: dir });
  t.equal(run.code, 1);
  t.match(run.stdout + run.stderr, /http\.cors\.allowed_origins\[0\]: expected an origin such as http:\/\/localhost:5173/);
});

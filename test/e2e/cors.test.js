// CORS of the mocked API through `mock serve`: on by default (any origin echoed with credentials,
// preflights allowed what they ask for, Max-Age, Vary), on refusals too (400, 404, route chaos 429,
// rate limit 429, 413), on the GraphQL endpoint, never on the /__mock management router, and not
// on requests the conditional proxy sends to a real upstream unless http.cors.proxied says so;
// http.cors as the detailed form (listed origins, `*` without credentials), MOCK_HTTP_CORS=false.
// The browser's side of it is cors-browser.test.js.
import t from 'tap';
import http from 'node:http';
import net from 'node:net';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { needsCurl, runMock, startMock, tmpdir } from '../helpers/cli.js';

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
    '/busy': { get: { responses: ok } },
  },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
};

// a real upstream the conditional proxy reaches with credentials mock.yaml holds
const upstreamAuthorizations = [];
const upstream = http.createServer((req, res) => {
  upstreamAuthorizations.push(req.headers.authorization);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ upstream: true, method: req.method }));
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
t.teardown(() => upstream.close());
const relay = `proxy:\n  rules:\n    - { pattern: "/relay/**", upstream_url: "http://alice:s3cret@127.0.0.1:${upstream.address().port}" }\n`;

async function serve(t, yaml = '', { args = [], env = {} } = {}) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'api.json'), JSON.stringify(description));
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [api.json]\nhttp:\n  max_body_bytes: 64\n${yaml}`);
  const server = await startMock(['--out', path.join(dir, 'out'), ...args], { cwd: dir, env });
  t.teardown(() => server.stop());
  return server;
}

const preflight = (url, origin, extra = {}) => fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', ...extra } });

t.test('on by default: any origin echoed with credentials, preflights allowed what they ask, refusals marked, never the management router nor proxied answers', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'schema.graphql'), 'type Query { hello: String }\n');
  const chaos = 'core:\n  routes:\n    - { path: /busy, method: GET, fault_injection: { enabled: true, probability: 1, fault_types: [{ type: http_error, status_code: 429, message: slow down }] } }\n';
  const server = await serve(t, relay + chaos, { args: ['--graphql-schema', path.join(dir, 'schema.graphql'), '--graphql-port', '0'] });
  const origin = 'http://localhost:5173';

  const res = await preflight(`${server.url}/items`, origin, { 'access-control-request-headers': 'content-type,x-trace' });
  t.equal(res.status, 204);
  t.equal(res.headers.get('access-control-allow-origin'), origin, 'the origin echoed, never * (a credentialed request needs it)');
  t.equal(res.headers.get('access-control-allow-credentials'), 'true');
  t.equal(res.headers.get('access-control-allow-methods'), 'POST', 'the method the preflight asks for');
  t.equal(res.headers.get('access-control-allow-headers'), 'content-type,x-trace', 'the headers the preflight asks for');
  t.equal(res.headers.get('access-control-max-age'), '600');
  t.match(res.headers.get('vary'), /Origin.*Access-Control-Request-Method.*Access-Control-Request-Headers/);
  const patch = await preflight(`${server.url}/items`, origin, { 'access-control-request-method': 'PATCH' });
  t.equal(patch.headers.get('access-control-allow-methods'), 'PATCH');

  const get = await fetch(`${server.url}/items`, { headers: { origin } });
  t.equal(get.status, 200);
  t.equal(get.headers.get('access-control-allow-origin'), origin);
  t.equal(get.headers.get('access-control-allow-credentials'), 'true');
  t.match(get.headers.get('vary'), /Origin/);
  t.match(get.headers.get('access-control-expose-headers'), /x-total/, 'documented response headers are readable by the page');
  const plain = await fetch(`${server.url}/items`);
  t.equal(plain.headers.get('access-control-allow-origin'), null, 'a request without Origin is not CORS: nothing added');

  for (const [what, target, status, code] of [
    ['validation 400', '/limited?n=x', 400, 'MOCK_ERR_VALIDATION'],
    ['no route 404', '/nowhere', 404, undefined],
    ['route chaos 429', '/busy', 429, undefined],
    ['security 401', '/secret', 401, undefined],
  ]) {
    const answer = await fetch(server.url + target, { headers: { origin } });
    t.equal(answer.status, status, what);
    t.equal(answer.headers.get('access-control-allow-origin'), origin, `${what} carries allow-origin: the page can read why`);
    t.equal(answer.headers.get('access-control-allow-credentials'), 'true', `${what} allows credentials`);
    if (code !== undefined) t.match(answer.headers.get('access-control-expose-headers'), /x-mock-error-code/, `${what}: its reason's headers are exposed`);
  }

  // the conditional proxy reaches a real upstream with credentials from mock.yaml: no page borrows them
  const before = upstreamAuthorizations.length;
  const relayed = await fetch(`${server.url}/relay/orders`, { headers: { origin } });
  t.same(await relayed.json(), { upstream: true, method: 'GET' }, 'the upstream answered');
  t.equal(upstreamAuthorizations[before], `Basic ${Buffer.from('alice:s3cret').toString('base64')}`, 'with the credentials mock.yaml holds');
  t.equal(relayed.headers.get('access-control-allow-origin'), null, 'a proxied answer gets no CORS headers by default');
  const relayPreflight = await preflight(`${server.url}/relay/orders`, origin);
  t.equal(relayPreflight.headers.get('access-control-allow-origin'), null, 'nor does a preflight for a path the proxy may forward: a page cannot send it a JSON POST or a DELETE');
  t.same(await relayPreflight.json(), { upstream: true, method: 'OPTIONS' }, 'the preflight went to the upstream, whose own policy answers');

  // the management router keeps its own policy (admin.cors.allowed_origins)
  const foreign = 'https://evil.example';
  const adminPreflight = await preflight(`${server.url}/__mock/mocks`, foreign, { 'access-control-request-headers': 'content-type' });
  t.not(adminPreflight.status, 204, 'a foreign preflight to /__mock is not granted');
  t.equal(adminPreflight.headers.get('access-control-allow-origin'), null);
  const adminRead = await fetch(`${server.url}/__mock/mocks`, { headers: { origin: foreign } });
  t.equal(adminRead.status, 403, 'a foreign read of /__mock is refused');
  t.equal(adminRead.headers.get('access-control-allow-origin'), null);
  const adminWrite = await fetch(`${server.url}/__mock/mocks`, { method: 'POST', headers: { origin: foreign, 'content-type': 'text/plain' }, body: JSON.stringify({ method: 'GET', path: '/planted', status_code: 200 }) });
  t.equal(adminWrite.status, 403, 'a foreign write to /__mock is refused');
  t.equal((await fetch(`${server.url}/planted`)).status, 404, 'and changed nothing');

  // GraphQL over HTTP, on its own port
  const graphqlUrl = /GraphQL on (http:\/\/\S+)/.exec(server.stdout)[1];
  const gqlPreflight = await preflight(graphqlUrl, origin, { 'access-control-request-headers': 'content-type' });
  t.equal(gqlPreflight.status, 204, "GraphQL's preflight is answered");
  t.equal(gqlPreflight.headers.get('access-control-allow-origin'), origin);
  t.equal(gqlPreflight.headers.get('access-control-allow-headers'), 'content-type');
  const gql = await fetch(graphqlUrl, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{"query":"{ hello }"}' });
  t.equal(gql.status, 200);
  t.equal(gql.headers.get('access-control-allow-origin'), origin);
  t.equal(gql.headers.get('access-control-allow-credentials'), 'true');
});

t.test('curl sees the preflight headers', { skip: needsCurl }, async (t) => {
  const server = await serve(t);
  const head = await new Promise((resolve, reject) =>
    execFile('curl', ['-sS', '-i', '-X', 'OPTIONS', '-H', 'Origin: http://localhost:3001', '-H', 'Access-Control-Request-Method: DELETE', '-H', 'Access-Control-Request-Headers: authorization', `${server.url}/items`], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  t.match(head, /^HTTP\/1\.1 204/);
  t.match(head, /\naccess-control-allow-origin: http:\/\/localhost:3001\r\n/i);
  t.match(head, /\naccess-control-allow-credentials: true\r\n/i);
  t.match(head, /\naccess-control-allow-methods: DELETE\r\n/i);
  t.match(head, /\naccess-control-allow-headers: authorization\r\n/i);
  t.match(head, /\naccess-control-max-age: 600\r\n/i);
});

t.test('listed origins: preflight 204 before the description, allow-origin on answers and errors; proxied: true opts proxied answers in', async (t) => {
  const cors = { allowed_origins: ['https://app.example.com', 'http://localhost:*'], allowed_headers: ['Content-Type', 'X-Key'], allowed_methods: ['GET', 'POST'], max_age_seconds: 30, proxied: true };
  const server = await serve(t, `  cors: ${JSON.stringify(cors)}\n${relay}`);
  const res = await preflight(`${server.url}/items`, 'https://app.example.com', { 'access-control-request-headers': 'content-type' });
  t.equal(res.status, 204);
  t.equal(res.headers.get('access-control-allow-origin'), 'https://app.example.com');
  t.equal(res.headers.get('access-control-allow-credentials'), 'true');
  t.equal(res.headers.get('access-control-allow-methods'), 'GET, POST', 'the methods mock.yaml lists');
  t.equal(res.headers.get('access-control-allow-headers'), 'Content-Type, X-Key');
  t.equal(res.headers.get('access-control-max-age'), '30');
  t.match(res.headers.get('vary'), /Origin/);
  t.equal(await res.text(), '');

  const secured = await preflight(`${server.url}/secret`, 'http://localhost:5173');
  t.equal(secured.status, 204, 'a preflight needs no credentials, even where security is declared');
  t.equal(secured.headers.get('access-control-allow-origin'), 'http://localhost:5173', 'http://localhost:* allows any port');

  const own = await fetch(`${server.url}/items`, { method: 'OPTIONS' });
  t.equal(await own.text(), 'own options', "a plain OPTIONS (no preflight) still reaches the description's operation");

  for (const [what, target, init, status] of [
    ['200', '/items', {}, 200],
    ['401', '/secret', {}, 401],
    ['405', '/secret', { method: 'DELETE' }, 405],
    ['413', '/items', { method: 'POST', body: JSON.stringify({ big: 'x'.repeat(200) }), headers: { 'content-type': 'application/json' } }, 413],
  ]) {
    const answer = await fetch(server.url + target, { ...init, headers: { ...init.headers, origin: 'https://app.example.com' } });
    t.equal(answer.status, status, what);
    t.equal(answer.headers.get('access-control-allow-origin'), 'https://app.example.com', `${what} carries allow-origin`);
  }

  const relayed = await fetch(`${server.url}/relay/x`, { headers: { origin: 'https://app.example.com' } });
  t.same(await relayed.json(), { upstream: true, method: 'GET' });
  t.equal(relayed.headers.get('access-control-allow-origin'), 'https://app.example.com', 'proxied: true: a listed origin reads proxied answers');
  t.equal((await preflight(`${server.url}/relay/x`, 'https://app.example.com')).status, 204, 'and its preflights are answered by the mock');

  const foreign = await preflight(`${server.url}/items`, 'https://evil.example');
  t.equal(foreign.status, 403, 'a preflight from an origin not listed is refused');
  t.equal(foreign.headers.get('access-control-allow-origin'), null);
  t.match((await foreign.json()).detail, /https:\/\/evil\.example .*http\.cors\.allowed_origins/);
  t.equal(foreign.headers.get('x-mock-error-code'), 'MOCK_ERR_CORS_ORIGIN', "mock.yaml's refusal: the problem body, marked like every refusal");
  const foreignGet = await fetch(`${server.url}/items`, { headers: { origin: 'https://evil.example' } });
  t.equal(foreignGet.status, 200, 'a simple request is answered (the browser withholds it from the page)');
  t.equal(foreignGet.headers.get('access-control-allow-origin'), null);
});

t.test('`*` without credentials: answered with *, no Allow-Credentials, on a rate limit refusal too', async (t) => {
  const limit = 'observability:\n  chaos:\n    rate_limit: { enabled: true, requests_per_second: 0.001, burst_size: 1, per_endpoint: true }\n';
  const server = await serve(t, `  cors: { credentials: false }\n${limit}`);
  const res = await preflight(`${server.url}/items`, 'https://anywhere.example', { 'access-control-request-headers': 'x-custom, content-type' });
  t.equal(res.status, 204, 'a preflight is not rate limited (it is the browser asking, not the page)');
  t.equal(res.headers.get('access-control-allow-origin'), '*');
  t.equal(res.headers.get('access-control-allow-credentials'), null);
  t.equal(res.headers.get('access-control-allow-headers'), 'x-custom, content-type');
  const get = await fetch(`${server.url}/items`, { headers: { origin: 'null' } });
  t.equal(get.status, 200);
  t.equal(get.headers.get('access-control-allow-origin'), '*');
  const limited = await fetch(`${server.url}/items`, { headers: { origin: 'https://anywhere.example' } });
  t.equal(limited.status, 429, 'the bucket is empty');
  t.equal(limited.headers.get('access-control-allow-origin'), '*', "the rate limit's 429 carries allow-origin: the page sees it, not a CORS error");
});

t.test('MOCK_HTTP_CORS=false: no CORS headers, the preflight reaches the description', async (t) => {
  const server = await serve(t, '', { env: { MOCK_HTTP_CORS: 'false' } });
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

// The gRPC server's HTTP bridge through the real CLI and fetch: google.api.http bindings (path
// templates, body, response_body, additional bindings, query parameters), POST /<Service>/<Method>,
// the proto3 JSON mapping, server streams as NDJSON and Server-Sent Events, client streams from a
// JSON array, errors as google.rpc.Status JSON, and its calls in the request log; then the bridge
// under attack: malformed percent-encodings, prototype pollution through the query string, chaos
// and rate limits, bounded bodies and client-stream arrays, and its port as a mock origin.
import t from 'tap';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { root, startCommand, tmpdir } from '../helpers/cli.js';

const dir = tmpdir();
mkdirSync(path.join(dir, 'proto'));
cpSync(path.join(root, 'test', 'fixtures', 'grpc', 'library'), path.join(dir, 'proto', 'library'), { recursive: true });
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `seed: 5
server: { grpc_port: 0, bind: 127.0.0.1 }
grpc:
  http_bridge: { enabled: true, port: 0, max_body_bytes: 100000, max_stream_messages: 10 }
  stream: { count: 2, interval_ms: 10 }
  methods:
    - method: library.v1.Library/GetBook
      match: { request: { "$.name": shelves/1/books/missing } }
      error: { code: NOT_FOUND, message: no such book, details: [{ "@type": type.googleapis.com/google.rpc.ResourceInfo, resource_type: book, resource_name: shelves/1/books/missing }] }
    - method: library.v1.Library/GetBook
      response: { name: '{{request.body.name}}', title: Dune, page_count: '412', published_at: '1965-08-01T00:00:00Z' }
    - method: library.v1.Library/GetTitle
      response: { title: 'Title of {{request.body.name}}' }
    - method: library.v1.Library/CreateBook
      response: { name: '{{request.body.parent}}/books/new', title: '{{request.body.book.title}}' }
`,
);
const server = await startCommand(['serve', '--admin', '--admin-port', '0'], /gRPC HTTP bridge on (http:\/\/\S+)/, { cwd: dir });
t.teardown(() => server.stop());
const bridge = server.url;
const adminUrl = /admin on (http:\/\/\S+)/.exec(server.stdout)?.[1];

t.test('google.api.http bindings: path templates, additional bindings, body, response_body; proto3 JSON', async (t) => {
  const res = await fetch(`${bridge}/v1/shelves/1/books/2`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /application\/json/);
  t.same(await res.json(), { name: 'shelves/1/books/2', title: 'Dune', pageCount: '412', publishedAt: '1965-08-01T00:00:00.000Z' }, 'lowerCamelCase names, int64 as text, Timestamp as RFC 3339');
  t.equal((await (await fetch(`${bridge}/v1/books/7`)).json()).name, '7', 'an additional binding');
  t.equal(await (await fetch(`${bridge}/v1/shelves/1/books/2:title`)).json(), 'Title of shelves/1/books/2', 'response_body answers one field');
  const created = await fetch(`${bridge}/v1/shelves/3/books`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Emma', pageCount: '300' }) });
  t.match(await created.json(), { name: 'shelves/3/books/new', title: 'Emma' }, 'body: "book" fills that field; the path binds parent');
  const direct = await fetch(`${bridge}/library.v1.Library/GetBook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'direct' }) });
  t.equal((await direct.json()).name, 'direct', 'POST /<package.Service>/<Method> with a JSON body');
});

t.test('server streams as NDJSON or SSE, client streams from a JSON array', async (t) => {
  const ndjson = await fetch(`${bridge}/v1/shelves/1/books?page_size=2`);
  t.match(ndjson.headers.get('content-type'), /application\/x-ndjson/);
  const lines = (await ndjson.text()).trim().split('\n').map((line) => JSON.parse(line));
  t.equal(lines.length, 2, 'grpc.stream.count messages, one JSON per line');
  for (const book of lines) t.match(book, { name: String, title: String, pageCount: /^\d+$/ });
  const sse = await fetch(`${bridge}/v1/shelves/1/books`, { headers: { accept: 'text/event-stream' } });
  t.match(sse.headers.get('content-type'), /text\/event-stream/);
  t.equal((await sse.text()).match(/^data: \{/gm)?.length, 2, 'Server-Sent Events');
  const shelved = await fetch(`${bridge}/library.v1.Library/Shelve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ title: 'a' }, { title: 'b' }, { title: 'c' }]) });
  t.same(await shelved.json(), { bookCount: 3 }, 'the client stream’s messages counted');
});

t.test('errors: the status as HTTP, google.rpc.Status as JSON; bad input refused', async (t) => {
  const missing = await fetch(`${bridge}/v1/shelves/1/books/missing`);
  t.equal(missing.status, 404);
  t.match(await missing.json(), { code: 5, message: 'no such book', details: [{ '@type': 'type.googleapis.com/google.rpc.ResourceInfo', resourceType: 'book', resourceName: 'shelves/1/books/missing' }] });
  const wrong = await fetch(`${bridge}/library.v1.Library/GetBook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nope: 1 }) });
  t.equal(wrong.status, 400);
  t.match((await wrong.json()).message, /has no field nope/);
  t.equal((await fetch(`${bridge}/v2/unknown`)).status, 404);
  const logs = (await (await fetch(`${adminUrl}/__mock/logs?limit=100`)).json()).data;
  t.match(logs.find((e) => e.path === '/v1/shelves/1/books/missing'), { status_code: 404, grpc: { status: 'NOT_FOUND', messages_in: 1 } }, 'bridge calls in the request log');
});

/** One request written as it is on a raw socket (fetch would normalise the target); resolves with the status and body. */
function raw(base, target) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.setEncoding('latin1').on('data', (d) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }));
  });
}

const reasonOf = (status) => status.details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo')?.reason;
const postJson = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

t.test('a malformed percent-encoding is a catalogue 400, not the end of the process', async (t) => {
  for (const target of ['/%', '/v1/books/%E0%A4%A', '/v1/shelves/%zz/books/1']) {
    const res = await raw(bridge, target);
    t.equal(res.status, 400, target);
    t.match(res.body, /"reason":"MOCK_ERR_GRPC_BRIDGE_ENCODING"/, `${target}: the catalogue code`);
  }
  const escaped = await fetch(`${bridge}/v1/books/%25`);
  t.equal((await escaped.json()).name, '%', 'a path field is decoded once: %25 is %');
  t.equal((await fetch(`${bridge}/v1/shelves/1/books/2`)).status, 200, 'the process still serves');
});

t.test('the query string builds no keys on prototypes', async (t) => {
  for (const query of ['__proto__.name=x', '__proto__.sec-fetch-site=cross-site', 'constructor.prototype.name=x', 'parent.__proto__.x=1']) {
    const res = await fetch(`${bridge}/v1/shelves/1/books?${query}`);
    t.equal(res.status, 400, query);
    t.equal(reasonOf(await res.json()), 'MOCK_ERR_FORBIDDEN_KEY', `${query}: refused by name`);
  }
  const inherited = await postJson(`${bridge}/v1/shelves/3/books?book.toString.x=1`, { title: 'Emma' });
  t.equal(inherited.status, 400, "a method inherited by the body's object is no place to write");
  t.match((await inherited.json()).message, /has no field toString/);
  t.equal((await fetch(`${bridge}/v1/shelves/1/books?page_size=1`)).status, 200, 'ordinary query fields still bind');
  // the two writes the polluted prototype used to break: creating a runtime mock, and any admin write (Sec-Fetch-Site read from the prototype)
  const created = await postJson(`${adminUrl}/__mock/api/mocks`, { name: 'after-bridge', method: 'GET', path: '/after-bridge', response: { body: {} }, status_code: 200 });
  t.equal(created.status, 201, 'a runtime mock is created after the attempts');
});

t.test('bridge requests run the call stages: faults, rate limits, and the statistics and request log', async (t) => {
  const config = (p, body) => postJson(`${adminUrl}/__mock/config/${p}`, body);
  await config('faults', { enabled: true, failure_rate: 1, status_codes: [503] });
  try {
    const faulted = await fetch(`${bridge}/v1/shelves/1/books/fault`);
    t.equal(faulted.status, 503, 'the injected status over HTTP');
    t.equal(faulted.headers.get('x-mock-fault'), 'http_503');
    t.match(await faulted.json(), { code: 14, details: [{ reason: 'MOCK_ERR_FAULT_INJECTED' }] }, 'google.rpc.Status with the status’s gRPC code (UNAVAILABLE)');
    const streamed = await fetch(`${bridge}/v1/shelves/1/books`);
    t.equal(streamed.status, 503, 'server streams too');
  } finally {
    await config('faults', { enabled: false });
  }
  const chaos = (method, p, body) => fetch(`${adminUrl}/__mock/api/chaos/${p}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  t.equal((await chaos('PUT', 'config', { enabled: true, rate_limit: { enabled: true, requests_per_second: 0.01, burst_size: 1 } })).status, 200);
  try {
    t.equal((await fetch(`${bridge}/v1/books/limited`)).status, 200, 'the burst');
    const limited = await fetch(`${bridge}/v1/books/limited`);
    t.equal(limited.status, 429, 'then the rate limit');
    t.ok(Number(limited.headers.get('retry-after')) >= 1, 'with Retry-After');
    t.match(await limited.json(), { code: 8, message: 'Rate limit exceeded', details: [{ reason: 'MOCK_ERR_RATE_LIMITED' }] });
  } finally {
    await chaos('POST', 'config/reset');
  }
  const logs = (await (await fetch(`${adminUrl}/__mock/logs?limit=200`)).json()).data;
  t.match(logs.find((e) => e.path === '/v1/shelves/1/books/fault'), { status_code: 503, grpc: { status: 'UNAVAILABLE' } }, 'the refusal in the request log');
  const { methods } = (await (await fetch(`${adminUrl}/__mock/grpc`)).json()).data;
  t.ok(methods['/library.v1.Library/GetBook'].errors >= 1, 'counted with the method’s calls');
  t.notOk(Object.keys(methods).some((key) => !key.startsWith('/library.v1.Library/')), 'paths no method answers are not counted as methods');
});

t.test('the work of one request is bounded: body size and client-stream messages', async (t) => {
  const shelve = `${bridge}/library.v1.Library/Shelve`;
  const fits = await postJson(shelve, Array.from({ length: 10 }, () => ({})));
  t.same(await fits.json(), { bookCount: 10 }, 'max_stream_messages messages are taken');
  const many = await postJson(shelve, Array.from({ length: 11 }, () => ({})));
  t.equal(many.status, 413);
  t.match(await many.json(), { code: 8, message: /11 messages, more than grpc\.http_bridge\.max_stream_messages \(10\)/, details: [{ reason: 'MOCK_ERR_GRPC_BRIDGE_TOO_MANY_MESSAGES' }] });
  // the 4 MB array of empty messages (under grpc.max_message_size, 4 MiB) took seconds of the event loop per request
  const huge = await postJson(shelve, `[${Array.from({ length: 1_390_000 }, () => '{}').join(',')}]`);
  t.equal(huge.status, 413);
  t.match(await huge.json(), { code: 8, message: /exceeds 100000 bytes \(raise grpc\.http_bridge\.max_body_bytes/, details: [{ reason: 'MOCK_ERR_GRPC_BRIDGE_TOO_LARGE' }] });
  t.equal((await postJson(shelve, [{ title: 'a' }])).status, 200, 'the next request is answered');
});

t.test('the admin refuses pages served from the bridge’s port, like the mock ports', async (t) => {
  const token = /name="mock-admin-token" content="([^"]+)"/.exec(await (await fetch(`${adminUrl}/`)).text())[1];
  const write = (origin, name) =>
    fetch(`${adminUrl}/__mock/api/mocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'x-mock-admin-token': token },
      body: JSON.stringify({ name, method: 'GET', path: `/${name}`, response: { body: {} }, status_code: 200 }),
    });
  const fromBridge = await write(bridge, 'from-bridge');
  t.equal(fromBridge.status, 403, 'an Origin on the bridge’s port');
  t.match((await fromBridge.json()).error, /not allowed/);
  const other = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  t.equal((await write(`http://127.0.0.1:${other}`, 'from-elsewhere')).status, 201, 'a page of this machine on another port may write');
});

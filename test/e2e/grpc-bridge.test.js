// The gRPC server's HTTP bridge through the real CLI and fetch: google.api.http bindings (path
// templates, body, response_body, additional bindings, query parameters), POST /<Service>/<Method>,
// the proto3 JSON mapping, server streams as NDJSON and Server-Sent Events, client streams from a
// JSON array, errors as google.rpc.Status JSON, and its calls in the request log.
import t from 'tap';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
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
  http_bridge: { enabled: true, port: 0 }
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

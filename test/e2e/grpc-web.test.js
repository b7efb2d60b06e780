// gRPC-Web and Connect on the gRPC server's HTTP bridge (issue 42 item 4; docs/grpc.md): the
// official Connect clients (@connectrpc/connect-node's gRPC-Web and Connect transports, binary and
// JSON, over HTTP/1.1 and HTTP/2), with the service's descriptors taken from the mock's own reflection at run time, call
// unary and server-streaming methods; errors arrive as the protocols carry them (gRPC-Web's
// trailers, Connect's error JSON and end-of-stream); buf curl calls it with --protocol grpcweb and
// connect over HTTP/1.1 and h2c; curl shows the wire itself (grpc-web-text).
import t from 'tap';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { create, createFileRegistry, fromBinary, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { root, startCommand, tmpdir } from '../helpers/cli.js';
import { reflect } from '../helpers/grpc.js';

const dir = tmpdir();
mkdirSync(path.join(dir, 'proto'));
cpSync(path.join(root, 'test', 'fixtures', 'grpc', 'library'), path.join(dir, 'proto', 'library'), { recursive: true });
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `seed: 5
server: { grpc_port: 0, bind: 127.0.0.1 }
grpc:
  http_bridge: { enabled: true, port: 0 }
  stream: { count: 3, interval_ms: 5 }
  methods:
    - method: library.v1.Library/GetBook
      match: { request: { "$.name": shelves/1/books/missing } }
      error: { code: NOT_FOUND, message: no such book }
    - method: library.v1.Library/GetBook
      response: { name: '{{request.body.name}}', title: Dune, page_count: '412' }
`,
);
const server = await startCommand(['serve'], /gRPC HTTP bridge on (http:\/\/\S+)/, { cwd: dir });
t.teardown(() => server.stop());
const bridge = server.url;
const grpcAddress = /gRPC on (\S+)/.exec(server.stdout)[1];

// the service as a client that never saw the .proto files knows it: from the server's reflection
const files = new Map();
let questions = [{ file_containing_symbol: 'library.v1.Library' }];
while (questions.length > 0) {
  const { answers } = await reflect(grpcAddress, 'v1', questions);
  for (const answer of answers) {
    for (const bytes of answer.file_descriptor_response.file_descriptor_proto) {
      const file = fromBinary(FileDescriptorProtoSchema, bytes);
      files.set(file.name, file);
    }
  }
  // each file's imports, asked for by name until every one is known
  const asked = new Set(questions.map((q) => q.file_by_filename));
  questions = [...new Set([...files.values()].flatMap((file) => file.dependency))].filter((name) => !files.has(name) && !asked.has(name)).map((name) => ({ file_by_filename: name }));
}
// a file after the files it imports, as a FileDescriptorSet lists them
const ordered = [];
const visit = (file) => {
  if (ordered.includes(file)) return;
  for (const name of file.dependency) visit(files.get(name));
  ordered.push(file);
};
for (const file of files.values()) visit(file);
const descriptorSet = create(FileDescriptorSetSchema, { file: ordered });
const registry = createFileRegistry(descriptorSet);
const Library = registry.getService('library.v1.Library');

const transports = {
  'gRPC-Web (binary)': createGrpcWebTransport({ baseUrl: bridge, httpVersion: '1.1' }),
  'Connect (binary)': createConnectTransport({ baseUrl: bridge, httpVersion: '1.1' }),
  'Connect (JSON)': createConnectTransport({ baseUrl: bridge, httpVersion: '1.1', useBinaryFormat: false }),
  // the same port over HTTP/2 (h2c by prior knowledge)
  'gRPC-Web over HTTP/2': createGrpcWebTransport({ baseUrl: bridge, httpVersion: '2' }),
  'Connect over HTTP/2': createConnectTransport({ baseUrl: bridge, httpVersion: '2' }),
};

for (const [name, transport] of Object.entries(transports)) {
  t.test(`${name}: unary, server streaming and a status`, async (t) => {
    const client = createClient(Library, transport);
    const book = await client.getBook({ name: 'shelves/1/books/2' });
    t.equal(book.name, 'shelves/1/books/2', 'the request reached the mock');
    t.equal(book.title, 'Dune');
    t.equal(String(book.pageCount), '412');
    const streamed = [];
    for await (const one of client.listBooks({ parent: 'shelves/1' })) streamed.push(one);
    t.equal(streamed.length, 3, 'grpc.stream.count messages');
    t.ok(streamed.every((one) => typeof one.title === 'string' && one.name !== ''));
    const failed = await client.getBook({ name: 'shelves/1/books/missing' }).catch((e) => e);
    t.ok(failed instanceof ConnectError, String(failed));
    t.equal(failed.code, Code.NotFound);
    t.match(failed.rawMessage, 'no such book');
  });
}

t.test('buf curl --protocol grpcweb and connect, over HTTP/1.1 and HTTP/2', async (t) => {
  // buf reads the service from an image: the descriptors the mock's reflection gave
  const image = path.join(dir, 'library.binpb');
  writeFileSync(image, toBinary(FileDescriptorSetSchema, descriptorSet));
  const buf = (args) => spawnSync(path.join(root, 'node_modules', '.bin', 'buf'), ['curl', '--schema', image, ...args], { encoding: 'utf8' });
  for (const protocol of ['grpcweb', 'connect']) {
    for (const version of [[], ['--http2-prior-knowledge']]) {
      const over = `${protocol}${version.length === 0 ? '' : ' over h2c'}`;
      const unary = buf(['--protocol', protocol, ...version, '-d', '{"name":"shelves/1/books/2"}', `${bridge}/library.v1.Library/GetBook`]);
      t.equal(unary.status, 0, `${over}: ${unary.stderr}`);
      t.match(JSON.parse(unary.stdout), { name: 'shelves/1/books/2', title: 'Dune', pageCount: '412' }, `${over}: unary`);
      const streamed = buf(['--protocol', protocol, ...version, '-d', '{"parent":"shelves/1"}', `${bridge}/library.v1.Library/ListBooks`]);
      t.equal(streamed.status, 0, `${over}: ${streamed.stderr}`);
      t.equal(streamed.stdout.match(/"name"/g)?.length, 3, `${over}: three streamed messages`);
      const missing = buf(['--protocol', protocol, ...version, '-d', '{"name":"shelves/1/books/missing"}', `${bridge}/library.v1.Library/GetBook`]);
      t.not(missing.status, 0, `${over}: a status other than OK fails the call`);
      t.match(missing.stderr, /not_found[\s\S]*no such book/i, `${over}: NOT_FOUND with its message`);
    }
  }
});

t.test('the wire: grpc-web-text with curl, trailers in the body; Connect unary errors as JSON with the HTTP status', async (t) => {
  // GetBookRequest { name: "abc" }: field 1, length-delimited
  const request = Buffer.from([0x0a, 0x03, ...Buffer.from('abc')]);
  const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, request.length]), request]);
  const curl = spawnSync(
    'curl',
    ['-s', '-X', 'POST', '-H', 'content-type: application/grpc-web-text', '-H', 'x-grpc-web: 1', '--data-binary', frame.toString('base64'), `${bridge}/library.v1.Library/GetBook`, '-D', '-'],
    { encoding: 'utf8' },
  );
  const [head, body] = curl.stdout.split('\r\n\r\n');
  t.match(head, /^HTTP\/1\.1 200/);
  t.match(head, /content-type: application\/grpc-web-text\+proto/i);
  // each write is its own base64, padded: decoded piece by piece, as gRPC-Web clients do
  const bytes = Buffer.concat(body.split(/(?<==)(?=[A-Za-z0-9+/])/).map((piece) => Buffer.from(piece, 'base64')));
  t.equal(bytes[0], 0, 'a message frame first');
  const length = bytes.readUInt32BE(1);
  t.match(bytes.subarray(5, 5 + length).toString('latin1'), /abc/, 'the name the request carried');
  const trailers = bytes.subarray(5 + length);
  t.equal(trailers[0], 0x80, 'then the trailers frame');
  t.match(trailers.subarray(5).toString(), /grpc-status: 0/);

  const missing = await fetch(`${bridge}/library.v1.Library/GetBook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'connect-protocol-version': '1' },
    body: JSON.stringify({ name: 'shelves/1/books/missing' }),
  });
  t.equal(missing.status, 404);
  t.same(await missing.json(), { code: 'not_found', message: 'no such book' });
  const bad = await fetch(`${bridge}/library.v1.Library/GetBook`, { method: 'POST', headers: { 'content-type': 'application/proto' }, body: Buffer.from([0xff, 0xff, 0xff]) });
  t.equal(bad.status, 400, 'a body that does not decode');
  t.match((await bad.json()).code, 'invalid_argument');
  // a page of another origin, as a browser sends it: a preflight, then the call (http.cors, on by default)
  const preflight = await fetch(`${bridge}/library.v1.Library/GetBook`, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-grpc-web,x-user-agent' },
  });
  t.equal(preflight.status, 204);
  t.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  t.match(preflight.headers.get('access-control-allow-headers'), /x-grpc-web/);
  const fromPage = await fetch(`${bridge}/library.v1.Library/GetBook`, {
    method: 'POST',
    headers: { origin: 'http://localhost:5173', 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1' },
    body: frame,
  });
  t.equal(fromPage.status, 200);
  t.equal(fromPage.headers.get('access-control-allow-origin'), 'http://localhost:5173', 'the call is readable by the page');
  await fromPage.arrayBuffer();
  const plain = await fetch(`${bridge}/library.v1.Library/GetBook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'plain' }) });
  t.equal((await plain.json()).name, 'plain', "the bridge's own JSON mapping is unchanged");
});

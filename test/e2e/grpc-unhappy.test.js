// The gRPC mock server's answers to calls it cannot serve as asked, through the real CLI: a method
// or service it does not have, a payload that does not decode, compressed messages (gzip from
// @grpc/grpc-js, an encoding it lacks, a compressed frame without an encoding), a request that is
// not gRPC, and reflection asked about what it does not know. After each, it serves on. Calls of
// unknown methods and undecodable messages are in the request log and the metrics like every call.
import t from 'tap';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { corpus, startCommand, tmpdir } from '../helpers/cli.js';
import { reflect } from '../helpers/grpc.js';
import { until } from '../helpers/wait.js';

const dir = tmpdir();
mkdirSync(path.join(dir, 'proto'));
cpSync(path.join(corpus, 'proto', 'examples', 'helloworld.proto'), path.join(dir, 'proto', 'helloworld.proto'));
cpSync(path.join(corpus, 'proto', 'examples', 'route_guide.proto'), path.join(dir, 'proto', 'route_guide.proto'));
writeFileSync(path.join(dir, 'mock.yaml'), 'seed: 5\nserver: { grpc_port: 0, bind: 127.0.0.1 }\ngrpc: { proto_dir: proto }\n');
const server = await startCommand(['serve', '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'], /gRPC on (\S+)/, { cwd: dir });
t.teardown(() => server.stop());
const address = server.url;
const adminUrl = /admin on (http:\/\/\S+)/.exec(server.stdout)?.[1];
const metricsUrl = /metrics on (http:\/\/\S+)\/metrics/.exec(server.stdout)?.[1];
const admin = async (p) => (await (await fetch(`${adminUrl}/__mock/${p}`)).json()).data;
/** The request-log entries of `path`, once there are `count` of them (a call is logged when it ends, after the client heard its status). */
const logged = (path, count) => until(async () => {
  const entries = (await admin('logs?limit=200')).filter((e) => e.path === path);
  return entries.length >= count ? entries : undefined;
});

const types = protobuf.loadSync(path.join(corpus, 'proto', 'examples', 'helloworld.proto'));
const HelloRequest = types.lookupType('helloworld.HelloRequest');
const HelloReply = types.lookupType('helloworld.HelloReply');
const hello = (name) => Buffer.from(HelloRequest.encode({ name }).finish());
const SAY_HELLO = '/helloworld.Greeter/SayHello';

// grpc-js clients that send the bytes they are given: a call to any path, with any payload
const plain = new grpc.Client(address, grpc.credentials.createInsecure());
const gzipped = new grpc.Client(address, grpc.credentials.createInsecure(), { 'grpc.default_compression_algorithm': grpc.compressionAlgorithms.gzip });
t.teardown(() => [plain, gzipped].forEach((c) => c.close()));
const unary = (client, method, bytes) =>
  new Promise((resolve) => {
    client.makeUnaryRequest(method, (b) => b, (b) => b, bytes, (error, reply) => resolve({ error, reply }));
  });

/** One HTTP/2 request as a gRPC client would make it, with `headers` over the defaults; the status from headers or trailers. */
function h2(headers, body) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${address}`);
    session.on('error', reject);
    const request = session.request({ ':method': 'POST', ':path': SAY_HELLO, 'content-type': 'application/grpc', te: 'trailers', ...headers });
    const answer = { headers: {}, trailers: {}, body: [] };
    request.on('response', (h) => (answer.headers = h));
    request.on('trailers', (h) => (answer.trailers = h));
    request.on('data', (chunk) => answer.body.push(chunk));
    request.on('end', () => {
      session.close();
      const status = answer.trailers['grpc-status'] ?? answer.headers['grpc-status'];
      const message = answer.trailers['grpc-message'] ?? answer.headers['grpc-message'];
      resolve({ ...answer, body: Buffer.concat(answer.body), status: status === undefined ? undefined : Number(status), message: message === undefined ? undefined : decodeURIComponent(message) });
    });
    request.on('error', reject);
    request.end(body);
  });
}
/** A length-prefixed message; `compressed` sets the frame's flag. */
const frame = (bytes, compressed = false) => {
  const head = Buffer.alloc(5);
  head[0] = compressed ? 1 : 0;
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
};

/** Asserts SayHello still answers (seeded: the same request, the same reply). */
async function servesOn(t, what) {
  const { error, reply } = await unary(plain, SAY_HELLO, hello('after'));
  t.error(error, `${what}: the server serves on`);
  t.type(HelloReply.decode(reply).message, 'string');
}

t.test('a method or service the protos do not declare: UNIMPLEMENTED naming it', async (t) => {
  for (const method of ['/helloworld.Greeter/SayGoodbye', '/helloworld.Nobody/SayHello']) {
    const { error } = await unary(plain, method, hello('x'));
    t.equal(error?.code, grpc.status.UNIMPLEMENTED, `${method}: UNIMPLEMENTED`);
    t.equal(error?.details, `The server does not implement the method ${method}`);
  }
  const streamed = await new Promise((resolve) => {
    const call = plain.makeBidiStreamRequest('/helloworld.Greeter/SayHelloForever', (b) => b, (b) => b);
    call.on('data', () => {});
    call.on('error', resolve);
    call.write(hello('a'));
    call.write(hello('b'));
    call.end();
  });
  t.equal(streamed.code, grpc.status.UNIMPLEMENTED, 'a stream to an unknown method: UNIMPLEMENTED');
  for (const method of ['/helloworld.Greeter/SayGoodbye', '/helloworld.Nobody/SayHello', '/helloworld.Greeter/SayHelloForever']) {
    const [entry] = await logged(method, 1);
    t.match(entry, { method: 'POST', status_code: 404, error_message: `The server does not implement the method ${method}`, grpc: { status: 'UNIMPLEMENTED' } }, `${method}: in the request log`);
  }
  const { grpc_by_method: byMethod } = await admin('metrics');
  t.match(byMethod.unknown, { type: 'unknown', count: 3, errors: 3 }, 'counted under one key, whatever the paths');
  t.notOk('/helloworld.Greeter/SayGoodbye' in byMethod, 'a path a client made up is no metric of its own');
  const prometheus = await (await fetch(`${metricsUrl}/metrics`)).text();
  t.match(prometheus, /mock_grpc_calls_total\{method="unknown",status="UNIMPLEMENTED",outcome="error"\} 3/, 'counted under the status name');
  await servesOn(t, 'after unknown methods');
});

t.test('a payload that does not decode as the request type: INTERNAL', async (t) => {
  // field 1 with wire type 7, which protobuf does not have
  const { error } = await unary(plain, SAY_HELLO, Buffer.from([0x0f, 0xff]));
  t.equal(error?.code, grpc.status.INTERNAL);
  t.equal(error?.details, 'Error deserializing request');
  const [entry] = await logged(SAY_HELLO, 1);
  t.match(entry, { status_code: 400, error_message: 'Error deserializing request', grpc: { status: 'INTERNAL', messages_in: 0 } }, 'in the request log, under its method');

  // a stream whose second message does not decode: ended there, with what went before
  const Point = protobuf.loadSync(path.join(corpus, 'proto', 'examples', 'route_guide.proto')).lookupType('routeguide.Point');
  const streamed = await new Promise((resolve) => {
    const call = plain.makeClientStreamRequest('/routeguide.RouteGuide/RecordRoute', (b) => b, (b) => b, (error) => resolve(error));
    call.write(Buffer.from(Point.encode({ latitude: 1, longitude: 2 }).finish()));
    call.write(Buffer.from([0x0f, 0xff]));
    call.end();
  });
  t.equal(streamed?.code, grpc.status.INTERNAL);
  t.equal(streamed?.details, 'Error deserializing request');
  const [recorded] = await logged('/routeguide.RouteGuide/RecordRoute', 1);
  t.match(recorded, { status_code: 400, grpc: { status: 'INTERNAL', messages_in: 1 } }, 'the stream in the request log, with the message before');
  const { grpc_by_method: byMethod } = await admin('metrics');
  t.match(byMethod[SAY_HELLO], { errors: 1 }, 'counted as a failed call of its method');
  t.match(byMethod['/routeguide.RouteGuide/RecordRoute'], { type: 'client_streaming', count: 1, errors: 1 });
  await servesOn(t, 'after an undecodable payload');
});

t.test('compressed messages: gzip is read, an encoding the server lacks is UNIMPLEMENTED, a compressed frame without an encoding INTERNAL', async (t) => {
  const expected = await unary(plain, SAY_HELLO, hello('zipped'));
  const zipped = await unary(gzipped, SAY_HELLO, hello('zipped'));
  t.error(zipped.error, 'a grpc-js client sending gzip (grpc.default_compression_algorithm)');
  t.same(zipped.reply, expected.reply, 'the request decompressed: the reply of the same request sent plain');

  const gzip = await h2({ 'grpc-encoding': 'gzip', 'grpc-accept-encoding': 'identity,gzip' }, frame(gzipSync(hello('zipped')), true));
  t.equal(gzip.status, grpc.status.OK);
  t.equal(gzip.headers['grpc-encoding'], 'identity', 'the reply is sent uncompressed');
  t.match(gzip.headers['grpc-accept-encoding'], /gzip/, 'the encodings the server reads');
  t.same(gzip.body.subarray(5), expected.reply, 'the same reply');

  const brotli = await h2({ 'grpc-encoding': 'br' }, frame(gzipSync(hello('x')), true));
  t.equal(brotli.status, grpc.status.UNIMPLEMENTED, 'an encoding the server does not read');
  t.equal(brotli.message, 'Received message compressed with unsupported encoding "br"');
  const unflagged = await h2({}, frame(gzipSync(hello('x')), true));
  t.equal(unflagged.status, grpc.status.INTERNAL, 'the compressed flag without grpc-encoding');
  t.equal(unflagged.message, 'Error deserializing request');
  await servesOn(t, 'after compressed messages');
});

t.test('a request that is not gRPC: 415', async (t) => {
  const json = await h2({ 'content-type': 'application/json' }, '{"name":"x"}');
  t.equal(json.headers[':status'], 415, 'HTTP 415 Unsupported Media Type');
  t.equal(json.status, undefined, 'no gRPC status: it was no gRPC call');
  await servesOn(t, 'after a request that is not gRPC');
});

t.test('reflection asked about what it does not know: NOT_FOUND answers in the stream, which goes on', async (t) => {
  for (const version of ['v1', 'v1alpha']) {
    const { status, answers } = await reflect(address, version, [
      { file_containing_symbol: 'helloworld.Nobody' },
      { file_by_filename: 'nobody.proto' },
      { all_extension_numbers_of_type: 'helloworld.Nobody' },
      { all_extension_numbers_of_type: 'helloworld.HelloRequest' },
      { file_containing_extension: { containing_type: 'helloworld.HelloRequest', extension_number: 100 } },
      { list_services: '' },
    ]);
    t.equal(status, grpc.status.OK, `${version}: the stream ends OK: errors are answers, not the call's status`);
    t.same(
      answers.slice(0, 3).map((a) => a.error_response),
      [
        { error_code: grpc.status.NOT_FOUND, error_message: 'symbol helloworld.Nobody not found' },
        { error_code: grpc.status.NOT_FOUND, error_message: 'file nobody.proto not found' },
        { error_code: grpc.status.NOT_FOUND, error_message: 'type helloworld.Nobody not found' },
      ],
      `${version}: an unknown symbol, file and type are NOT_FOUND, naming them`,
    );
    t.same(answers[0].original_request.file_containing_symbol, 'helloworld.Nobody', `${version}: each answer carries its question`);
    const numbers = answers[3].all_extension_numbers_response;
    t.equal(numbers?.base_type_name, 'helloworld.HelloRequest', `${version}: a known message type is answered`);
    t.same(numbers?.extension_number ?? [], [], `${version}: with no extensions (proto3)`);
    t.same(answers[4].error_response, { error_code: grpc.status.UNIMPLEMENTED, error_message: 'file_containing_extension is not supported' }, `${version}: extensions are not served`);
    t.ok(answers[5].list_services_response.service.some((s) => s.name === 'helloworld.Greeter'), `${version}: the next question in the same stream is answered`);
  }
  await servesOn(t, 'after reflection errors');
});

// The gRPC mock server through the real CLI and real clients: @grpc/grpc-js for every mode (with
// deadlines, cancellation, metadata and rich error details), a reflection client on node:http2 and
// protobufjs (not grpc-js) through both reflection versions, the limits, chaos, the admin API, and
// a broken .proto beside good ones, over the corpus's protos and one of ours with well-known types.
import t from 'tap';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { corpus, root, startCommand, tmpdir } from '../helpers/cli.js';
import { rawCall, reflect, rootOf } from '../helpers/grpc.js';
import { until } from '../helpers/wait.js';

const dir = tmpdir();
const protoDir = path.join(dir, 'proto');
mkdirSync(protoDir);
cpSync(path.join(corpus, 'proto', 'examples'), protoDir, { recursive: true });
cpSync(path.join(corpus, 'proto', 'grpc'), path.join(protoDir, 'grpc'), { recursive: true });
cpSync(path.join(root, 'test', 'fixtures', 'grpc', 'shop'), path.join(protoDir, 'shop'), { recursive: true });
writeFileSync(path.join(protoDir, 'broken.proto'), 'syntax = "proto3";\npackage broken;\nmessage Oops {\n  string name = 1\n}\n');
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `seed: 11
server: { grpc_port: 0, bind: 127.0.0.1 }
grpc:
  proto_dir: proto
  max_message_size: 65536
  concurrency_limit: 2
  stream: { count: 3, interval_ms: 20 }
  methods:
    - method: helloworld.Greeter/SayHello
      match: { metadata: { x-tenant: blocked } }
      error:
        code: PERMISSION_DENIED
        message: tenant blocked
        details: [{ "@type": type.googleapis.com/google.rpc.ErrorInfo, reason: TENANT_BLOCKED, domain: shop.example, metadata: { tenant: blocked } }]
        trailers: { x-debug: rule-1 }
    - method: helloworld.Greeter/SayHello
      response: { message: 'Hello {{request.body.name}}' }
    - method: helloworld.Greeter/SayHelloStreamReply
      responses: [{ message: { message: one } }, { message: { message: two }, delay_ms: 30 }]
    - method: routeguide.RouteGuide/RouteChat
      script:
        - expect: { "$.message": hi }
          send: [{ message: hello back }]
    - method: grpc.testing.TestService/UnaryCall
      delay_ms: 400
    - method: shop.v1.Orders/WatchOrders
      delay_ms: 200
`,
);

const server = await startCommand(['serve', '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'], /gRPC on (\S+)/, { cwd: dir, env: { MOCK_LOG_LEVEL: 'info' } });
t.teardown(() => server.stop());
const address = server.url;
const adminUrl = /admin on (http:\/\/\S+)/.exec(server.stdout)?.[1];
const metricsUrl = /metrics on (http:\/\/\S+)\/metrics/.exec(server.stdout)?.[1];
const admin = async (p, init) => (await (await fetch(`${adminUrl}/__mock/${p}`, init)).json()).data;

const loaded = grpc.loadPackageDefinition(
  loadSync(['route_guide.proto', 'helloworld.proto', 'grpc/testing/test.proto', 'shop/v1/orders.proto'], {
    includeDirs: [protoDir],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  }),
);
const client = (ctor) => new ctor(address, grpc.credentials.createInsecure());
const orders = client(loaded.shop.v1.Orders);
const greeter = client(loaded.helloworld.Greeter);
const routes = client(loaded.routeguide.RouteGuide);
const testing = client(loaded.grpc.testing.TestService);
t.teardown(() => [orders, greeter, routes, testing].forEach((c) => c.close()));

const unary = (stub, method, request, metadata = new grpc.Metadata(), options = {}) =>
  new Promise((resolve) => {
    const call = stub[method](request, metadata, options, (error, response) => resolve({ error, response, call }));
  });
const collect = (call) =>
  new Promise((resolve) => {
    const messages = [];
    call.on('data', (m) => messages.push(m));
    call.on('error', (error) => resolve({ messages, error }));
    call.on('end', () => resolve({ messages }));
  });

t.test('unary: a message generated from the types, the same for the same request (--seed)', async (t) => {
  t.match(address, /^127\.0\.0\.1:\d+$/, 'mock serve prints the gRPC address');
  const { error, response } = await unary(orders, 'GetOrder', { id: 'o-1' });
  t.error(error);
  t.match(response, { id: String, email: /@/, status: /^(PENDING|SHIPPED|DELIVERED|STATUS_UNSPECIFIED)$/, created_at: { seconds: /^\d+$/, nanos: Number }, total_cents: /^-?\d+$/ });
  t.type(response.labels, 'object', 'a map');
  t.ok(Array.isArray(response.items), 'a repeated field');
  t.ok(['card_last4', 'invoice_number'].includes(response.payment), 'one member of the oneof is set');
  const again = await unary(orders, 'GetOrder', { id: 'o-1' });
  t.same(again.response, response, 'the same request answers the same message');
});

t.test('rules: a template over the request, an error with rich details and trailers chosen by metadata', async (t) => {
  const hello = await unary(greeter, 'SayHello', { name: 'Ada' });
  t.equal(hello.response.message, 'Hello Ada');
  const metadata = new grpc.Metadata();
  metadata.set('x-tenant', 'blocked');
  const blocked = await unary(greeter, 'SayHello', { name: 'Ada' }, metadata);
  t.equal(blocked.error.code, grpc.status.PERMISSION_DENIED);
  t.equal(blocked.error.details, 'tenant blocked');
  t.same(blocked.error.metadata.get('x-debug'), ['rule-1'], 'trailers');
  const [bin] = blocked.error.metadata.get('grpc-status-details-bin');
  const rpc = new protobuf.Root();
  protobuf.parse('syntax = "proto3"; package google.protobuf; message Any { string type_url = 1; bytes value = 2; }', rpc, { keepCase: true });
  protobuf.parse(
    `syntax = "proto3"; package google.rpc;
     message Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }
     message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }`,
    rpc,
    { keepCase: true },
  );
  rpc.resolveAll();
  const status = rpc.lookupType('google.rpc.Status').decode(bin);
  t.equal(status.code, grpc.status.PERMISSION_DENIED);
  t.equal(status.details[0].type_url, 'type.googleapis.com/google.rpc.ErrorInfo');
  t.match(rpc.lookupType('google.rpc.ErrorInfo').decode(status.details[0].value), { reason: 'TENANT_BLOCKED', domain: 'shop.example', metadata: { tenant: 'blocked' } }, 'google.rpc.Status with an ErrorInfo in grpc-status-details-bin');
});

t.test('server streaming: grpc.stream.count generated messages, or the rule’s list', async (t) => {
  const generated = await collect(routes.ListFeatures({ lo: { latitude: 1, longitude: 2 }, hi: { latitude: 3, longitude: 4 } }));
  t.error(generated.error);
  t.equal(generated.messages.length, 3);
  for (const feature of generated.messages) t.match(feature, { name: String, location: { latitude: Number, longitude: Number } });
  const scripted = await collect(greeter.SayHelloStreamReply({ name: 'x' }));
  t.same(scripted.messages.map((m) => m.message), ['one', 'two']);
});

t.test('client streaming answers after the half-close; bidirectional follows its script', async (t) => {
  const summary = await new Promise((resolve) => {
    const call = routes.RecordRoute((error, response) => resolve({ error, response }));
    for (let i = 0; i < 4; i++) call.write({ latitude: i, longitude: i });
    call.end();
  });
  t.error(summary.error);
  t.match(summary.response, { point_count: Number, distance: Number, elapsed_time: Number });
  const chat = routes.RouteChat();
  const replies = collect(chat);
  chat.write({ message: 'hi', location: { latitude: 1, longitude: 1 } });
  await until(async () => true, 100, 'a turn');
  chat.end();
  const { messages, error } = await replies;
  t.error(error);
  t.same(messages.map((m) => m.message), ['hello back'], 'the scripted reply to the expected message');
});

t.test('deadlines and cancellation behave as a real server’s', async (t) => {
  const late = await unary(testing, 'UnaryCall', {}, new grpc.Metadata(), { deadline: Date.now() + 100 });
  t.equal(late.error.code, grpc.status.DEADLINE_EXCEEDED);
  const stream = orders.WatchOrders({ customer: 'c' });
  const first = await new Promise((resolve) => stream.once('data', resolve));
  t.type(first.id, 'string');
  const ended = new Promise((resolve) => stream.on('error', resolve));
  stream.cancel();
  t.equal((await ended).code, grpc.status.CANCELLED);
  await until(async () => (await admin('logs?limit=100')).some((e) => e.path === '/shop.v1.Orders/WatchOrders' && e.grpc?.status === 'CANCELLED'), 5000, 'the cancelled call logged');
});

t.test('limits: grpc.max_message_size and grpc.concurrency_limit are RESOURCE_EXHAUSTED', async (t) => {
  const big = await unary(greeter, 'SayHello', { name: 'x'.repeat(70_000) });
  t.equal(big.error.code, grpc.status.RESOURCE_EXHAUSTED);
  const calls = await Promise.all([0, 1, 2].map(() => unary(testing, 'UnaryCall', {})));
  const codes = calls.map((c) => c.error?.code ?? grpc.status.OK).sort();
  t.same(codes, [grpc.status.OK, grpc.status.OK, grpc.status.RESOURCE_EXHAUSTED], 'two calls in flight on one connection, the third refused');
});

t.test('reflection v1 and v1alpha, through a client that is not grpc-js: list, describe, call', async (t) => {
  for (const version of ['v1', 'v1alpha']) {
    const listed = await reflect(address, version, [{ list_services: '' }]);
    t.equal(listed.status, 0);
    const names = listed.answers[0].list_services_response.service.map((s) => s.name);
    for (const name of ['shop.v1.Orders', 'routeguide.RouteGuide', 'helloworld.Greeter', `grpc.reflection.${version}.ServerReflection`]) t.ok(names.includes(name), `${version} lists ${name}`);
    t.notOk(names.includes('broken.Oops'));
    const described = await reflect(address, version, [{ file_containing_symbol: 'shop.v1.Orders' }]);
    const files = described.answers[0].file_descriptor_response.file_descriptor_proto;
    const { root: reflected, names: fileNames } = rootOf(files);
    t.ok(fileNames.includes('google/protobuf/timestamp.proto'), `${version}: the well-known import comes with the file`);
    const service = reflected.lookupService('shop.v1.Orders');
    const method = service.methods.GetOrder.resolve();
    const call = await rawCall(address, '/shop.v1.Orders/GetOrder', [Buffer.from(method.resolvedRequestType.encode({ id: 'r-1' }).finish())]);
    t.equal(call.status, 0, `${version}: the described method answers`);
    t.match(method.resolvedResponseType.toObject(method.resolvedResponseType.decode(call.messages[0]), { longs: String }), { id: String, created_at: { seconds: String } });
  }
});

t.test('a broken .proto is reported with file and line; the others serve', async (t) => {
  t.match(server.stdout + server.stderr, /broken\.proto:5:1: illegal token/);
  const details = await admin('grpc');
  t.ok(details.services.some((s) => s.name === 'routeguide.RouteGuide'));
  t.match(details.problems, [{ file: /broken\.proto$/, line: 5 }]);
});

t.test('admin, request log, metrics and chaos', async (t) => {
  const { servers } = await admin('dashboard');
  t.match(servers.find((s) => s.server_type === 'gRPC'), { running: true, address, library: '@grpc/grpc-js', http_version: '2' });
  const health = await (await fetch(`${adminUrl}/__mock/health`)).json();
  t.equal((health.data ?? health).services.grpc, 'running');
  const logs = await admin('logs?limit=200');
  t.match(logs.find((e) => e.path === '/helloworld.Greeter/SayHello' && e.grpc?.status === 'PERMISSION_DENIED'), { method: 'POST', status_code: 403, grpc: { messages_in: 1 } }, 'one entry per call with its status');
  const metrics = await admin('metrics');
  t.match(metrics.grpc_by_method['/helloworld.Greeter/SayHello'], { type: 'unary', count: Number });
  const prometheus = await (await fetch(`${metricsUrl}/metrics`)).text();
  t.match(prometheus, /mock_grpc_calls_total\{method="\/helloworld\.Greeter\/SayHello",status="PERMISSION_DENIED",outcome="error"\} [1-9]/, 'the status label is the gRPC status name');
  t.match(prometheus, /mock_grpc_calls_total\{method="\/helloworld\.Greeter\/SayHello",status="OK",outcome="ok"\} [1-9]/);
  t.notMatch(prometheus, /mock_grpc_calls_total\{[^}]*status="\d+"/, 'never an HTTP code');
  t.match(metrics.grpc_by_method['/helloworld.Greeter/SayHello'].statuses, { OK: Number, PERMISSION_DENIED: Number }, 'the admin API counts calls per status name');
  const denied = await admin('logs?status=PERMISSION_DENIED');
  t.ok(denied.length > 0 && denied.every((e) => e.grpc?.status === 'PERMISSION_DENIED' && e.grpc.code === grpc.status.PERMISSION_DENIED), 'the log filters on a gRPC status name; entries carry its name and number');
  t.same(await admin('logs?status=not_found&path=/helloworld.Greeter/SayHello'), [], 'any case; no call ended NOT_FOUND');
  t.match(server.stdout, /POST \/helloworld\.Greeter\/SayHello PERMISSION_DENIED \d+ms/, 'the console line names the status');
  t.notMatch(server.stdout, /POST \/helloworld\.Greeter\/SayHello 403 /, 'not its HTTP mapping');

  const post = (p, body) => fetch(`${adminUrl}/__mock/${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  for (const [status, code] of [
    [503, grpc.status.UNAVAILABLE],
    [429, grpc.status.RESOURCE_EXHAUSTED],
    [504, grpc.status.DEADLINE_EXCEEDED],
  ]) {
    await post('config/faults', { enabled: true, failure_rate: 1, status_codes: [status] });
    const fault = await unary(greeter, 'SayHello', { name: 'x' });
    t.equal(fault.error?.code, code, `an injected ${status} is status ${code}`);
  }
  await post('config/faults', { enabled: false });
  await post('config/latency', { enabled: true, base_ms: 150, jitter_ms: 0 });
  const started = Date.now();
  const slow = await collect(greeter.SayHelloStreamReply({ name: 'x' }));
  t.ok(Date.now() - started >= 300, 'latency applies to every message of a stream');
  t.equal(slow.messages.length, 2);
  await post('config/latency', { enabled: false });
});

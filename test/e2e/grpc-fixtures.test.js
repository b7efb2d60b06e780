// Recording and replay of gRPC calls through the real CLI and a real @grpc/grpc-js client: a
// recording server writes every call of the four modes as grpc/<Service>/<Method>/call-NNNN.jsonl
// (every frame in order, credentials redacted; written as the call goes, under
// core.fixtures.max_recording_mb), then a replaying server whose engine would answer
// otherwise (another seed, an error rule) answers from those files, the bidirectional one as a
// script; mock validate-fixtures reports a malformed line.
import t from 'tap';
import { cpSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { corpus, runMock, startCommand, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const recordDir = tmpdir();
const replayDir = tmpdir();
for (const dir of [recordDir, replayDir]) {
  mkdirSync(path.join(dir, 'proto'));
  cpSync(path.join(corpus, 'proto', 'examples'), path.join(dir, 'proto'), { recursive: true });
}
writeFileSync(
  path.join(recordDir, 'mock.yaml'),
  `seed: 11
server: { grpc_port: 0, bind: 127.0.0.1 }
core: { fixtures: { dir: fixtures, max_recording_mb: 1 } }
grpc:
  proto_dir: proto
  stream: { count: 3, interval_ms: 20 }
  methods:
    - method: helloworld.Greeter/SayHello
      response: { message: 'Hello {{request.body.name}}' }
    - method: helloworld.Greeter/SayHelloStreamReply
      responses: [{ message: { message: one } }, { message: { message: two }, delay_ms: 150 }]
`,
);
// the replaying server's engine answers differently: another seed, and SayHello fails
writeFileSync(
  path.join(replayDir, 'mock.yaml'),
  `seed: 99
server: { grpc_port: 0, bind: 127.0.0.1 }
core: { fixtures: { dir: fixtures } }
grpc:
  proto_dir: proto
  stream: { count: 1, interval_ms: 0 }
  methods:
    - method: helloworld.Greeter/SayHello
      error: { code: UNAVAILABLE, message: not from the recording }
    - method: helloworld.Greeter/SayHelloStreamReply
      responses: [{ message: { message: engine } }]
`,
);

const definitions = (dir) =>
  grpc.loadPackageDefinition(loadSync(['helloworld.proto', 'route_guide.proto'], { includeDirs: [path.join(dir, 'proto')], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true }));
const clientsOf = (address) => {
  const loaded = definitions(recordDir);
  return {
    greeter: new loaded.helloworld.Greeter(address, grpc.credentials.createInsecure()),
    routes: new loaded.routeguide.RouteGuide(address, grpc.credentials.createInsecure()),
  };
};
const unary = (stub, method, request, metadata = new grpc.Metadata()) => new Promise((resolve) => stub[method](request, metadata, (error, response) => resolve({ error, response })));
const collect = (call) =>
  new Promise((resolve) => {
    const messages = [];
    call.on('data', (m) => messages.push(m));
    call.on('error', (error) => resolve({ messages, error }));
    call.on('end', () => resolve({ messages }));
  });
const recordRoute = (routes, points) =>
  new Promise((resolve) => {
    const call = routes.RecordRoute((error, response) => resolve({ error, response }));
    for (const p of points) call.write(p);
    call.end();
  });
/** A bidirectional call that writes each note once the answer to the one before came (`answers` per note). */
async function chat(routes, notes, answers) {
  const call = routes.RouteChat();
  const replies = [];
  call.on('data', (m) => replies.push(m));
  const done = new Promise((resolve) => {
    call.on('error', (error) => resolve({ error }));
    call.on('end', () => resolve({}));
  });
  let expected = 0;
  for (const [i, note] of notes.entries()) {
    call.write(note);
    expected += answers[i];
    await until(async () => replies.length >= expected, 5000, `the answer to note ${i}`);
  }
  call.end();
  const { error } = await done;
  return { error, replies };
}
const jsonl = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
const callsOf = (dir, method) => {
  const folder = path.join(dir, 'fixtures', 'grpc', ...method.split('/'));
  try {
    return readdirSync(folder)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()
      .map((n) => path.join(folder, n));
  } catch {
    return [];
  }
};

const NOTES = [
  { message: 'first', location: { latitude: 1, longitude: 2 } },
  { message: 'second', location: { latitude: 3, longitude: 4 } },
];
const POINTS = [
  { latitude: 10, longitude: 20 },
  { latitude: 30, longitude: 40 },
  { latitude: 50, longitude: 60 },
];
const recorded = {};

t.test('recording: every call of every mode, each frame in order, credentials redacted', async (t) => {
  const server = await startCommand(['serve', '--record'], /gRPC on (\S+)/, { cwd: recordDir });
  t.teardown(() => server.stop());
  const { greeter, routes } = clientsOf(server.url);
  t.teardown(() => [greeter, routes].forEach((c) => c.close()));

  const metadata = new grpc.Metadata();
  metadata.set('authorization', 'Bearer s3cret');
  metadata.set('x-api-token', 'tok-1');
  metadata.set('x-tenant', 'acme');
  recorded.hello = await unary(greeter, 'SayHello', { name: 'Ada' }, metadata);
  t.equal(recorded.hello.response.message, 'Hello Ada');
  recorded.stream = await collect(greeter.SayHelloStreamReply({ name: 'x' }));
  t.same(recorded.stream.messages.map((m) => m.message), ['one', 'two']);
  recorded.summary = await recordRoute(routes, POINTS);
  t.error(recorded.summary.error);
  recorded.chat = await chat(routes, NOTES, [1, 1]);
  t.error(recorded.chat.error);
  t.equal(recorded.chat.replies.length, 2, 'the engine answers each client message');

  for (const method of ['helloworld.Greeter/SayHello', 'helloworld.Greeter/SayHelloStreamReply', 'routeguide.RouteGuide/RecordRoute', 'routeguide.RouteGuide/RouteChat']) {
    await until(async () => callsOf(recordDir, method).length === 1, 5000, `the recording of ${method}`);
  }
  const [hello] = callsOf(recordDir, 'helloworld.Greeter/SayHello');
  t.equal(path.basename(hello), 'call-0001.jsonl');
  const [head, request, answer, end] = jsonl(hello);
  t.match(head, { method: 'helloworld.Greeter/SayHello', mode: 'unary', metadata: { authorization: '[redacted]', 'x-api-token': '[redacted]', 'x-tenant': 'acme' }, recorded_at: String });
  t.notMatch(readFileSync(hello, 'utf8'), /s3cret|tok-1/, 'no credential in the file');
  t.same({ dir: request.dir, message: request.message }, { dir: 'in', message: { name: 'Ada' } });
  t.same({ dir: answer.dir, message: answer.message }, { dir: 'out', message: { message: 'Hello Ada' } }, 'messages in proto3 JSON');
  t.match(end, { status: 'OK', code: 0, message: 'OK' });
  t.ok(request.ts <= answer.ts && answer.ts <= end.ts, 'ts grows');

  const stream = jsonl(callsOf(recordDir, 'helloworld.Greeter/SayHelloStreamReply')[0]);
  t.same(stream.slice(1, 4).map((l) => [l.dir, l.message]), [['in', { name: 'x' }], ['out', { message: 'one' }], ['out', { message: 'two' }]]);
  t.ok(stream[3].ts - stream[2].ts >= 140, 'the recorded pace (delay_ms 150)');

  const route = jsonl(callsOf(recordDir, 'routeguide.RouteGuide/RecordRoute')[0]);
  t.equal(route[0].mode, 'client_streaming');
  t.same(route.slice(1, 4).map((l) => [l.dir, l.message]), POINTS.map((p) => ['in', p]), 'every client message, in order');
  t.equal(route[4].dir, 'out');
  t.same(route[4].message, { pointCount: recorded.summary.response.point_count, featureCount: recorded.summary.response.feature_count, distance: recorded.summary.response.distance, elapsedTime: recorded.summary.response.elapsed_time }, 'lowerCamelCase proto3 JSON');

  const bidi = jsonl(callsOf(recordDir, 'routeguide.RouteGuide/RouteChat')[0]);
  t.equal(bidi[0].mode, 'bidi_streaming');
  t.same(bidi.slice(1, 5).map((l) => l.dir), ['in', 'out', 'in', 'out'], 'every frame of a bidirectional call, in order');
  t.same(bidi[1].message, NOTES[0]);
  t.same(bidi[3].message, NOTES[1]);
  t.equal(bidi[2].message.message, recorded.chat.replies[0].message);
  t.match(bidi[5], { status: 'OK', code: 0 });

  await t.test('a call is written as it goes, under core.fixtures.max_recording_mb (1)', async (t) => {
    const folder = path.join(recordDir, 'fixtures', 'grpc', 'routeguide.RouteGuide', 'RouteChat');
    const call = routes.RouteChat();
    const replies = [];
    call.on('data', (m) => replies.push(m));
    const ended = new Promise((resolve) => call.on('end', resolve));
    const note = (n) => ({ message: `${n}:`.padEnd(200_000, 'n'), location: { latitude: n, longitude: n } });
    call.write(note(0));
    await until(async () => replies.length >= 1, 5000, 'the first answer');
    // the file appears with the first line; the writes behind it land shortly after
    const written = () => readdirSync(folder).find((name) => name.startsWith('.recording-') && statSync(path.join(folder, name)).size >= 200_000);
    t.ok(await until(written, 5000, 'the call on disk while it goes'), 'the first message written before the call ends');
    for (let n = 1; n < 8; n++) {
      call.write(note(n));
      await until(async () => replies.length >= n + 1, 5000, `the answer to note ${n}`);
    }
    call.end();
    await ended;
    const [, cut] = await until(async () => (callsOf(recordDir, 'routeguide.RouteGuide/RouteChat').length === 2 ? callsOf(recordDir, 'routeguide.RouteGuide/RouteChat') : undefined), 5000, 'the cut recording');
    t.ok(statSync(cut).size <= 1024 * 1024 + 200, 'at most the budget, and its status line');
    const lines = jsonl(cut);
    t.equal(lines[0].mode, 'bidi_streaming');
    t.same(lines[1].message.location, { latitude: 0, longitude: 0 }, 'the messages before the budget');
    t.ok(lines.length < 18, `the rest left out (${lines.length} lines of 18)`);
    t.match(lines[lines.length - 1], { status: 'OK', code: 0 }, 'ended by its status: a valid recording');
    t.equal((server.stdout + server.stderr).split('\n').filter((l) => l.includes('RouteChat stopped at core.fixtures.max_recording_mb (1)')).length, 1, 'one warning');

    // a unary call whose request alone passes the budget: its answer would be missing, so it is not recorded
    const big = await unary(greeter, 'SayHello', { name: 'b'.repeat(1_100_000) });
    t.error(big.error);
    await until(async () => /SayHello is not recorded: its messages pass core\.fixtures\.max_recording_mb \(1\)/.test(server.stdout + server.stderr), 5000, 'the warning');
    t.equal(callsOf(recordDir, 'helloworld.Greeter/SayHello').length, 1, 'no recording of it');
    t.same(readdirSync(path.join(recordDir, 'fixtures', 'grpc', 'helloworld.Greeter', 'SayHello')), ['call-0001.jsonl'], 'and nothing left of it');
  });
});

t.test('replay: a second server answers from the recordings, not from its engine', async (t) => {
  cpSync(path.join(recordDir, 'fixtures'), path.join(replayDir, 'fixtures'), { recursive: true });
  const server = await startCommand(['serve', '--replay', '--admin', '--admin-port', '0'], /gRPC on (\S+)/, { cwd: replayDir });
  t.teardown(() => server.stop());
  const adminUrl = await until(async () => /admin on (http:\/\/\S+)/.exec(server.stdout)?.[1], 5000, 'the admin address');
  const { greeter, routes } = clientsOf(server.url);
  t.teardown(() => [greeter, routes].forEach((c) => c.close()));

  const hello = await unary(greeter, 'SayHello', { name: 'Ada' });
  t.error(hello.error, 'the recorded answer, not the rule’s error');
  t.equal(hello.response.message, 'Hello Ada');
  const other = await unary(greeter, 'SayHello', { name: 'Bob' });
  t.equal(other.error?.code, grpc.status.UNAVAILABLE, 'a request nothing recorded: the engine answers');

  const started = Date.now();
  const stream = await collect(greeter.SayHelloStreamReply({ name: 'x' }));
  t.error(stream.error);
  t.same(stream.messages.map((m) => m.message), ['one', 'two'], 'the recorded messages');
  t.ok(Date.now() - started >= 130, 'at their recorded pace');
  const engine = await collect(greeter.SayHelloStreamReply({ name: 'y' }));
  t.same(engine.messages.map((m) => m.message), ['engine']);

  const summary = await recordRoute(routes, POINTS);
  t.same(summary.response, recorded.summary.response, 'the client stream with the same messages');
  const fewer = await recordRoute(routes, POINTS.slice(0, 2));
  t.notSame(fewer.response, recorded.summary.response, 'other messages: the engine (another seed)');

  // a message the script does not wait for is passed over; the recorded ones get their recorded answers
  const replayed = await chat(routes, [NOTES[0], { message: 'unexpected' }, NOTES[1]], [1, 0, 1]);
  t.error(replayed.error);
  t.same(replayed.replies, recorded.chat.replies, 'the bidirectional recording played as a script');

  const logs = await until(async () => {
    const entries = (await (await fetch(`${adminUrl}/__mock/logs?limit=50`)).json()).data;
    return entries.filter((e) => e.grpc?.fixture !== undefined).length >= 4 ? entries : undefined;
  }, 5000, 'the replayed calls in the request log');
  const ada = logs.find((e) => e.path === '/helloworld.Greeter/SayHello' && e.grpc?.status === 'OK');
  t.equal(ada.grpc.fixture, 'grpc/helloworld.Greeter/SayHello/call-0001.jsonl', 'the request log names the recording');
  t.ok(logs.some((e) => e.path === '/routeguide.RouteGuide/RouteChat' && e.grpc?.fixture === 'grpc/routeguide.RouteGuide/RouteChat/call-0001.jsonl'));
  t.notOk(logs.find((e) => e.path === '/helloworld.Greeter/SayHello' && e.grpc?.status === 'UNAVAILABLE').grpc.fixture);

  // a recording added while serving is picked up (core.fixtures.watch)
  const added = path.join(replayDir, 'fixtures', 'grpc', 'helloworld.Greeter', 'SayHello', 'call-0002.jsonl');
  writeFileSync(
    added,
    [
      { method: 'helloworld.Greeter/SayHello', mode: 'unary', metadata: {} },
      { ts: 0, dir: 'in', message: { name: 'Bob' } },
      { ts: 5, status: 'NOT_FOUND', code: 5, message: 'no Bob here', trailers: { 'x-why': 'edited' } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n'),
  );
  const bob = await until(async () => {
    const r = await unary(greeter, 'SayHello', { name: 'Bob' });
    return r.error?.code === grpc.status.NOT_FOUND ? r : undefined;
  }, 5000, 'the added recording');
  t.equal(bob.error.details, 'no Bob here');
  t.same(bob.error.metadata.get('x-why'), ['edited'], 'recorded trailers');
});

t.test('mock validate-fixtures checks grpc/**/*.jsonl line by line', async (t) => {
  const good = await runMock(['validate-fixtures', '--dir', path.join(recordDir, 'fixtures')], { cwd: recordDir });
  t.equal(good.code, 0, good.stdout + good.stderr);
  t.match(good.stdout, /5 gRPC recordings, no problems/);
  const broken = path.join(recordDir, 'fixtures', 'grpc', 'helloworld.Greeter', 'SayHello', 'call-0002.jsonl');
  writeFileSync(broken, `${JSON.stringify({ method: 'helloworld.Greeter/SayHello', mode: 'unary' })}\n{"ts": 1, "dir": "sideways", "message": {}}\nnot json\n${JSON.stringify({ ts: 2, status: 'OK', code: 0, message: 'OK' })}\n`);
  const bad = await runMock(['validate-fixtures', '--dir', path.join(recordDir, 'fixtures')], { cwd: recordDir });
  t.equal(bad.code, 1);
  t.match(bad.stdout, /call-0002\.jsonl:2: dir: must be "in"/);
  t.match(bad.stdout, /call-0002\.jsonl:3: is not JSON/);
});

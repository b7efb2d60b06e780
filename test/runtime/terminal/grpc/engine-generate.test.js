// Generated answers of the gRPC engine, over the corpus protos (route_guide's four modes,
// helloworld, grpc.testing, health) and a kitchen-sink proto: every answer is a message protobufjs
// accepts and round-trips, deterministic with a seed, with the types' ranges, reachable enums,
// one member per oneof, maps, bounded recursion and realistic well-known types.
import t from 'tap';
import { CORPUS_FILES, NOW, engineOf, rootOf, survives, wire } from './helpers.js';

const corpus = rootOf(CORPUS_FILES);
const kitchen = rootOf(['kitchen.proto']);

/** A request for a method: a generated message of its request type (the engine's own generator, another seed). */
function requestFor(engine, mock, h = 7) {
  return engine.generator.message(mock.requestType, h);
}

t.test('every method of the corpus answers in its mode with valid messages', async (t) => {
  const engine = engineOf(corpus);
  const requests = engineOf(corpus, { seed: 9 });
  t.ok(engine.paths().length >= 25, `${engine.paths().length} methods`);
  for (const path of engine.paths()) {
    const mock = engine.method(path);
    const request = requestFor(requests, requests.method(path));
    survives(t, mock.requestType, request, `${path} request`);
    if (!mock.clientStreaming && !mock.serverStreaming) {
      const reply = mock.unary(request, {});
      t.equal(reply.delayMs, 0);
      wire(t, mock.responseType, reply.message, path);
      survives(t, mock.responseType, reply.message, path);
    } else if (mock.serverStreaming && !mock.clientStreaming) {
      const plan = mock.serverStream(request, {});
      t.equal(plan.messages.length, 3, `${path}: stream.count messages`);
      t.same(plan.messages.map((m) => m.delayMs), [0, 50, 50], `${path}: at once, then every intervalMs`);
      t.equal(plan.end, undefined);
      for (const { message } of plan.messages) wire(t, mock.responseType, message, path);
    } else if (mock.clientStreaming && !mock.serverStreaming) {
      const reply = mock.clientStream([request, request], {});
      wire(t, mock.responseType, reply.message, path);
    } else {
      const session = mock.bidi({});
      t.same(session.start(), { messages: [] });
      const first = session.received(request);
      t.equal(first.messages.length, 1, `${path}: one reply per message`);
      wire(t, mock.responseType, first.messages[0].message, path);
      t.same(session.end(), { messages: [] });
    }
  }
});

t.test('route_guide: plausible values in every mode', async (t) => {
  const engine = engineOf(corpus);
  const feature = engine.method('routeguide.RouteGuide/GetFeature').unary({ latitude: 409146138, longitude: -746188906 }, {}).message;
  t.type(feature.name, 'string');
  t.ok(feature.name.length > 0);
  t.ok(Math.abs(feature.location.latitude) <= 900_000_000 && Math.abs(feature.location.longitude) <= 1_800_000_000, 'E7 coordinates');
  const summary = engine.method('routeguide.RouteGuide/RecordRoute').clientStream([{ latitude: 1, longitude: 2 }, { latitude: 3, longitude: 4 }, { latitude: 5, longitude: 6 }], {}).message;
  t.equal(summary.point_count, 3, 'point_count counts the Points received');
  t.ok(Number.isInteger(summary.elapsed_time));
  const chat = engine.method('routeguide.RouteGuide/RouteChat').bidi({});
  const a = chat.received({ location: { latitude: 1, longitude: 1 }, message: 'a' }).messages[0].message;
  const b = chat.received({ location: { latitude: 1, longitude: 1 }, message: 'b' }).messages[0].message;
  t.type(a.message, 'string');
  t.not(JSON.stringify(a), JSON.stringify(b), 'each client message gets its own reply');
});

t.test('deterministic with a seed, by request and not by call order; random without one', async (t) => {
  const one = engineOf(corpus);
  const two = engineOf(rootOf(CORPUS_FILES));
  const path = 'grpc.testing.TestService/UnaryCall';
  const r1 = { response_size: 10, fill_username: true };
  const r2 = { response_size: 11 };
  const a1 = one.method(path).unary(r1, {}).message;
  one.method(path).unary(r2, {});
  const b2 = two.method(path).unary(r2, {}).message;
  const b1 = two.method(path).unary(r1, {}).message;
  t.same(b1, a1, 'the same request answers the same message across engines, whatever came before');
  t.not(JSON.stringify(b2), JSON.stringify(b1), 'another request, another message');
  t.same(one.method(path).unary({ fill_username: true, response_size: 10 }, {}).message, a1, 'field order of the request does not matter');
  const streams = [one, two].map((e) => e.method('routeguide.RouteGuide/ListFeatures').serverStream({ lo: { latitude: 1, longitude: 2 }, hi: { latitude: 3, longitude: 4 } }, {}));
  t.same(streams[0], streams[1], 'server streams too');
  t.not(JSON.stringify(streams[0].messages[0]), JSON.stringify(streams[0].messages[1]), 'messages of a stream differ');
  const r = engineOf(corpus, { seed: undefined });
  const s = engineOf(corpus, { seed: undefined });
  t.not(JSON.stringify(r.method(path).unary(r1, {}).message), JSON.stringify(s.method(path).unary(r1, {}).message), 'no seed: random per start');
  t.not(JSON.stringify(engineOf(corpus, { seed: 43 }).method(path).unary(r1, {}).message), JSON.stringify(a1), 'another seed, other values');
});

t.test('kitchen sink: scalars in range, enums, oneofs, maps, optional, recursion, well-known types', async (t) => {
  const engine = engineOf(kitchen);
  const mock = engine.method('kitchen.v1.Users/GetUser');
  const users = Array.from({ length: 60 }, (_, i) => mock.unary({ id: `u${i}`, version: String(i) }, {}).message);
  for (const [i, user] of users.slice(0, 10).entries()) {
    wire(t, mock.responseType, user, `user ${i}`);
    survives(t, mock.responseType, user, `user ${i}`);
  }
  const int32 = (v) => Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31;
  const uint32 = (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32;
  const int64 = (v) => typeof v === 'string' && /^-?\d+$/.test(v) && BigInt(v) >= -(2n ** 63n) && BigInt(v) < 2n ** 63n;
  const uint64 = (v) => typeof v === 'string' && /^\d+$/.test(v) && BigInt(v) < 2n ** 64n;
  const withScalars = users.map((u) => u.scalars).filter(Boolean);
  t.ok(withScalars.length > 40);
  for (const s of withScalars) {
    t.ok(int32(s.an_int32) && int32(s.a_sint32) && int32(s.a_sfixed32), 'int32 kinds');
    t.ok(uint32(s.a_uint32) && uint32(s.a_fixed32), 'uint32 kinds non-negative');
    t.ok(int64(s.an_int64) && int64(s.a_sint64) && int64(s.a_sfixed64), 'int64 kinds as decimal strings');
    t.ok(uint64(s.a_uint64) && uint64(s.a_fixed64), 'uint64 kinds as non-negative decimal strings');
    t.equal(s.a_float, Math.fround(s.a_float), 'a float is what a float32 holds');
    t.ok(Number.isFinite(s.a_double));
    t.type(s.a_bool, 'boolean');
    t.ok(Buffer.isBuffer(s.a_bytes) && s.a_bytes.length > 0, 'bytes as a Buffer');
  }
  t.ok(withScalars.some((s) => s.a_sint32 < 0), 'signed kinds reach negative values');
  t.ok(users.every((u) => /^[^@\s]+@[^@\s]+\.\w+$/.test(u.email)), 'email by field name');
  t.ok(users.every((u) => u.age >= 18 && u.age <= 90), 'age by field name');
  t.ok(users.every((u) => /^[0-9a-f-]{36}$/.test(u.id)), 'id by field name');
  t.same(new Set(users.map((u) => u.favorite_color)), new Set(['COLOR_RED', 'COLOR_GREEN', 'COLOR_BLUE']), 'every enum value reachable; the UNSPECIFIED zero value is never generated');
  t.ok(users.some((u) => u.colors.length > 1 && new Set(u.colors).size === u.colors.length), 'repeated enums: distinct consecutive values');
  t.ok(users.every((u) => u.tags.length >= 1 && u.tags.length <= 3), 'repeated: 1 to 3 items');
  for (const u of users) {
    const members = ['phone', 'website_url', 'address'].filter((m) => m in u);
    t.equal(members.length, 1, 'one oneof member set');
    t.equal(u.contact, members[0], 'the oneof names it');
  }
  t.same(new Set(users.map((u) => u.contact)), new Set(['phone', 'website_url', 'address']), 'every oneof member reachable');
  t.ok(users.every((u) => typeof u.nickname === 'string'), 'proto3 optional is an ordinary field');
  t.ok(users.every((u) => Object.keys(u.scores).length >= 1 && Object.values(u.scores).every(Number.isInteger)), 'map<string, int32>');
  t.ok(users.every((u) => Object.keys(u.names_by_id).every((k) => /^-?\d+$/.test(k))), 'map<int64, string> keys are integers');
  t.ok(users.every((u) => Object.values(u.addresses).every((a) => typeof a.city === 'string')), 'map of messages');
  const depth = (u, d = 0) => Math.max(d, ...(u.manager ? [depth(u.manager, d + 1)] : []), ...(u.reports ?? []).map((r) => depth(r, d + 1)));
  t.ok(users.every((u) => depth(u) <= 2), 'recursion bounded');
  t.ok(users.some((u) => u.manager !== undefined), 'but it recurses once');

  const day = 86_400_000;
  for (const u of users) {
    const created = Number(u.created_at.seconds) * 1000;
    const expires = Number(u.expire_time.seconds) * 1000;
    t.ok(created < NOW && created > NOW - 400 * day, 'created_at: in the past year of the virtual clock');
    t.ok(expires > NOW - day && expires < NOW + 400 * day, 'expire_time: ahead');
    t.ok(Number.isInteger(u.created_at.nanos) && u.created_at.nanos >= 0 && u.created_at.nanos < 1e9);
    t.ok(Number(u.ttl.seconds) >= 1 && Number(u.ttl.seconds) <= 3601, 'Duration');
    t.ok(Object.keys(u.attributes.fields).length >= 1, 'Struct fields');
    t.type(u.extra.kind, 'string', 'Value: one kind set');
    t.type(u.middle_name.value, 'string', 'StringValue: the wrapped value, by the outer field name');
    t.ok(Number.isInteger(u.level.value) && u.level.value >= 0 && u.level.value <= 10, 'Int32Value by name (level 0-10)');
    t.ok(/^-?\d+$/.test(u.big.value), 'Int64Value as a string');
    t.type(u.verified.value, 'boolean');
    t.ok(Buffer.isBuffer(u.avatar.value), 'BytesValue');
    t.ok(u.update_mask.paths.length >= 1, 'FieldMask paths');
  }
  const kinds = new Set(users.flatMap((u) => [u.extra.kind, ...Object.values(u.attributes.fields).map((v) => v.kind)]));
  t.ok(kinds.size >= 4, `Value kinds vary: ${[...kinds].join(', ')}`);
  const anys = users.map((u) => u.payload);
  t.ok(anys.some((a) => Object.keys(a).length === 0), 'Any: sometimes empty');
  const packed = anys.filter((a) => a.type_url !== undefined);
  t.ok(packed.some((a) => a.type_url === 'type.googleapis.com/google.protobuf.StringValue'), 'Any: a packed StringValue');
  t.ok(packed.some((a) => a.type_url === 'type.googleapis.com/google.protobuf.Timestamp'), 'Any: a packed Timestamp');
  const sv = kitchen.lookupType('google.protobuf.StringValue');
  const first = packed.find((a) => a.type_url.endsWith('StringValue'));
  t.type(sv.decode(first.value).value, 'string', 'the packed bytes decode as their type');

  const ts = engine.method('kitchen.v1.Users/Now').unary({}, {}).message;
  t.ok(Math.abs(Number(ts.seconds) * 1000 - NOW) < 8 * day, 'a Timestamp answer is near the virtual clock');
  t.same(engine.method('kitchen.v1.Users/Ping').unary({}, {}).message, {}, 'Empty');
});

t.test('client streaming aggregates; bidi replies are per message and deterministic', async (t) => {
  const engine = engineOf(kitchen);
  const upload = engine.method('kitchen.v1.Users/Upload');
  t.equal(upload.clientStream([{}, {}, {}, {}], {}).message.count, 4, 'count = messages received');
  t.equal(upload.clientStream([], {}).message.count, 0, 'an empty stream counts 0');
  const chat = () => engine.method('kitchen.v1.Users/Chat').bidi({});
  const a = chat();
  const b = chat();
  const ra = [a.received({ count: 1 }), a.received({ count: 2 })].map((p) => p.messages[0].message);
  const rb = [b.received({ count: 1 }), b.received({ count: 2 })].map((p) => p.messages[0].message);
  t.same(ra, rb, 'the same conversation answers the same');
  const watch = engine.method('kitchen.v1.Users/Watch').serverStream({ id: 'x' }, {});
  t.equal(watch.messages.length, 3);
});

t.test('settings.stream: count and interval', async (t) => {
  const engine = engineOf(corpus, { stream: { count: 5, intervalMs: 200 } });
  const plan = engine.method('grpc.health.v1.Health/Watch').serverStream({ service: 'x' }, {});
  t.same(plan.messages.map((m) => m.delayMs), [0, 200, 200, 200, 200]);
  t.ok(plan.messages.every((m) => ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'].includes(m.message.status)));
  const statuses = new Set(Array.from({ length: 40 }, (_, i) => engine.method('grpc.health.v1.Health/Check').unary({ service: `s${i}` }, {}).message.status));
  t.equal(statuses.size, 4, 'every ServingStatus reachable across calls');
});

t.test('unknown methods', async (t) => {
  const engine = engineOf(corpus);
  t.equal(engine.method('routeguide.RouteGuide/Nope'), undefined);
  t.ok(engine.method('/routeguide.RouteGuide/GetFeature'), 'the HTTP/2 path form works too');
});

// grpc.methods rules in the gRPC engine: matching on request fields and metadata (the one
// condition dialect), templates coerced to field types, errors with rich details decoded back
// from grpc-status-details-bin, server-stream lists, client-stream rules, a bidi script, and bad
// rules refused with messages that name them.
import t from 'tap';
import { decodeStatus } from '../../../../dist/runtime/terminal/grpc/index.js';
import { CORPUS_FILES, NOW, engineOf, rootOf, wire } from './helpers.js';

const corpus = rootOf(CORPUS_FILES);
const kitchen = rootOf(['kitchen.proto']);
const GET = 'routeguide.RouteGuide/GetFeature';

t.test('match by request field and metadata; first rule wins; templates coerced', async (t) => {
  const engine = engineOf(corpus, {
    rules: [
      { method: GET, match: { request: { '$.latitude': 1 }, metadata: { 'x-tenant': 'acme' } }, response: { name: 'acme {{request.header.x-tenant}}' } },
      { method: GET, match: { request: { '$.latitude': { matches: '^[0-9]$' } } }, delay_ms: 25, response: { name: 'Spot {{request.body.latitude}}', location: { latitude: '{{request.body.longitude}}', longitude: 7 } } },
      { method: 'routeguide.RouteGuide/*', match: { metadata: { authorization: { present: false } } }, error: { code: 'UNAUTHENTICATED', message: 'no token' } },
    ],
  });
  const mock = engine.method(GET);
  t.same(mock.unary({ latitude: 1, longitude: 5 }, { 'x-tenant': 'acme', authorization: 'x' }), { message: { name: 'acme acme' }, delayMs: 0 }, 'metadata and field');
  t.same(mock.unary({ latitude: 1, longitude: 5 }, { 'x-tenant': ['other', 'acme'], authorization: 'x' }).message, { name: 'acme other' }, 'a repeated metadata key matches by any value; templates read its first');
  const second = mock.unary({ latitude: 3, longitude: 42 }, { authorization: 'x' });
  t.same(second, { message: { name: 'Spot 3', location: { latitude: 42, longitude: 7 } }, delayMs: 25 }, '"42" from a template becomes the int32 42');
  wire(t, mock.responseType, second.message);
  t.same(mock.unary({ latitude: 30, longitude: 1 }, {}).failure, { code: 16, message: 'no token' }, 'the wildcard rule');
  const generated = mock.unary({ latitude: 30, longitude: 1 }, { authorization: 'x' });
  t.type(generated.message.name, 'string', 'no rule: generated');
  t.equal(generated.delayMs, 0);
});

t.test('a template whose output does not fit its field fails the call INTERNAL, naming the rule', async (t) => {
  const engine = engineOf(corpus, { rules: [{ method: GET, response: { location: { latitude: '{{request.header.lat}}' } } }] });
  const reply = engine.method(GET).unary({}, { lat: 'north' });
  t.equal(reply.failure.code, 13);
  t.match(reply.failure.message, /grpc\.methods\[0\]\.response\.location\.latitude: "north" is not an integer \(int32\)/);
  t.same(engine.method(GET).unary({}, { lat: '-5' }).message, { location: { latitude: -5 } });
});

t.test('well-known types, enums, bytes, maps and oneofs written in rules', async (t) => {
  const engine = engineOf(kitchen, {
    rules: [
      {
        method: 'kitchen.v1.Users/GetUser',
        response: {
          id: '{{request.body.id}}',
          age: '{{request.body.version}}',
          favorite_color: 'COLOR_BLUE',
          colors: [2, 'COLOR_RED'],
          scores: { a: 1, b: '2' },
          names_by_id: { 7: 'seven' },
          website_url: 'https://example.com',
          created_at: '2030-01-02T03:04:05.5Z',
          expire_time: '{{now}}',
          ttl: '1.5s',
          attributes: { plan: 'pro', seats: 5, flags: [true, null] },
          middle_name: 'Q',
          big: '{{request.body.version}}',
          verified: true,
          avatar: 'AAEC',
          update_mask: 'name,display_name',
          payload: { '@type': 'type.googleapis.com/kitchen.v1.Address', city: 'Paris' },
          displayName: 'JSON names work too',
        },
      },
    ],
  });
  const mock = engine.method('kitchen.v1.Users/GetUser');
  const user = mock.unary({ id: 'u-1', version: '33' }, {}).message;
  wire(t, mock.responseType, user);
  t.equal(user.id, 'u-1');
  t.equal(user.age, 33);
  t.same(user.colors, ['COLOR_GREEN', 'COLOR_RED'], 'enum numbers become names');
  t.same(user.scores, { a: 1, b: 2 });
  t.equal(user.contact, 'website_url', 'the oneof names its member');
  t.same(user.created_at, { seconds: String(Date.UTC(2030, 0, 2, 3, 4, 5) / 1000), nanos: 500_000_000 });
  t.same(user.expire_time, { seconds: String(NOW / 1000), nanos: 0 }, '{{now}} on the virtual clock');
  t.same(user.ttl, { seconds: '1', nanos: 500_000_000 });
  t.equal(user.attributes.fields.seats.numberValue, 5);
  t.same(user.middle_name, { value: 'Q' });
  t.same(user.big, { value: '33' });
  t.same(user.avatar.value, Buffer.from([0, 1, 2]));
  t.same(user.update_mask.paths, ['name', 'display_name']);
  t.equal(user.payload.type_url, 'type.googleapis.com/kitchen.v1.Address');
  t.equal(kitchen.lookupType('kitchen.v1.Address').decode(user.payload.value).city, 'Paris');
  t.equal(user.display_name, 'JSON names work too');
});

t.test('errors: status names and numbers, templated message, trailers, rich details', async (t) => {
  const engine = engineOf(corpus, {
    rules: [
      {
        method: GET,
        match: { request: { '$.latitude': 0 } },
        delay_ms: 10,
        error: {
          code: 'INVALID_ARGUMENT',
          message: 'latitude {{request.body.latitude}} is not allowed',
          trailers: { 'x-reason': 'zero-{{request.body.longitude}}' },
          details: [
            { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ZERO_LATITUDE', domain: 'routeguide.example.com', metadata: { lon: '{{request.body.longitude}}' } },
            { '@type': 'type.googleapis.com/google.rpc.BadRequest', field_violations: [{ field: 'latitude', description: 'must not be 0' }] },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retry_delay: '2.5s' },
            { '@type': 'type.googleapis.com/google.rpc.DebugInfo', stack_entries: ['a', 'b'], detail: 'd' },
            { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ subject: 'project:1', description: 'over' }] },
            { '@type': 'type.googleapis.com/google.rpc.PreconditionFailure', violations: [{ type: 'TOS', subject: 'user', description: 'not accepted' }] },
            { '@type': 'type.googleapis.com/google.rpc.ResourceInfo', resource_type: 'feature', resource_name: 'f/1' },
            { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'docs', url: 'https://example.com' }] },
            { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'fr-FR', message: 'non' },
            { '@type': 'type.googleapis.com/routeguide.Point', latitude: 5 },
          ],
        },
      },
      { method: GET, error: { code: 5 } },
    ],
  });
  const reply = engine.method(GET).unary({ latitude: 0, longitude: 9 }, {});
  t.equal(reply.delayMs, 10);
  const { failure } = reply;
  t.equal(failure.code, 3);
  t.equal(failure.message, 'latitude 0 is not allowed');
  t.same(failure.trailers, { 'x-reason': 'zero-9' });
  t.ok(Buffer.isBuffer(failure.details));
  const status = decodeStatus(failure.details, corpus);
  t.equal(status.code, 3);
  t.equal(status.message, 'latitude 0 is not allowed');
  t.same(status.details[0], { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ZERO_LATITUDE', domain: 'routeguide.example.com', metadata: { lon: '9' } });
  t.same(status.details[1].field_violations, [{ field: 'latitude', description: 'must not be 0' }]);
  t.same(status.details[2].retry_delay, { seconds: '2', nanos: 500_000_000 });
  t.same(status.details[3].stack_entries, ['a', 'b']);
  t.equal(status.details[4].violations[0].subject, 'project:1');
  t.equal(status.details[5].violations[0].type, 'TOS');
  t.equal(status.details[6].resource_name, 'f/1');
  t.equal(status.details[7].links[0].url, 'https://example.com');
  t.equal(status.details[8].locale, 'fr-FR');
  t.same(status.details[9], { '@type': 'type.googleapis.com/routeguide.Point', latitude: 5 }, 'a message of the user\'s protos packs too');
  t.same(engine.method(GET).unary({ latitude: 1 }, {}), { failure: { code: 5, message: '' }, delayMs: 0 });
});

t.test('server streaming: responses list, delays, a failure midway; response repeated count times', async (t) => {
  const LIST = 'routeguide.RouteGuide/ListFeatures';
  const engine = engineOf(corpus, {
    stream: { count: 2, intervalMs: 100 },
    rules: [
      {
        method: LIST,
        match: { request: { '$.lo.latitude': 1 } },
        responses: [{ message: { name: 'first {{request.body.hi.latitude}}' } }, { message: { name: 'second' }, delay_ms: 5 }, { message: { name: 'third' } }],
        error: { code: 'UNAVAILABLE', message: 'gone' },
      },
      { method: LIST, match: { request: { '$.lo.latitude': 2 } }, delay_ms: 7, response: { name: 'same' } },
      { method: LIST, match: { request: { '$.lo.latitude': 3 } }, delay_ms: 9, error: { code: 'NOT_FOUND' } },
    ],
  });
  const mock = engine.method(LIST);
  const plan = mock.serverStream({ lo: { latitude: 1 }, hi: { latitude: 8 } }, {});
  t.same(plan.messages, [
    { message: { name: 'first 8' }, delayMs: 0 },
    { message: { name: 'second' }, delayMs: 5 },
    { message: { name: 'third' }, delayMs: 100 },
  ]);
  t.same(plan.end, { code: 14, message: 'gone' });
  t.same(mock.serverStream({ lo: { latitude: 2 } }, {}), { messages: [{ message: { name: 'same' }, delayMs: 7 }, { message: { name: 'same' }, delayMs: 107 }] });
  t.same(mock.serverStream({ lo: { latitude: 3 } }, {}), { messages: [], end: { code: 5, message: '' }, endDelayMs: 9 });
});

t.test('client streaming: rules match on any message, templates read the last', async (t) => {
  const RECORD = 'routeguide.RouteGuide/RecordRoute';
  const engine = engineOf(corpus, {
    rules: [
      { method: RECORD, match: { request: { '$.latitude': 99 } }, response: { point_count: 1, distance: '{{request.body.longitude}}' } },
      { method: RECORD, match: { metadata: { 'x-fail': 'yes' } }, error: { code: 'ABORTED', message: 'nope' } },
    ],
  });
  const mock = engine.method(RECORD);
  t.same(mock.clientStream([{ latitude: 99, longitude: 1 }, { latitude: 2, longitude: 3 }], {}).message, { point_count: 1, distance: 3 });
  t.same(mock.clientStream([{ latitude: 2 }], { 'x-fail': 'yes' }).failure, { code: 10, message: 'nope' });
  t.equal(mock.clientStream([{ latitude: 2 }, { latitude: 3 }], {}).message.point_count, 2, 'no rule: generated, counting');
});

t.test('bidi: a script of expected and sent messages; rules per message otherwise', async (t) => {
  const CHAT = 'routeguide.RouteGuide/RouteChat';
  const engine = engineOf(corpus, {
    rules: [
      {
        method: CHAT,
        match: { metadata: { 'x-script': 'on' } },
        script: [
          { send: [{ message: 'welcome' }] },
          { expect: { '$.message': 'hello' }, delay_ms: 20, send: [{ message: 'hi {{request.header.x-user}}' }, { message: 'at {{request.body.location.latitude}}', location: { latitude: '{{request.body.location.latitude}}' } }] },
          { delay_ms: 5, send: [{ message: 'ready' }] },
          { expect: { '$.message': { matches: 'bye.*' } }, send: [{ message: 'ciao' }], error: { code: 'CANCELLED', message: 'done' } },
        ],
      },
      { method: CHAT, match: { request: { '$.message': 'ping' } }, response: { message: 'pong' } },
      { method: CHAT, match: { request: { '$.message': 'boom' } }, error: { code: 'INTERNAL', message: 'boom' } },
    ],
  });
  const mock = engine.method(CHAT);
  const script = mock.bidi({ 'x-script': 'on', 'x-user': 'ann' });
  t.same(script.start(), { messages: [{ message: { message: 'welcome' }, delayMs: 0 }] }, 'lines without expect play at once');
  t.same(script.received({ message: 'other' }), { messages: [] }, 'a message the line does not expect is not answered');
  t.same(script.received({ message: 'hello', location: { latitude: 4 } }), {
    messages: [
      { message: { message: 'hi ann' }, delayMs: 20 },
      { message: { message: 'at 4', location: { latitude: 4 } }, delayMs: 0 },
      { message: { message: 'ready' }, delayMs: 5 },
    ],
  });
  t.same(script.received({ message: 'bye now' }), { messages: [{ message: { message: 'ciao' }, delayMs: 0 }], end: { code: 1, message: 'done' }, endDelayMs: 0 });
  t.same(script.received({ message: 'hello' }), { messages: [] }, 'ended');

  const plain = mock.bidi({});
  t.same(plain.received({ message: 'ping' }), { messages: [{ message: { message: 'pong' }, delayMs: 0 }] });
  const other = plain.received({ message: 'x', location: { latitude: 1, longitude: 2 } });
  t.type(other.messages[0].message.message, 'string', 'unmatched: a generated reply');
  t.same(plain.received({ message: 'boom' }), { messages: [], end: { code: 13, message: 'boom' }, endDelayMs: 0 });
  t.same(plain.received({ message: 'ping' }), { messages: [] }, 'nothing after the failure');
});

t.test('bad rules are refused with messages naming them', async (t) => {
  const refused = (rules, pattern, label, root = corpus) => t.throws(() => engineOf(root, { rules }), { name: 'GrpcRuleError', message: pattern }, label);
  refused([{ method: 'routeguide.Nope/GetFeature' }], /grpc\.methods\[0\]\.method: no service routeguide\.Nope .*services: .*routeguide\.RouteGuide/, 'unknown service');
  refused([{ method: GET }, { method: 'routeguide.RouteGuide/Nope' }], /grpc\.methods\[1\]\.method: routeguide\.RouteGuide has no method Nope \(methods: GetFeature, ListFeatures, RecordRoute, RouteChat\)/, 'unknown method');
  refused([{ method: 'GetFeature' }], /grpc\.methods\[0\]\.method must be "package\.Service\/Method"/, 'malformed method');
  refused([{ method: GET, response: { nmae: 'x' } }], /grpc\.methods\[0\]\.response: routeguide\.Feature has no field "nmae" \(its fields: name, location\)/, 'unknown field');
  refused([{ method: GET, response: { location: { latitude: 'north' } } }], /grpc\.methods\[0\]\.response\.location\.latitude: "north" is not an integer \(int32\)/, 'a constant of the wrong type');
  refused([{ method: GET, response: { location: { latitude: 2 ** 40 } } }], /out of range for int32/, 'out of range');
  refused([{ method: GET, response: { name: '{{request.body.}}' } }], /grpc\.methods\[0\]\.response\.name: bad template/, 'bad template');
  refused([{ method: GET, match: { request: { '$.latitude': { matches: '(' } } } }], /grpc\.methods\[0\]\.match\.request\["\$\.latitude"\]/, 'bad regex');
  refused([{ method: GET, match: { request: { '$[': 1 } } }], /grpc\.methods\[0\]\.match\.request\["\$\["\]: the JSONPath/, 'bad JSONPath');
  refused([{ method: GET, match: { metadata: { 'x-a': { between: 1 } } } }], /grpc\.methods\[0\]\.match\.metadata\.x-a: must be exactly one of/, 'bad metadata condition');
  refused([{ method: GET, error: { code: 'NOT_FOUD' } }], /grpc\.methods\[0\]\.error\.code: unknown status "NOT_FOUD": use one of CANCELLED, .*NOT_FOUND/, 'unknown status name');
  refused([{ method: GET, error: { code: 0 } }], /grpc\.methods\[0\]\.error\.code: code 0 is not a gRPC error status/, 'OK is no error');
  refused([{ method: GET, error: { code: 5, details: [{ '@type': 'type.googleapis.com/google.rpc.Nope' }] } }], /grpc\.methods\[0\]\.error\.details\[0\]: unknown "@type"/, 'unknown detail type');
  refused([{ method: GET, error: { code: 5, details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reasn: 'x' }] } }], /grpc\.methods\[0\]\.error\.details\[0\]: google\.rpc\.ErrorInfo has no field "reasn"/, 'a detail field its type lacks');
  refused([{ method: GET, responses: [{ message: {} }] }], /grpc\.methods\[0\]\.responses: routeguide\.RouteGuide\/GetFeature does not stream/, 'responses on a unary method');
  refused([{ method: GET, script: [] }], /grpc\.methods\[0\]\.script: .* is not bidirectional/, 'script on a unary method');
  refused([{ method: 'routeguide.RouteGuide/RouteChat', match: { request: { '$.message': 'a' } }, script: [] }], /a script is chosen when the call opens/, 'script with request conditions');
  refused([{ method: GET, delay_ms: -1 }], /grpc\.methods\[0\]\.delay_ms must be a number of milliseconds/, 'negative delay');
  refused([{ method: 'kitchen.v1.Users/GetUser', response: { phone: '1', website_url: 'x' } }], /phone and website_url are members of the oneof contact/, 'two members of a oneof', kitchen);
  refused([{ method: 'kitchen.v1.Users/GetUser', response: { favorite_color: 'PINK' } }], /"PINK" is not a value of kitchen\.v1\.Color \(COLOR_UNSPECIFIED, COLOR_RED/, 'unknown enum name', kitchen);
  refused([{ method: 'kitchen.v1.Users/GetUser', response: { created_at: 'yesterday' } }], /created_at: "yesterday" is not an RFC 3339 timestamp/, 'bad timestamp', kitchen);
  refused([{ method: 'routeguide.RouteGuide/*', response: { name: 'x' } }], /grpc\.methods\[0\]\.response \(for routeguide\.RouteGuide\/RecordRoute\): .*RouteSummary has no field "name"/, 'a wildcard response must fit every method');
});

// GraphQL's limits (issue 35, items 2, 3, 4, 5 and 8) through the real CLI and real clients: fetch
// for GraphQL over HTTP, `ws` for graphql-transport-ws. Each attack runs against the defaults
// (graphql.max_* and graphql.subscriptions.max_* unset) on uWS and, for the WebSocket, on node:http
// too; a third server with small limits shows the refusals that need more data than a test should
// send at the defaults. Caps are proven by counts and sizes the admin API reports, not by memory.
// graphql-transport-ws protocol violations are sent on raw sockets to both backends (issue 36).
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { getIntrospectionQuery } from 'graphql';
import WebSocket from 'ws';
import { root, startCommand, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const shop = path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql');
const GQL = 'application/graphql-response+json';
const PROTOCOL = 'graphql-transport-ws';

async function serve(backend, extra = '') {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    `server: { http_backend: ${backend}, graphql_port: 0 }
graphql:
  schema: ${JSON.stringify(shop)}
  list_length: { min: 4, max: 4 }
  subscriptions: { interval_ms: 5 }
${extra}`,
  );
  // every address is printed in one write: the GraphQL line comes with the admin's
  const server = await startCommand(['serve', '--host', '127.0.0.1', '--admin', '--admin-port', '0'], /GraphQL on (http:\/\/\S+)/, { cwd: dir });
  const adminUrl = /admin on (http:\/\/\S+)/.exec(server.stdout)[1];
  server.wsUrl = server.url.replace(/^http/, 'ws');
  server.gql = async (query, variables) => {
    const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: GQL }, body: JSON.stringify({ query, variables }) });
    const text = await res.text();
    return { status: res.status, bytes: text.length, body: JSON.parse(text) };
  };
  server.details = async () => (await (await fetch(`${adminUrl}/__mock/graphql`)).json()).data;
  server.log = () => server.stdout + server.stderr;
  return server;
}

const [uws, node, small] = await Promise.all([
  serve('uws'),
  serve('node'),
  serve(
    'uws',
    `  max_response_bytes: 65536
  max_store_mb: 1
  max_cache_mb: 1
`,
  ),
]);
t.teardown(() => Promise.all([uws.stop(), node.stop(), small.stop()]));

const codeOf = (result) => result.body.errors?.[0]?.extensions?.code;
const aliased = (n, selection) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(' ')} }`;
/** A subscription whose every event is large: five levels of four friends, 1,024 users at the bottom. */
const HEAVY = 'subscription { userCreated { friends { friends { friends { friends { friends { id name email bio website createdAt } } } } } } }';

t.test('introspection and __typename count toward complexity; aliases and tokens are capped; an IDE introspection passes the defaults', async (t) => {
  const ide = await uws.gql(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }));
  t.equal(ide.status, 200, "graphql-js's introspection query (GraphiQL's), every option on");
  t.notOk(ide.body.errors);
  t.ok(ide.body.data.__schema.types.some((type) => type.name === 'User'));

  const fragments = getIntrospectionQuery().replace(/^\s*query IntrospectionQuery \{[\s\S]*?\n {4}\}\n/, '');
  const copies = await uws.gql(`query { ${Array.from({ length: 6 }, (_, i) => `s${i}: __schema { types { ...FullType } }`).join(' ')} } ${fragments}`);
  t.equal(copies.status, 400, "six aliased copies of an IDE's types (179 fields each)");
  t.equal(codeOf(copies), 'MOCK_ERR_GRAPHQL_COMPLEXITY', 'every field under __schema counts');
  t.match(copies.body.errors[0].message, /raise graphql\.max_complexity/);

  const schemas = await uws.gql(aliased(200, '__schema { types { name } }'));
  t.equal(codeOf(schemas), 'MOCK_ERR_GRAPHQL_ALIASES', '200 aliased __schema selections');
  t.match(schemas.body.errors[0].message, /200 aliases, more than graphql\.max_aliases 50 .*raise graphql\.max_aliases in mock\.yaml/);
  t.notOk('data' in schemas.body);

  const typenames = await uws.gql(aliased(2000, '__typename'));
  t.equal(typenames.status, 400, '__typename is not free');
  t.equal(codeOf(typenames), 'MOCK_ERR_GRAPHQL_COMPLEXITY');

  const tokens = await uws.gql(`{ ${'__typename '.repeat(20_000)}}`);
  t.equal(codeOf(tokens), 'MOCK_ERR_GRAPHQL_TOKENS', '20,000 tokens: parsing stops at graphql.max_tokens');
  t.match(tokens.body.errors[0].message, /more than graphql\.max_tokens 10000 tokens.*raise graphql\.max_tokens/);
  t.equal((await uws.gql('{ me { __typename } }')).body.data.me.__typename, 'User', 'the server answers as before');
});

t.test('a GraphQL request body is bounded by graphql.max_body_bytes (1 MB), not the HTTP mock\'s 10 MB', async (t) => {
  const big = await uws.gql(`{ search(text: "${'x'.repeat(2 * 1024 * 1024)}") { __typename } }`);
  t.equal(big.status, 413);
  t.equal(codeOf(big), 'MOCK_ERR_GRAPHQL_BODY_TOO_LARGE');
  t.match(big.body.errors[0].message, /graphql\.max_body_bytes 1048576 .*raise graphql\.max_body_bytes in mock\.yaml/);
  const fits = await uws.gql(`{ search(text: "${'x'.repeat(512 * 1024)}") { __typename } }`);
  t.equal(fits.status, 200, 'half a megabyte passes');
});

t.test('the document cache is bounded in bytes (graphql.max_cache_mb), the least recently used out first', async (t) => {
  for (let i = 0; i < 20; i++) {
    const res = await small.gql(`query Q${i} { me { ${Array.from({ length: 40 }, (_, k) => `f${k}: name`).join(' ')} } }`);
    t.equal(res.status, 200);
  }
  const { document_cache: cache } = await small.details();
  t.ok(cache.bytes <= 1024 * 1024, `${cache.bytes} bytes kept, within 1 MB`);
  t.ok(cache.documents < 20 && cache.documents > 1, `${cache.documents} of 20 documents kept`);
});

t.test('an answer over graphql.max_response_bytes is an error, over HTTP and over the WebSocket', async (t) => {
  const query = '{ me { friends { friends { friends { friends { friends { id name email bio } } } } } } }';
  const http = await small.gql(query);
  t.equal(http.status, 400);
  t.equal(codeOf(http), 'MOCK_ERR_GRAPHQL_RESPONSE_TOO_LARGE');
  t.match(http.body.errors[0].message, /graphql\.max_response_bytes 65536 .*raise graphql\.max_response_bytes/);
  t.ok(http.bytes < 1024, 'the refusal is small');
  t.equal((await uws.gql(query)).status, 200, 'the same query within the default 10 MB');

  const socket = await connect(small);
  socket.send(JSON.stringify({ id: 'big', type: 'subscribe', payload: { query: HEAVY } }));
  const message = await socket.next((m) => m.id === 'big');
  t.match(message, { id: 'big', type: 'next', payload: { errors: [{ extensions: { code: 'MOCK_ERR_GRAPHQL_RESPONSE_TOO_LARGE' } }] } }, 'the event replaced by an error for its operation');
  socket.close();
});

t.test('the mutation store is bounded in bytes (graphql.max_store_mb, 64 MB): least recently used objects forgotten with one warning line', async (t) => {
  const create = async (name) => (await uws.gql('mutation ($n: String!) { createUser(input: {name: $n, email: "e@example.com"}) { id } }', { n: name })).body.data.createUser.id;
  const first = await create(`first ${'x'.repeat(1_000_000)}`);
  for (let i = 0; i < 40; i++) await create(`${i} ${'y'.repeat(1_000_000)}`);
  const { store } = await uws.details();
  t.ok(store.bytes <= 64 * 1024 * 1024, `${store.bytes} bytes stored, within 64 MB`);
  t.ok(store.objects < 41, `${store.objects} of 41 objects kept`);
  const read = await uws.gql('query ($id: ID!) { user(id: $id) { name } }', { id: first });
  t.notMatch(read.body.data.user.name, /^first x/, 'the least recently used object is forgotten');
  const warnings = uws.log().match(/mutation store.*graphql\.max_store_mb/g) ?? [];
  t.equal(warnings.length, 1, 'one warning line, not one per object forgotten');

  const huge = await small.gql('mutation ($n: String!) { createUser(input: {name: $n, email: "e@example.com"}) { id } }', { n: 'z'.repeat(600_000) });
  t.equal(huge.status, 200, 'a field error');
  t.match(huge.body.errors, [{ path: ['createUser'], extensions: { code: 'MOCK_ERR_GRAPHQL_STORE_OBJECT_TOO_LARGE' }, message: /graphql\.max_store_mb/ }], 'one object larger than the whole store is refused');
  t.equal((await small.details()).store.objects, 0, 'nothing stored');
});

t.test('__proto__, constructor and prototype as ids, variables and input keys pollute nothing', async (t) => {
  const update = 'mutation ($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id name } }';
  const proto = await uws.gql(update, JSON.parse('{"id": "__proto__", "input": {"name": "Proto"}, "__proto__": {"id": "inherited", "polluted": true}}'));
  t.same(proto.body, { data: { updateUser: { id: '__proto__', name: 'Proto' } } }, 'an object whose id is __proto__');
  const extra = await uws.gql(update, JSON.parse('{"id": "u-1", "input": {"name": "A", "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}}'));
  t.equal(codeOf(extra), 'MOCK_ERR_GRAPHQL_VARIABLES', 'input keys the type does not declare are refused');
  const byDefault = await uws.gql('query ($constructor: ID = "fallback", $toString: ID = "x") { user(id: $constructor) { id } other: user(id: $toString) { id } }');
  t.same(byDefault.body, { data: { user: { id: 'fallback' }, other: { id: 'x' } } }, 'a variable named constructor, not sent, takes its default');
  const read = await uws.gql('{ a: user(id: "__proto__") { id name } b: user(id: "constructor") { id } c: user(id: "prototype") { id } }');
  t.same(read.body.data, { a: { id: '__proto__', name: 'Proto' }, b: { id: 'constructor' }, c: { id: 'prototype' } }, 'later requests see them as data');
  const socket = await connect(uws);
  socket.send(JSON.stringify({ id: '__proto__', type: 'subscribe', payload: { query: '{ user(id: "__proto__") { name } }' } }));
  t.match(await socket.next((m) => m.type === 'next'), { id: '__proto__', payload: { data: { user: { name: 'Proto' } } } }, 'an operation id of __proto__ over the WebSocket');
  socket.close();
  const created = await uws.gql('mutation { createUser(input: {name: "After", email: "a@example.com"}) { name } }');
  t.same(created.body, { data: { createUser: { name: 'After' } } }, 'mutations answer as before');
});

for (const [backend, server] of [
  ['uWS', uws],
  ['node:http', node],
]) {
  t.test(`GraphQL over WebSocket on ${backend}: connections are capped (graphql.subscriptions.max_connections, 200)`, async (t) => {
    const open = [];
    t.teardown(() => open.forEach((s) => s.terminate()));
    for (let i = 0; i < 200; i++) open.push(await connect(server));
    const refused = await new Promise((resolve, reject) => {
      const ws = new WebSocket(server.wsUrl, PROTOCOL);
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(body) }));
      });
      ws.on('open', () => {
        open.push({ terminate: () => ws.terminate() });
        reject(new Error('the 201st connection was accepted'));
      });
      ws.on('error', () => {});
    });
    t.equal(refused.status, 503, 'the 201st connection: 503');
    t.match(refused.body, { errors: [{ message: /graphql\.subscriptions\.max_connections 200 .*raise graphql\.subscriptions\.max_connections/, extensions: { code: 'MOCK_ERR_GRAPHQL_CONNECTION_LIMIT' } }] });
    open.splice(0).forEach((s) => s.terminate());
    await until(async () => (await server.details()).subscription_connections === 0, 10_000, 'connections closed');
    const again = await connect(server);
    t.ok(again, 'one closed, another is accepted');
    again.terminate();
  });

  t.test(`GraphQL over WebSocket on ${backend}: operations per connection are capped (graphql.subscriptions.max_per_connection, 50)`, async (t) => {
    const busy = await connect(server);
    t.teardown(() => busy.terminate());
    for (let i = 0; i < 51; i++) busy.send(JSON.stringify({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { userCreated { id } }' } }));
    const over = await busy.next((m) => m.type === 'error');
    t.match(over, { id: 's50', payload: [{ message: /graphql\.subscriptions\.max_per_connection 50/, extensions: { code: 'MOCK_ERR_GRAPHQL_OPERATION_LIMIT' } }] }, 'the 51st operation on one connection is refused');
    busy.send(JSON.stringify({ id: 's0', type: 'complete' }));
    // the completion ends the subscription asynchronously: the next operation is accepted once it has
    let attempt = 0;
    const again = await until(async () => {
      const id = `again${attempt++}`;
      busy.send(JSON.stringify({ id, type: 'subscribe', payload: { query: '{ me { id } }' } }));
      const answer = await busy.next((m) => m.id === id);
      return answer.type === 'next' ? answer : undefined;
    }, 10_000, 'an operation accepted after one completed');
    t.match(again, { payload: { data: { me: { id: String } } } }, 'one completed, another runs');
  });

  t.test(`GraphQL over WebSocket on ${backend}: a client that does not read is cut off past graphql.subscriptions.max_buffered_bytes`, async (t) => {
    const slow = [await connect(server), await connect(server)];
    t.teardown(() => slow.forEach((s) => s.terminate()));
    for (const socket of slow) {
      for (let i = 0; i < 10; i++) socket.send(JSON.stringify({ id: `h${i}`, type: 'subscribe', payload: { query: HEAVY } }));
      await socket.next((m) => m.type === 'next');
      socket.pause();
    }
    await until(async () => (await server.details()).subscription_connections === 0, 30_000, 'the slow readers cut off');
    for (const socket of slow) {
      socket.resume();
      t.equal((await socket.closed).code, 1006, 'cut without a closing handshake');
    }
    const warnings = server.log().match(/cut off client .*graphql\.subscriptions\.max_buffered_bytes/g) ?? [];
    t.equal(warnings.length, 1, 'one warning line for both (one a minute)');
    const after = await connect(server);
    t.teardown(() => after.terminate());
    after.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ me { id } }' } }));
    t.match(await after.next((m) => m.id === 'q'), { type: 'next' }, 'the server serves the next client');
  });
}

// graphql-transport-ws (github.com/enisdenjo/graphql-ws, PROTOCOL.md) says how a server closes on
// each violation; both backends, side by side (the initialisation timeout is the protocol's 3 s)
t.test('graphql-transport-ws protocol violations close with the codes the protocol defines, on uWS and node:http', async (t) => {
  const violations = async (server) => {
    const before = await rawSocket(server);
    before.send({ id: 'early', type: 'subscribe', payload: { query: '{ me { id } }' } });

    const twice = await connect(server);
    twice.send({ type: 'connection_init' });

    const duplicate = await connect(server);
    duplicate.send({ id: 'same', type: 'subscribe', payload: { query: 'subscription { userCreated { id } }' } });
    await duplicate.next((m) => m.id === 'same' && m.type === 'next');
    duplicate.send({ id: 'same', type: 'subscribe', payload: { query: 'subscription { userCreated { id } }' } });

    const shapes = ['not json', '[]', '{"type":"connection_init","payload":"not an object"}', '{"type":"shout"}', '{"id":"x","type":"subscribe"}', '{"id":"","type":"subscribe","payload":{"query":"{ me { id } }"}}'];
    const invalid = await Promise.all(
      shapes.map(async (text, i) => {
        // the last two acknowledged: a subscribe message is checked only once the connection is
        const socket = await (i >= 4 ? connect(server) : rawSocket(server));
        socket.send(text);
        return socket.closed;
      }),
    );

    const silent = await rawSocket(server);
    silent.send({ type: 'ping' });
    const pong = await silent.next((m) => m.type === 'pong');
    return { before: await before.closed, twice: await twice.closed, duplicate: await duplicate.closed, invalid, silent: await silent.closed, pong, shapes };
  };
  const results = await Promise.all([violations(uws), violations(node)]);
  for (const [backend, server, result] of [
    ['uWS', uws, results[0]],
    ['node:http', node, results[1]],
  ]) {
    t.same(result.before, { code: 4401, reason: 'Unauthorized' }, `${backend}: a subscribe before connection_init is 4401`);
    t.same(result.twice, { code: 4429, reason: 'Too many initialisation requests' }, `${backend}: a second connection_init is 4429`);
    t.same(result.duplicate, { code: 4409, reason: 'Subscriber for same already exists' }, `${backend}: a subscribe whose id is running is 4409`);
    result.invalid.forEach((closed, i) => t.same(closed, { code: 4400, reason: 'Invalid message received' }, `${backend}: ${result.shapes[i]} is 4400`));
    t.same(result.pong, { type: 'pong' }, `${backend}: a ping before connection_init is answered (the protocol allows it)`);
    t.same(result.silent, { code: 4408, reason: 'Connection initialisation timeout' }, `${backend}: no connection_init within 3 s is 4408`);
    await until(async () => (await server.details()).subscription_connections === 0, 10_000, `${backend}: every violating connection forgotten`);
    const after = await connect(server);
    t.teardown(() => after.terminate());
    after.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ me { id } }' } }));
    t.match(await after.next((m) => m.id === 'q'), { type: 'next', payload: { data: { me: { id: String } } } }, `${backend}: the server serves the next client`);
  }
  const logged = uws.log() + node.log();
  t.notMatch(logged, /bug|unhandled|uncaught/i, 'no violation reached past the protocol handler');
});

/**
 * A graphql-transport-ws socket that sends nothing unasked: send(text or message), next(predicate)
 * for a message, pause()/resume() reading, `closed` ({ code, reason }).
 */
async function rawSocket(server) {
  const ws = new WebSocket(server.wsUrl, PROTOCOL);
  const messages = [];
  let waiting;
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()));
    waiting?.();
  });
  const closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on('error', () => {});
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  const next = async (predicate) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const index = messages.findIndex(predicate);
      if (index >= 0) return messages.splice(index, 1)[0];
      // other messages may keep coming: the deadline is the call's, not the wait's
      if (Date.now() > deadline) throw new Error('no such message within 10 s');
      await new Promise((resolve) => {
        waiting = resolve;
        setTimeout(resolve, 1000).unref();
      });
    }
  };
  return {
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next,
    close: () => ws.close(),
    terminate: () => ws.terminate(),
    // the client stops reading: the server's writes wait in the socket's buffers, then in its own
    pause: () => ws._socket.pause(),
    resume: () => ws._socket.resume(),
    closed,
  };
}

/** A rawSocket whose connection_init is acknowledged. */
async function connect(server) {
  const socket = await rawSocket(server);
  socket.send({ type: 'connection_init' });
  await socket.next((m) => m.type === 'connection_ack');
  return socket;
}

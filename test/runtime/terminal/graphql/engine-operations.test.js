// Documents: what GraphQL lets a client write (fragments, aliases, variables, directives, several
// operations), and what the engine refuses before running anything (parse, validation, operation,
// depth, complexity, introspection), with its codes.
import t from 'tap';
import { getIntrospectionQuery } from 'graphql';
import { GRAPHQL_CODES } from '../../../../dist/runtime/terminal/graphql/index.js';
import { data, mockEngine, run } from './helpers.js';

const SDL = `
type Query { me: User! user(id: ID!): User users(first: Int = 2, role: Role): [User!]! node(id: ID!): Node }
type Mutation { rename(id: ID!, name: String!): User }
type Subscription { ticks: Int! }
interface Node { id: ID! }
enum Role { ADMIN MEMBER }
type User implements Node { id: ID! name: String! email: String! friends: [User!]! role: Role! }
type Post implements Node { id: ID! title: String! }
`;
const engine = mockEngine(SDL);

t.test('fragments (named, inline, nested), aliases, typename', async (t) => {
  const d = await data(t, engine, `
    query Q { me { ...UserBits friends { ...UserBits } } other: node(id: "n1") { __typename ... on User { name } ... on Post { title } } }
    fragment UserBits on User { id ...Names ... on User { role } }
    fragment Names on User { name email mail: email }`);
  t.type(d.me.id, 'string');
  t.equal(d.me.mail, d.me.email, 'an alias is the same field');
  t.ok(d.me.role && d.me.name);
  t.ok(d.me.friends.every((f) => f.id && f.name && f.role));
  t.ok(d.other.__typename === 'User' ? d.other.name : d.other.title);
});

t.test('variables with defaults; @skip and @include', async (t) => {
  const query = 'query ($n: Int = 1, $full: Boolean!, $role: Role) { users(first: $n, role: $role) { id name @include(if: $full) email @skip(if: $full) } }';
  const short = await data(t, engine, query, { full: false });
  t.equal(short.users.length, 1, 'the variable default');
  t.ok(short.users[0].email && !('name' in short.users[0]));
  const full = await data(t, engine, query, { full: true, n: 2, role: 'ADMIN' });
  t.equal(full.users.length, 2);
  t.ok(full.users[0].name && !('email' in full.users[0]));
  t.same((await data(t, engine, '{ users { id } }')).users.length, 2, 'an argument default');
});

t.test('several operations: operationName picks one; without it, a refusal', async (t) => {
  const doc = 'query A { me { id } } query B { me { name } } mutation C { rename(id: "1", name: "x") { name } }';
  t.same(Object.keys((await data(t, engine, doc, undefined, 'A')).me), ['id']);
  t.same(Object.keys((await data(t, engine, doc, undefined, 'B')).me), ['name']);
  const c = engine.prepare(doc, 'C');
  t.equal(c.operationType, 'mutation');
  t.equal(c.operationName, 'C');
  t.equal((await c.execute({})).data.rename.name, 'x');
  const none = engine.prepare(doc);
  t.match(none, { ok: false, stage: 'operation', errors: [{ message: /defines 3 operations \(A, B, C\): send operationName/, extensions: { code: GRAPHQL_CODES.OPERATION_RESOLUTION_FAILURE } }] });
  t.match(engine.prepare(doc, 'Z'), { ok: false, stage: 'operation', errors: [{ message: 'Unknown operation named "Z" (the document defines A, B, C)' }] });
  const anonymous = engine.prepare('{ me { id } }');
  t.equal(anonymous.operationName, null);
  t.equal(anonymous.operationType, 'query');
});

t.test('refusals: parse and validation errors with locations and codes', async (t) => {
  const parse = engine.prepare('{ me { id ');
  t.match(parse, { ok: false, stage: 'parse', errors: [{ message: /Syntax Error/, locations: [{ line: 1, column: 11 }], extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
  const invalid = engine.prepare('{\n  me { nope }\n  user { id }\n}');
  t.equal(invalid.stage, 'validation');
  t.match(invalid.errors, [
    { message: /Cannot query field "nope" on type "User"/, locations: [{ line: 2, column: 8 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
    { message: /argument "id" of type "ID!" is required/, locations: [{ line: 3, column: 3 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
  ]);
  t.match(JSON.parse(JSON.stringify(invalid.errors[0])), { message: /nope/, locations: [{ line: 2, column: 8 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, 'as JSON too');
});

t.test('variables that do not coerce: variablesRejected, BAD_USER_INPUT', async (t) => {
  const prepared = engine.prepare('query ($id: ID!, $n: Int) { user(id: $id) { id } users(first: $n) { id } }');
  for (const variables of [{}, { id: '1', n: 'many' }, undefined]) {
    const result = await prepared.execute(variables);
    t.equal(result.variablesRejected, true, JSON.stringify(variables));
    t.notOk('data' in result);
    t.match(result.errors, [{ extensions: { code: 'BAD_USER_INPUT' } }]);
  }
  t.notOk((await prepared.execute({ id: '1', n: 2 })).variablesRejected);
});

t.test('depth: fragments expanded, refused with the setting named; an IDE introspection query passes', async (t) => {
  const limited = mockEngine(SDL, { maxDepth: 3 });
  t.notOk((await run(limited, '{ me { friends { id } } }')).refused, 'depth 3 passes');
  const deep = limited.prepare('query Deep { me { ...F } }\nfragment F on User { friends { friends { id } } }');
  t.match(deep, {
    ok: false,
    stage: 'validation',
    errors: [{ message: 'query depth 4 exceeds graphql.max_depth 3 (fragments expanded; raise graphql.max_depth in mock.yaml)', locations: [{ line: 1, column: 1 }], extensions: { code: 'MOCK_ERR_GRAPHQL_DEPTH' } }],
  });
  const defaults = mockEngine(SDL);
  t.match(defaults.prepare(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true })), { ok: true }, 'introspection within max_depth 15 and max_complexity 1000');
  const eighteen = `{ me ${'{ friends '.repeat(16)}{ id }${' }'.repeat(16)} }`;
  t.match(defaults.prepare(eighteen), { ok: false, errors: [{ message: /^query depth 18 exceeds graphql.max_depth 15/ }] });
});

t.test('complexity: each field 1, fragments counted where spread, __typename and introspection too', async (t) => {
  const limited = mockEngine(SDL, { maxComplexity: 6 });
  t.match(limited.prepare('{ me { id name email } users { id } }'), { ok: true }, '6 fields pass max 6');
  t.match(limited.prepare('{ me { id name email } users { id __typename } }'), {
    ok: false,
    stage: 'validation',
    errors: [{ message: 'query complexity 7 exceeds graphql.max_complexity 6 (each field selected counts 1, fragments expanded; raise graphql.max_complexity in mock.yaml)', extensions: { code: 'MOCK_ERR_GRAPHQL_COMPLEXITY' } }],
  });
  t.match(limited.prepare('{ me { ...F friends { ...F } } } fragment F on User { id name email __typename }'), { ok: false, errors: [{ message: /^query complexity 10 exceeds/ }] });
  t.match(limited.prepare('{ __schema { types { name fields { name } } } }'), { ok: true }, 'introspection: 5 fields');
  t.match(limited.prepare('{ a: __schema { types { name } } b: __schema { types { name } } c: __schema { types { name } } }'), { ok: false, errors: [{ message: /^query complexity 9 exceeds/ }] }, 'every field under __schema counts');
  const ide = mockEngine(SDL).prepare(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }));
  t.match(ide, { ok: true }, "graphql-js's introspection query, every option on, passes the defaults");
  // fragments spread twice at every level: 2^20 expansions, measured in linear time
  const levels = Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { friends { ...F${i + 1} ...F${i + 1} } }`).join('\n');
  const start = performance.now();
  const bomb = mockEngine(SDL, { maxDepth: 100 }).prepare(`{ me { ...F0 } }\n${levels}\nfragment F20 on User { id }`);
  t.match(bomb, { ok: false, errors: [{ extensions: { code: 'MOCK_ERR_GRAPHQL_COMPLEXITY' } }] });
  t.ok(performance.now() - start < 2000, 'measured quickly');
});

t.test('introspection off: refused with its own code; __typename still answers', async (t) => {
  const closed = mockEngine(SDL, { introspection: false });
  t.match(closed.prepare('{ __schema { types { name } } }'), { ok: false, stage: 'validation', errors: [{ message: /introspection .*graphql\.introspection is off/, extensions: { code: 'INTROSPECTION_DISABLED' } }] });
  t.match(closed.prepare('{ __type(name: "User") { name } }'), { ok: false });
  t.same(await data(t, closed, '{ me { __typename } }'), { me: { __typename: 'User' } });
});

t.test('prepared documents are cached by text and operation name, refusals too', async (t) => {
  const e = mockEngine(SDL);
  const q = '{ me { id } }';
  t.equal(e.prepare(q), e.prepare(q), 'same object');
  t.not(e.prepare(q, 'X'), e.prepare(q), 'another operation name, another entry');
  t.equal(e.prepare('{ nope }'), e.prepare('{ nope }'));
  const long = `{ me { ${'id '.repeat(600)}} }`;
  t.equal(e.prepare(long), e.prepare(long), 'long documents are keyed by their hash');
  t.equal(e.stats.documents, 4);
  t.ok(e.stats.documentBytes > 4 * 16 * 1024, 'their estimated size is counted');
  const named = '{ me { id } }';
  t.not(e.prepare(`${named}\u0000X`), e.prepare(named, 'X'), 'a text cannot pose as a name');
  t.equal(e.prepare(`${named}\u0000X`).ok, false);
});

t.test('aliases: counted with fragments expanded, refused past max_aliases with the setting named', async (t) => {
  const limited = mockEngine(SDL, { maxAliases: 3 });
  t.match(limited.prepare('{ a: me { b: id c: name } }'), { ok: true }, '3 aliases pass max 3');
  t.match(limited.prepare('{ a: me { ...F } b: me { ...F } } fragment F on User { x: id }'), {
    ok: false,
    stage: 'validation',
    errors: [{ message: 'query uses 4 aliases, more than graphql.max_aliases 3 (fragments expanded; raise graphql.max_aliases in mock.yaml)', extensions: { code: 'MOCK_ERR_GRAPHQL_ALIASES' } }],
  });
  t.match(limited.prepare('{ me { a: __typename b: __typename c: __typename d: __typename } }'), { ok: false, errors: [{ extensions: { code: 'MOCK_ERR_GRAPHQL_ALIASES' } }] }, '__typename aliases count');
});

t.test('tokens: parsing stops past max_tokens, refused with the setting named; cached like other refusals', async (t) => {
  const limited = mockEngine(SDL, { maxTokens: 20 });
  t.match(limited.prepare('{ me { id name email } }'), { ok: true }, '8 tokens');
  const many = `{ me { ${'__typename '.repeat(50)}} }`;
  const refused = limited.prepare(many);
  t.match(refused, { ok: false, stage: 'parse', errors: [{ message: /more than graphql\.max_tokens 20 tokens.*raise graphql\.max_tokens/, extensions: { code: 'MOCK_ERR_GRAPHQL_TOKENS' } }] });
  t.equal(limited.prepare(many), refused, 'the refusal is cached');
});

t.test('the document cache is bounded in bytes by an estimate of each document, least recently used out first', async (t) => {
  const e = mockEngine(SDL, { maxCacheBytes: 1024 * 1024 });
  const sizes = [];
  for (let i = 0; i < 40; i++) {
    e.prepare(`query Q${i} { me { ${Array.from({ length: 40 }, (_, k) => `a${k}: name`).join(' ')} } }`);
    sizes.push(e.stats.documentBytes);
  }
  t.ok(e.stats.documents < 40, `${e.stats.documents} of 40 documents kept`);
  t.ok(Math.max(...sizes) <= 1024 * 1024, 'never more than max_cache_bytes');
  const recent = e.prepare('query Q39 { me { id } }');
  t.ok(recent.ok);
  const huge = mockEngine(SDL, { maxCacheBytes: 64 * 1024 }).prepare(`{ me { ${'id '.repeat(500)}} }`);
  t.ok(huge.ok, 'a document larger than the whole cache is still answered (and not kept)');
});

t.test('variables named like Object.prototype properties: only what the client sent counts', async (t) => {
  const e = mockEngine(SDL);
  for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
    t.same(await data(t, e, `query ($${name}: ID = "given") { user(id: $${name}) { id } }`), { user: { id: 'given' } }, `$${name} absent: its default`);
    t.same(await data(t, e, `query ($${name}: ID = "given") { user(id: $${name}) { id } }`, { [name]: 'sent' }), { user: { id: 'sent' } }, `$${name} sent`);
  }
  const noDefault = await run(e, 'query ($constructor: ID) { user(id: "u") { id } other: user(id: $constructor) { id } }');
  t.notOk(noDefault.variablesRejected, 'an absent nullable variable is null, not the Object function');
  const polluted = JSON.parse('{"__proto__": {"id": "inherited"}, "constructor": {"prototype": {"polluted": 1}}}');
  const result = await run(e, 'query ($id: ID!) { user(id: $id) { id } }', polluted);
  t.match(result, { variablesRejected: true, errors: [{ message: /"\$id" of required type "ID!" was not provided/ }] }, 'nothing is inherited from a __proto__ key');
  t.equal({}.polluted, undefined);
  t.equal({}.id, undefined, 'no prototype changed');
});

t.test('a subscription is not executed as a query; a query has no subscribe', async (t) => {
  const sub = engine.prepare('subscription { ticks }');
  t.equal(sub.operationType, 'subscription');
  t.match(await sub.execute({}), { errors: [{ message: /WebSocket/ }] });
  t.match(await engine.prepare('{ me { id } }').subscribe({}), { errors: [{ message: /not a subscription/ }] });
});

t.test('an answer whose nested lists explode is refused, not computed', async (t) => {
  const wide = mockEngine(SDL, { listLength: { min: 10, max: 10 } });
  const start = performance.now();
  const result = await run(wide, `{ me ${'{ friends '.repeat(6)}{ id }${' }'.repeat(6)} }`);
  t.equal(result.data, null);
  t.match(result.errors, [{ message: /more than 50000 list items.*graphql\.list_length \(max 10\)/, extensions: { code: 'MOCK_ERR_GRAPHQL_TOO_LARGE' } }]);
  t.ok(performance.now() - start < 3000, 'quickly');
  t.same(Object.keys((await run(wide, `{ me ${'{ friends '.repeat(3)}{ id }${' }'.repeat(3)} }`)).data), ['me'], 'the next answer has its own budget');
});

t.test('rootValue: graphql-js executes the mocked schema as the engine does; the list budget renews per answer', async (t) => {
  const { execute, parse } = await import('graphql');
  const e = mockEngine(SDL, { listLength: { min: 10, max: 10 } });
  const query = '{ me { id name friends { id friends { id email } } } users(first: 3) { id } }';
  const viaEngine = await data(t, e, query);
  const document = parse(query);
  t.same(JSON.parse(JSON.stringify(await execute({ schema: e.schema, document, rootValue: e.rootValue() }))), { data: viaEngine });
  t.same(JSON.parse(JSON.stringify(await execute({ schema: e.schema, document }))), { data: viaEngine }, 'without a root value too');
  const { subscribe } = await import('graphql');
  const events = await subscribe({ schema: e.schema, document: parse('subscription { ticks }') });
  t.type((await events.next()).value.data.ticks, 'number', 'subscriptions too');
  await events.return();
  // 110 list items per answer: 1,000 answers are 110,000 items, more than one answer's budget,
  // which renews after each synchronous run even when the caller keeps one root value
  const root = e.rootValue();
  for (let i = 0; i < 1000; i++) {
    const result = await execute({ schema: e.schema, document, rootValue: root });
    if (result.errors) {
      t.fail(`answer ${i}: ${result.errors[0].message}`);
      break;
    }
  }
  t.pass('a thousand answers');
});

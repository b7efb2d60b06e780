// common/graphql: the SDL a user writes assembled into the schema the GraphQL mock serves.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { buildClientSchema, buildSchema, getIntrospectionQuery, graphqlSync, printSchema } from 'graphql';
import {
  assembleSchema,
  checkOverrides,
  FAKE_TYPES,
  GraphqlSchemaError,
  introspectionToSdl,
  MOCK_DIRECTIVES_SDL,
} from '../../../dist/common/graphql/index.js';

const CORPUS = new URL('../../../../shared/corpus/graphql/', import.meta.url);
const corpus = ['artsy-metaphysics', 'linear', 'swapi'].map((name) => ({ name, sdl: readFileSync(new URL(`${name}.graphql`, CORPUS), 'utf8') }));

const introspected = (schema) => printSchema(buildClientSchema(graphqlSync({ schema, source: getIntrospectionQuery() }).data));

t.test('every corpus SDL assembles, unchanged (none uses a mock or federation directive), in bounded time', async (t) => {
  for (const { name, sdl } of corpus) {
    const start = performance.now();
    const assembled = assembleSchema(sdl);
    const ms = performance.now() - start;
    t.comment(`${name}: ${sdl.length} bytes assembled in ${ms.toFixed(0)} ms`);
    t.ok(ms < 8000, `${name} assembles in ${ms.toFixed(0)} ms`);
    t.equal(assembled.federated, false, `${name} is not a subgraph`);
    t.same(assembled.notes, [], `${name}: nothing added`);
    t.equal(assembled.served, printSchema(buildSchema(sdl)), `${name}: served as buildSchema builds it`);
  }
});

t.test("a plain SDL's introspection prints as the SDL itself", async (t) => {
  const sdl = corpus.find((c) => c.name === 'swapi').sdl;
  t.equal(introspected(assembleSchema(sdl).schema), printSchema(buildSchema(sdl)));
  const small = 'type Query {\n  me: User\n}\n\n"""A person"""\ntype User {\n  id: ID!\n  name(short: Boolean = false): String @deprecated(reason: "use fullName")\n}';
  t.equal(introspected(assembleSchema(small).schema), small);
});

t.test('extend type works, also for a type only ever extended', async (t) => {
  const merged = assembleSchema('type Query { a: Int }\nextend type Query { b: String }\nextend type User { id: ID! }\ntype Mutation { x: User }');
  t.same(Object.keys(merged.schema.getQueryType().getFields()), ['a', 'b']);
  t.ok(merged.schema.getType('User'), 'User exists though only extended');
  t.match(merged.notes, [/type User is only extended/]);
});

t.test('mock directives are declared only when used and undeclared; GraphQL Faker SDLs build as written', async (t) => {
  const sdl = `type Query { people: [Person] @listLength(min: 1, max: 3) }
type Person {
  name: String @fake(type: firstName)
  email: String @fake(type: "email", locale: de)
  price: Float @fake(type: money, options: { minMoney: 5, maxMoney: 6 })
  gender: String @examples(values: ["female", "male"])
}
scalar Phone @fake(type: phoneNumber)`;
  const { schema, notes } = assembleSchema(sdl);
  for (const name of ['fake', 'examples', 'listLength']) t.ok(schema.getDirective(name), `@${name} declared`);
  t.ok(schema.getType('fake__Types') && schema.getType('fake__options') && schema.getType('fake__Locale') && schema.getType('examples__JSON'));
  t.same(notes, []);
  t.ok(FAKE_TYPES.includes('firstName') && FAKE_TYPES.includes('money') && FAKE_TYPES.includes('price'), 'both GraphQL Faker generations of names');

  const onlyExamples = assembleSchema('type Query { a: String @examples(values: ["x"]) }').schema;
  t.notOk(onlyExamples.getDirective('fake'), 'an unused directive is not added');
  t.ok(onlyExamples.getDirective('examples'));

  // a user who pasted GraphQL Faker's own definitions keeps them (no duplicate declarations)
  const declared = assembleSchema(`${MOCK_DIRECTIVES_SDL}\ntype Query { a: String @fake(type: word) }`);
  t.ok(declared.schema.getDirective('fake'));
});

t.test('an unknown directive is declared as a no-op with a note; AppSync scalars are declared', async (t) => {
  const { schema, notes } = assembleSchema('type Query { a: AWSDateTime @auth(requires: ADMIN) @cacheControl(maxAge: 30) b: AWSJSON @auth }');
  t.ok(schema.getDirective('auth'));
  t.same(schema.getDirective('cacheControl').args.map((a) => a.name), ['maxAge']);
  t.ok(schema.getType('AWSDateTime') && schema.getType('AWSJSON'));
  t.match(notes, [/@auth is used but not declared/, /@cacheControl is used but not declared/]);
});

t.test('a federation v1 subgraph: extend type Query, @key, @external; _service and _entities added', async (t) => {
  const sdl = `extend type Query { topProducts(first: Int = 5): [Product] }
type Product @key(fields: "upc") { upc: String! name: String price: Int }
extend type User @key(fields: "id") { id: ID! @external reviews: [Review] @requires(fields: "id") }
type Review @key(fields: "id") { id: ID! body: String author: User @provides(fields: "username") }`;
  const assembled = assembleSchema(sdl);
  t.equal(assembled.federated, true);
  t.same([...assembled.entities].sort(), ['Product', 'Review', 'User']);
  const query = assembled.schema.getQueryType().getFields();
  t.equal(String(query._service.type), '_Service!');
  t.equal(String(query._entities.type), '[_Entity]!');
  t.equal(String(query._entities.args[0].type), '[_Any!]!');
  t.same(assembled.schema.getType('_Entity').getTypes().map((t) => t.name).sort(), ['Product', 'Review', 'User']);
  t.ok(assembled.schema.getType('_FieldSet'), 'v1 names its field set _FieldSet');
  t.match(assembled.served, /_service: _Service!/);
});

t.test('a federation v2 subgraph with @link, @shareable and friends, and a subgraph without Query', async (t) => {
  const sdl = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@tag", "@inaccessible", "@override"])
type Product @key(fields: "id") @key(fields: "sku", resolvable: false) { id: ID! sku: String @shareable name: String @tag(name: "public") internal: String @inaccessible price: Int @override(from: "legacy") }`;
  const assembled = assembleSchema(sdl);
  t.equal(assembled.federated, true);
  t.ok(assembled.schema.getType('FieldSet'), 'v2 names its field set FieldSet');
  t.ok(assembled.schema.getQueryType(), 'a Query type is created for _service and _entities');
  t.same(Object.keys(assembled.schema.getQueryType().getFields()), ['_service', '_entities']);
  t.match(assembled.notes, [/no Query type/]);
});

t.test('problems: every one, with line:column', async (t) => {
  const syntax = t.throws(() => assembleSchema('type Query {\n  a: Int\n  b:\n}'));
  t.type(syntax, GraphqlSchemaError);
  t.match(syntax.problems, [{ line: 4, column: 1, message: /Syntax Error/ }]);
  t.match(syntax.message, /^4:1: Syntax Error/);

  const invalid = t.throws(() => assembleSchema('type Query {\n  a: Nope\n  b: AlsoNope\n}\ntype Query { c: Int }'));
  t.type(invalid, GraphqlSchemaError);
  t.ok(invalid.problems.length >= 3, 'all problems at once');
  t.match(invalid.problems, [{ message: /Unknown type "Nope"/, line: 2, column: 6 }]);
  t.match(invalid.message, /2:6: Unknown type "Nope"/);

  const schemaLevel = t.throws(() => assembleSchema('type Query { a: I }\ninterface I { x: Int }\ntype T implements I { y: Int }'));
  t.match(schemaLevel.problems, [{ message: /Interface field I.x expected but T does not provide it/ }]);
});

t.test('introspectionToSdl: both shapes of an introspection answer; a clear error otherwise', async (t) => {
  const sdl = corpus.find((c) => c.name === 'swapi').sdl;
  const result = graphqlSync({ schema: buildSchema(sdl), source: getIntrospectionQuery() });
  t.equal(introspectionToSdl(result), printSchema(buildSchema(sdl)), '{data: {__schema}}');
  t.equal(introspectionToSdl(result.data), printSchema(buildSchema(sdl)), '{__schema}');
  t.throws(() => introspectionToSdl([]), /expected the answer to an introspection query.*got an array/);
  t.throws(() => introspectionToSdl({ data: { user: {} } }), /got an object with keys user/);
  t.throws(() => introspectionToSdl({ errors: [{ message: 'introspection disabled' }] }), /error answer \(introspection disabled\)/);
  t.throws(() => introspectionToSdl({ __schema: { types: 'nope' } }), /does not describe a schema/);
});

t.test('checkOverrides: one line per problem, naming the setting', async (t) => {
  const { schema } = assembleSchema(`type Query { user(id: ID!): User, status: Status }
type Mutation { createUser(input: UserInput!): User }
input UserInput { name: String! }
type User { id: ID! name: String age: Int friends: [User!]! }
enum Status { OK }
interface Node { id: ID! }`);
  t.same(checkOverrides(schema, undefined), []);
  t.same(
    checkOverrides(schema, {
      User: { name: 'Ann {{parent.age}}', age: 5, friends: [{ name: 'x' }] },
      Query: { user: { id: '{{args.id}}', name: 'Bob' } },
      Mutation: { createUser: { name: '{{args.input.name}}' } },
    }),
    [],
    'a valid set',
  );
  t.same(checkOverrides(schema, {
    Usr: { name: 'x' },
    Status: { OK: 1 },
    User: { nmae: 'x', age: 'old', name: '{{#if}}', friends: [{ nmae: 'x' }] },
    Query: { user: '{{args.idd}}' },
    Mutation: { createUser: { name: '{{args.input.nmae}}' } },
  }), [
    'graphql.overrides.Usr: no type Usr in the schema (did you mean User?)',
    'graphql.overrides.Status: Status is an enum; overrides set fields of object and interface types',
    'graphql.overrides.User.nmae: no field nmae on type User (did you mean name?)',
    'graphql.overrides.User.age: "old" is not a valid Int (Int cannot represent non-integer value: "old")',
    'graphql.overrides.User.name: {{#if}} without a condition at offset 0 in "{{#if}}"',
    'graphql.overrides.User.friends[0].nmae: no field nmae on type User (did you mean name?)',
    'graphql.overrides.Query.user: {{args.idd}} names none of the arguments of user (did you mean args.id?)',
    'graphql.overrides.Mutation.createUser.name: {{args.input.nmae}} names none of the arguments of createUser (did you mean args.input.name?)',
  ]);
  t.same(checkOverrides(schema, []), ['graphql.overrides: expected a map of type names to maps of field names to values']);
  t.same(checkOverrides(schema, { User: 'x' }), ['graphql.overrides.User: expected a map of field names to values']);
  t.same(checkOverrides(schema, { User: { name: '{{faker.nope.nothing}}' } }).length, 1, 'an unknown faker method is a template error');
});

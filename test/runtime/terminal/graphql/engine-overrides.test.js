// graphql.overrides: static values and templates over a field's arguments and its parent object,
// on any type (Query and Mutation too), coerced to the field's type; bad ones refused at start.
import t from 'tap';
import { GraphqlOverridesError } from '../../../../dist/runtime/terminal/graphql/index.js';
import { data, mockEngine, NOW } from './helpers.js';

const SDL = `
type Query { me: User! user(id: ID!): User greet(name: String!, times: Int = 1): String! count: Int! stats: Stats! search(filter: Filter): [User!]! node(id: ID!): Node }
type Mutation { login(email: String!): Session! }
input Filter { name: String, minAge: Int }
interface Node { id: ID! label: String! }
type User implements Node { id: ID! name: String! email: String! age: Int! tags: [String!]! friend: User motto: String! label: String! }
type Team implements Node { id: ID! label: String! }
type Session { token: String! user: User! expiresAt: String! }
type Stats { total: Int! ratio: Float! active: Boolean! }
`;

t.test('static values, of any shape, on any type', async (t) => {
  const engine = mockEngine(SDL, {
    overrides: {
      User: { name: 'Ann', tags: ['a', 'b'], friend: { name: 'Bob', age: 40 } },
      Query: { count: 7, stats: { total: 3 } },
    },
  });
  const { me, count, stats } = await data(t, engine, '{ me { name tags email friend { name age email } } count stats { total ratio active } }');
  t.equal(me.name, 'Ann');
  t.same(me.tags, ['a', 'b']);
  t.match(me.email, /@/, 'other fields are mocked');
  t.equal(me.friend.name, 'Bob');
  t.equal(me.friend.age, 40);
  t.match(me.friend.email, /@/, 'an object override mocks the fields it does not give');
  t.equal(count, 7, 'a Query field');
  t.equal(stats.total, 3);
  t.type(stats.ratio, 'number');
});

t.test('templates over arguments and the parent, coerced to the field type', async (t) => {
  const engine = mockEngine(SDL, {
    overrides: {
      Query: { greet: 'Hello {{args.name}} x{{args.times}}', user: { id: '{{args.id}}', name: 'User {{args.id}}' }, count: '{{randInt 3 3}}', search: [{ name: '{{args.filter.name}}' }] },
      User: { motto: '{{parent.name}} is {{parent.age}}', age: '{{randInt 20 29}}' },
      Mutation: { login: { token: 'tok-{{args.email}}', expiresAt: '{{now+1h}}' } },
    },
  });
  const result = await data(t, engine, '{ greet(name: "Ann") again: greet(name: "Bob", times: 3) user(id: "42") { id name motto age } count search(filter: {name: "Zoe"}) { name } }');
  t.equal(result.greet, 'Hello Ann x1', 'arguments, defaults included');
  t.equal(result.again, 'Hello Bob x3');
  t.same(result.user.id, '42');
  t.equal(result.user.name, 'User 42');
  t.equal(result.user.motto, `User 42 is ${result.user.age}`, 'parent fields, themselves overridden');
  t.ok(Number.isInteger(result.user.age) && result.user.age >= 20 && result.user.age <= 29, 'a template result coerced to Int');
  t.equal(result.count, 3);
  t.same(result.search, [{ name: 'Zoe' }], 'input object fields');
  const { login } = await data(t, engine, 'mutation { login(email: "a@example.com") { token expiresAt user { id } } }');
  t.equal(login.token, 'tok-a@example.com', 'a Mutation field');
  t.equal(login.expiresAt, new Date(NOW + 3_600_000).toISOString(), '{{now}} is the virtual clock');
  const twice = await data(t, engine, '{ user(id: "42") { age } }');
  t.equal(twice.user.age, result.user.age, 'random tokens are seeded per object: the same object answers the same');
});

t.test('an interface override applies to its implementations unless they have their own', async (t) => {
  const engine = mockEngine(SDL, { overrides: { Node: { label: 'node {{parent.id}}' }, Team: { label: 'a team' } } });
  const { node } = await data(t, engine, '{ node(id: "x") { __typename label } }');
  t.equal(node.label, node.__typename === 'Team' ? 'a team' : 'node x');
  const user = await data(t, engine, '{ me { id label } }');
  t.equal(user.me.label, `node ${user.me.id}`);
});

t.test('bad overrides stop the engine with every problem', async (t) => {
  const error = t.throws(() => mockEngine(SDL, { overrides: { User: { nmae: 'x', age: 'old' }, Sesion: {} } }));
  t.type(error, GraphqlOverridesError);
  t.same(error.problems, [
    'graphql.overrides.User.nmae: no field nmae on type User (did you mean name?)',
    'graphql.overrides.User.age: "old" is not a valid Int (Int cannot represent non-integer value: "old")',
    'graphql.overrides.Sesion: no type Sesion in the schema (did you mean Session?)',
  ]);
});

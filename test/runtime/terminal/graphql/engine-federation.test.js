// Apollo Federation subgraphs: _service { sdl } and _entities, in order and count, from the same
// objects queries answer.
import t from 'tap';
import { data, mockEngine, run } from './helpers.js';

const SDL = `extend type Query { me: User topProducts(first: Int = 3): [Product!]! }
type User @key(fields: "id") { id: ID! name: String! reviews: [Review!]! }
type Product @key(fields: "upc") { upc: String! name: String! price: Int! }
type Review @key(fields: "id") { id: ID! body: String! product: Product! }
type NotAnEntity { x: Int }`;

t.test('_service answers the SDL as given', async (t) => {
  const engine = mockEngine(SDL);
  t.same(await data(t, engine, '{ _service { sdl } }'), { _service: { sdl: SDL } });
});

t.test('_entities: one object per representation, in order, with the key fields given and the rest from the same store', async (t) => {
  const engine = mockEngine(SDL);
  const { me, topProducts } = await data(t, engine, '{ me { id name } topProducts { upc name price } }');
  const representations = [
    { __typename: 'Product', upc: topProducts[1].upc },
    { __typename: 'User', id: me.id },
    { __typename: 'Product', upc: 'custom-upc' },
    { __typename: 'Review', id: 'r1' },
    { __typename: 'Product', upc: topProducts[0].upc },
  ];
  const query = 'query ($r: [_Any!]!) { _entities(representations: $r) { __typename ... on User { id name } ... on Product { upc name price } ... on Review { id body product { upc } } } }';
  const { _entities } = await data(t, engine, query, { r: representations });
  t.equal(_entities.length, representations.length, 'as many as asked');
  t.same(_entities.map((e) => e.__typename), representations.map((r) => r.__typename), 'in order');
  const without = ({ __typename, ...rest }) => rest;
  t.same(without(_entities[0]), topProducts[1], 'an entity is the object queries answer for that key');
  t.same(without(_entities[1]), me);
  t.equal(_entities[2].upc, 'custom-upc', 'key fields from the representation');
  t.type(_entities[2].name, 'string', 'the rest mocked');
  t.equal(_entities[3].id, 'r1');
  t.same(without(_entities[4]), topProducts[0]);
  t.same((await data(t, engine, query, { r: representations }))._entities, _entities, 'and again the same');
});

t.test('mutated entities answer as stored; a representation that is not an entity is an error for its item', async (t) => {
  const engine = mockEngine(`${SDL}\ntype Mutation { updateUser(id: ID!, name: String!): User }`);
  await data(t, engine, 'mutation { updateUser(id: "u7", name: "Stored") { id } }');
  const { _entities } = await data(t, engine, '{ _entities(representations: [{__typename: "User", id: "u7"}]) { ... on User { name } } }');
  t.same(_entities, [{ name: 'Stored' }]);
  const bad = await run(engine, '{ _entities(representations: [{__typename: "NotAnEntity"}, {__typename: "User", id: "1"}, {nope: 1}]) { __typename } }');
  t.equal(bad.data._entities.length, 3);
  t.equal(bad.data._entities[0], null);
  t.same(bad.data._entities[1], { __typename: 'User' });
  t.match(bad.errors, [
    { message: /representation 0: NotAnEntity is not an entity of this subgraph/, path: ['_entities', 0] },
    { message: /representation 2 has no __typename/, path: ['_entities', 2] },
  ]);
});

t.test('a subgraph SDL printed from its schema (no @key usages left, _Entity kept) still answers _entities', async (t) => {
  const { assembleSchema } = await import('../../../../dist/common/graphql/index.js');
  const printed = assembleSchema(SDL).served;
  t.notMatch(printed, /@key\(fields: "upc"\)/, 'the usages are gone');
  const engine = mockEngine(printed);
  const { _entities } = await data(t, engine, '{ _entities(representations: [{__typename: "Product", upc: "u1"}]) { ... on Product { upc } } }');
  t.same(_entities, [{ upc: 'u1' }]);
});

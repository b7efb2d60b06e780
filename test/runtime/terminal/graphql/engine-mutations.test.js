// Mutations the next query sees: create, update, delete by the mutation's name; payload types;
// root lists and connections listing what was created; reset.
import t from 'tap';
import { data, mockEngine, run } from './helpers.js';

const SDL = `
type Query {
  user(id: ID!): User
  requiredUser(id: ID!): User!
  users: [User!]!
  usersConnection(first: Int): UserConnection!
  post(id: ID!): Post
}
type Mutation {
  createUser(input: CreateUserInput!): CreateUserPayload!
  addPost(title: String!, authorId: ID!): Post!
  updateUser(id: ID!, input: UpdateUserInput!): User
  editPost(input: EditPostInput!): EditPostPayload
  deleteUser(id: ID!): Boolean!
  removePost(id: ID!): DeletePostPayload!
  insert_users(objects: [UserInsert!]!): users_mutation_response
  publish: Boolean
  upsertUser(id: ID, name: String!): User!
  delete_users(where: UserWhere!): users_mutation_response
}
input UserWhere { id: IdComparison }
input IdComparison { _eq: ID }
input CreateUserInput { name: String!, email: String, role: Role, address: AddressInput, clientMutationId: String }
input UpdateUserInput { name: String, age: Int }
input EditPostInput { id: ID!, title: String }
input AddressInput { city: String! }
input UserInsert { name: String! }
type CreateUserPayload { user: User, userErrors: [UserError!]!, clientMutationId: String }
type EditPostPayload { post: Post!, success: Boolean! }
type DeletePostPayload { deletedPostId: ID, success: Boolean! }
type users_mutation_response { affected_rows: Int!, returning: [User!]! }
type UserError { field: String, message: String! }
enum Role { ADMIN MEMBER }
type User { id: ID! name: String! email: String! age: Int role: Role! address: Address posts: [Post!]! }
type Address { city: String! street: String! }
type Post { id: ID! title: String! author: User! }
type UserConnection { edges: [UserEdge!]! nodes: [User!]! }
type UserEdge { node: User! cursor: String! }
`;

t.test('create: a new object with a new id and the given fields, visible to lookups and root lists', async (t) => {
  const engine = mockEngine(SDL);
  const { createUser } = await data(t, engine, 'mutation ($input: CreateUserInput!) { createUser(input: $input) { user { id name email role age address { city street } } userErrors { message } clientMutationId } }', {
    input: { name: 'Ann', email: 'ann@example.com', role: 'ADMIN', address: { city: 'Lyon' }, clientMutationId: 'm1' },
  });
  const ann = createUser.user;
  t.match(ann, { name: 'Ann', email: 'ann@example.com', role: 'ADMIN', address: { city: 'Lyon' } });
  t.type(ann.age, 'number', 'fields not given are mocked');
  t.type(ann.address.street, 'string', 'so are the unset fields of a stored nested object');
  t.same(createUser.userErrors, [], 'a payload reports no errors');
  t.equal(createUser.clientMutationId, 'm1', 'and echoes clientMutationId');

  t.same((await data(t, engine, `{ user(id: "${ann.id}") { id name email age } }`)).user, { id: ann.id, name: 'Ann', email: 'ann@example.com', age: ann.age });
  const { users, usersConnection } = await data(t, engine, '{ users { id name } usersConnection { edges { node { id } } nodes { id name } } }');
  t.same(users[0], { id: ann.id, name: 'Ann' }, 'root lists show created objects first');
  t.equal(usersConnection.nodes[0].id, ann.id, 'and connections');
  t.equal(usersConnection.edges[0].node.id, ann.id);
  const page = (await data(t, engine, '{ usersConnection(first: 1) { nodes { id } } }')).usersConnection;
  t.same(page.nodes, [{ id: ann.id }], 'a page of one holds it');

  const second = (await data(t, engine, 'mutation { createUser(input: {name: "Bob"}) { user { id } } }')).createUser.user;
  t.not(second.id, ann.id, 'each creation its own id');
  t.same((await data(t, engine, '{ users { name } }')).users.slice(0, 2), [{ name: 'Ann' }, { name: 'Bob' }], 'in creation order');
});

t.test('a created object links to related ones by their id; scalar-argument creates', async (t) => {
  const engine = mockEngine(SDL);
  const author = (await data(t, engine, '{ users { id name } }')).users[0];
  const { addPost } = await data(t, engine, `mutation { addPost(title: "Hello", authorId: "${author.id}") { id title author { id name } } }`);
  t.equal(addPost.title, 'Hello');
  t.same(addPost.author, author, 'authorId names the author, who is the listed user');
  t.same((await data(t, engine, `{ post(id: "${addPost.id}") { title author { id } } }`)).post, { title: 'Hello', author: { id: author.id } });
});

t.test('update merges into the object, also a generated one; the rest stays as it was', async (t) => {
  const engine = mockEngine(SDL);
  const before = (await data(t, engine, '{ users { id name email age } }')).users[1];
  const { updateUser } = await data(t, engine, `mutation { updateUser(id: "${before.id}", input: {age: 33}) { id name age } }`);
  t.same(updateUser, { id: before.id, name: before.name, age: 33 });
  const after = (await data(t, engine, '{ users { id name email age } }')).users[1];
  t.same(after, { ...before, age: 33 }, 'the list shows the update, other fields unchanged');
  t.equal((await data(t, engine, `mutation { updateUser(id: "${before.id}", input: {name: "Zed"}) { name age } }`)).updateUser.age, 33, 'updates accumulate');

  const post = (await data(t, engine, '{ post(id: "p1") { id title } }')).post;
  const { editPost } = await data(t, engine, 'mutation { editPost(input: {id: "p1", title: "New title"}) { success post { id title } } }');
  t.same(editPost, { success: true, post: { id: 'p1', title: 'New title' } }, 'an id inside the input; a payload with success');
  t.not(post.title, 'New title');
});

t.test('delete: lookups answer null (an error where non-null), lists leave it out', async (t) => {
  const engine = mockEngine(SDL, { listLength: { min: 3, max: 3 } });
  const users = (await data(t, engine, '{ users { id } }')).users;
  const doomed = users[1].id;
  t.same(await data(t, engine, `mutation { deleteUser(id: "${doomed}") }`), { deleteUser: true });
  t.same((await data(t, engine, `{ user(id: "${doomed}") { id } }`)).user, null);
  const required = await run(engine, `{ requiredUser(id: "${doomed}") { id } }`);
  t.equal(required.data, null);
  t.match(required.errors, [{ message: /was deleted/, extensions: { code: 'NOT_FOUND' }, path: ['requiredUser'] }]);
  t.same((await data(t, engine, '{ users { id } }')).users.map((u) => u.id), [users[0].id, users[2].id], 'the list leaves it out');

  const { removePost } = await data(t, engine, 'mutation { removePost(id: "p9") { deletedPostId success } }');
  t.same(removePost, { deletedPostId: 'p9', success: true });
  t.same((await data(t, engine, '{ post(id: "p9") { id } }')).post, null);

  const created = (await data(t, engine, 'mutation { createUser(input: {name: "Temp"}) { user { id } } }')).createUser.user.id;
  await data(t, engine, `mutation { deleteUser(id: "${created}") }`);
  t.notOk((await data(t, engine, '{ users { id } }')).users.some((u) => u.id === created), 'a created object deleted leaves root lists');
});

t.test('Hasura-style insert with a list and a returning payload; unknown verbs are mocked', async (t) => {
  const engine = mockEngine(SDL);
  const { insert_users } = await data(t, engine, 'mutation { insert_users(objects: [{name: "Hana"}]) { affected_rows returning { id name } } }');
  t.equal(insert_users.affected_rows, 1);
  t.equal(insert_users.returning[0].name, 'Hana');
  t.equal((await data(t, engine, '{ users { name } }')).users[0].name, 'Hana');
  t.type((await data(t, engine, 'mutation { publish }')).publish, 'boolean');
});

t.test('reset forgets the store', async (t) => {
  const engine = mockEngine(SDL);
  const before = await data(t, engine, '{ users { id name } }');
  await data(t, engine, 'mutation { createUser(input: {name: "Ann"}) { user { id } } }');
  t.equal(engine.stats.store.created, 1);
  engine.reset();
  t.match(engine.stats.store, { objects: 0, created: 0, deleted: 0, bytes: 0 });
  t.same(await data(t, engine, '{ users { id name } }'), before);
});

t.test('the store is bounded in bytes: least recently used objects forgotten with a warning; one object larger than the whole store refused', async (t) => {
  const warnings = [];
  const engine = mockEngine(SDL, { maxStoreBytes: 64 * 1024, warn: (message) => warnings.push(message) });
  const name = 'n'.repeat(2000);
  const ids = [];
  for (let i = 0; i < 60; i++) ids.push((await data(t, engine, 'mutation ($n: String!) { createUser(input: {name: $n}) { user { id } } }', { n: `${i}${name}` })).createUser.user.id);
  const { store } = engine.stats;
  t.ok(store.bytes <= 64 * 1024 && store.bytes > 32 * 1024, `${store.bytes} bytes kept, within max_store_bytes`);
  t.ok(store.objects < 60 && store.objects > 10, `${store.objects} of 60 objects kept`);
  t.ok(warnings.length > 0 && warnings.every((w) => /graphql\.max_store_mb/.test(w)), 'each eviction is reported (the server keeps it to one line a minute)');
  const newest = await data(t, engine, 'query ($id: ID!) { user(id: $id) { name } }', { id: ids[59] });
  t.equal(newest.user.name, `59${name}`, 'the newest object kept');
  const oldest = await data(t, engine, 'query ($id: ID!) { user(id: $id) { name } }', { id: ids[0] });
  t.not(oldest.user.name, `0${name}`, 'the oldest forgotten: mocked again');
  const listed = (await data(t, engine, '{ users { name } }')).users;
  t.notOk(listed.some((u) => u.name === `0${name}`), 'nor listed');
  const before = engine.stats.store;
  const huge = await run(engine, 'mutation ($id: ID!, $n: String!) { updateUser(id: $id, input: {name: $n}) { name } }', { id: ids[59], n: 'x'.repeat(40 * 1024) });
  t.match(huge.errors, [{ message: /graphql\.max_store_mb/, extensions: { code: 'MOCK_ERR_GRAPHQL_STORE_OBJECT_TOO_LARGE' }, path: ['updateUser'] }], 'larger than the whole store: refused');
  t.same(engine.stats.store, before, 'nothing changed');
  t.equal((await data(t, engine, 'query ($id: ID!) { user(id: $id) { name } }', { id: ids[59] })).user.name, `59${name}`);
});

t.test('ids and input keys named __proto__ or constructor stay data', async (t) => {
  const engine = mockEngine(SDL);
  for (const id of ['__proto__', 'constructor', 'prototype']) {
    t.same(await data(t, engine, 'mutation ($id: ID!) { updateUser(id: $id, input: {name: "Kept"}) { id name } }', { id }), { updateUser: { id, name: 'Kept' } });
    t.same(await data(t, engine, 'query ($id: ID!) { user(id: $id) { id name } }', { id }), { user: { id, name: 'Kept' } }, `the object with id ${id}`);
  }
  const refused = await run(engine, 'mutation ($input: CreateUserInput!) { createUser(input: $input) { user { id } } }', JSON.parse('{"input": {"name": "A", "__proto__": {"polluted": 1}}}'));
  t.equal(refused.variablesRejected, true, 'an input field the type does not have is refused');
  t.equal({}.polluted, undefined);
  t.same((await data(t, engine, '{ user(id: "other") { id } }')).user, { id: 'other' }, 'later requests answer as ever');
});

t.test('mutations run in order within a document', async (t) => {
  const engine = mockEngine(SDL);
  const result = await data(t, engine, 'mutation { a: createUser(input: {name: "A"}) { user { id name } } b: updateUser(id: "u1", input: {name: "B"}) { name } c: createUser(input: {name: "C"}) { user { name } } }');
  t.equal(result.a.user.name, 'A');
  t.equal(result.b.name, 'B');
  t.equal(result.c.user.name, 'C');
  t.same((await data(t, engine, '{ users { name } }')).users.slice(0, 2).map((u) => u.name), ['A', 'C']);
});

t.test('upsert: without an id it creates, with one it updates; Hasura where: {id: {_eq}} deletes', async (t) => {
  const engine = mockEngine(SDL, { listLength: { min: 2, max: 2 } });
  const listed = (await data(t, engine, '{ users { id name } }')).users;
  const made = (await data(t, engine, 'mutation { upsertUser(name: "New") { id name } }')).upsertUser;
  const patched = (await data(t, engine, `mutation { upsertUser(id: "${listed[0].id}", name: "Renamed") { id name } }`)).upsertUser;
  t.same(patched, { id: listed[0].id, name: 'Renamed' });
  t.same((await data(t, engine, '{ users { id name } }')).users, [made, patched, listed[1]], 'one created, one updated in place (not listed twice)');
  await data(t, engine, `mutation { delete_users(where: {id: {_eq: "${listed[1].id}"}}) { affected_rows } }`);
  t.same((await data(t, engine, '{ users { id } }')).users.map((u) => u.id), [made.id, listed[0].id]);
});

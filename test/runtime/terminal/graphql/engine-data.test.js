// What the GraphQL mock answers: realistic values by field name and type, custom scalars, enums,
// abstract types, lists, identity, determinism, and the SDL's @fake, @examples and @listLength.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { data, mockEngine, NOW } from './helpers.js';

const SDL = `
type Query {
  me: User!
  user(id: ID!): User
  users(first: Int): [User!]!
  usersById(ids: [ID!]!): [User!]!
  node(id: ID!): Node
  search(text: String!): [SearchResult!]!
  feed: [Node!]!
  posts(first: Int): PostConnection!
  scalars: Scalars!
  tags: [String!]!
  roles: [Role!]!
  counter: Int!
  maybeUser: User
}
interface Node { id: ID! }
union SearchResult = User | Post | Comment
enum Role { ADMIN EDITOR VIEWER GUEST }
type User implements Node {
  id: ID!
  name: String!
  firstName: String!
  lastName: String
  email: String!
  username: String
  avatar: String
  website: String
  phone: String
  city: String
  country: String
  bio: String
  createdAt: String!
  updatedAt: String
  expiresAt: String
  birthday: String
  age: Int
  price: Float
  latitude: Float
  isActive: Boolean!
  role: Role!
  roles: [Role!]!
  posts: [Post!]!
  bestFriend: User
  greeting(polite: Boolean = false): String!
}
type Post implements Node {
  id: ID!
  title: String!
  body: String!
  authorId: ID!
  author: User!
  tags: [String!]!
}
type Comment implements Node { id: ID! text: String! }
type PostConnection { edges: [PostEdge!]! nodes: [Post!]! totalCount: Int! pageInfo: PageInfo! }
type PostEdge { node: Post! cursor: String! }
type PageInfo { hasNextPage: Boolean! endCursor: String }
scalar DateTime
scalar Date
scalar Time
scalar URL
scalar JSON
scalar JSONObject
scalar UUID
scalar EmailAddress
scalar BigInt
scalar Long
scalar Decimal
scalar Upload
scalar Duration
scalar HexColorCode
scalar Mystery
type Scalars {
  createdAt: DateTime!
  day: Date!
  time: Time!
  homepage: URL!
  meta: JSON!
  settings: JSONObject!
  uuid: UUID!
  email: EmailAddress!
  big: BigInt!
  long: Long!
  amount: Decimal!
  file: Upload
  duration: Duration!
  color: HexColorCode!
  mystery: Mystery!
  optional: DateTime
}
`;

const engine = mockEngine(SDL);

t.test('values follow field names and types', async (t) => {
  const { me } = await data(t, engine, `{ me { id name firstName lastName email username avatar website phone city country bio createdAt updatedAt expiresAt birthday age price latitude isActive role } }`);
  t.match(me.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'ids are UUIDs');
  t.match(me.name, /^\S+( \S+)+$/, 'a User name is a person’s full name');
  t.match(me.firstName, /^[A-Z][a-z'-]+/);
  t.match(me.email, /^[^@\s]+@(example\.(com|org|net))$/, 'e-mail on a reserved domain');
  t.match(me.avatar, /^https:\/\//);
  t.match(me.website, /^https?:\/\/[^\s]+$/);
  t.match(me.phone, /\d/);
  t.type(me.city, 'string');
  t.ok(me.bio.split(' ').length > 3, 'a bio is sentences');
  const created = Date.parse(me.createdAt);
  t.ok(created < NOW && created > NOW - 366 * 86_400_000, `createdAt in the past year (${me.createdAt})`);
  t.ok(Date.parse(me.expiresAt) > NOW, `expiresAt in the future (${me.expiresAt})`);
  t.ok(Date.parse(me.updatedAt) <= NOW && Date.parse(me.updatedAt) > NOW - 8 * 86_400_000, 'updatedAt recent');
  t.match(me.birthday, /^\d{4}-\d{2}-\d{2}$/);
  t.ok(new Date(NOW).getUTCFullYear() - Number(me.birthday.slice(0, 4)) >= 18, 'a birthday of an adult');
  t.ok(Number.isInteger(me.age) && me.age >= 18 && me.age <= 90);
  t.ok(me.price > 0 && Math.round(me.price * 100) === me.price * 100, 'a price has cents');
  t.ok(me.latitude >= -90 && me.latitude <= 90);
  t.type(me.isActive, 'boolean');
  t.ok(['ADMIN', 'EDITOR', 'VIEWER', 'GUEST'].includes(me.role));
  for (const [field, value] of Object.entries(me)) t.not(value, null, `${field} has a value though nullable`);
});

t.test('custom scalars get realistic values', async (t) => {
  const { scalars: s } = await data(t, engine, '{ scalars { createdAt day time homepage meta settings uuid email big long amount file duration color mystery optional } }');
  t.ok(!Number.isNaN(Date.parse(s.createdAt)) && s.createdAt.endsWith('Z'), `DateTime ${s.createdAt}`);
  t.match(s.day, /^\d{4}-\d{2}-\d{2}$/);
  t.match(s.time, /^\d{2}:\d{2}:\d{2}$/);
  t.match(s.homepage, /^https?:\/\//);
  t.type(s.meta, 'object');
  t.type(s.settings, 'object');
  t.match(s.uuid, /^[0-9a-f-]{36}$/);
  t.match(s.email, /@example\.(com|org|net)$/);
  t.ok(Number.isSafeInteger(s.big) && Number.isSafeInteger(s.long));
  t.match(s.amount, /^\d+\.\d{2}$/, 'Decimal as a string, as Shopify and Hasura write it');
  t.type(s.file, 'string');
  t.match(s.duration, /^PT\d+H\d+M$/);
  t.match(s.color, /^#[0-9a-f]{6}$/);
  t.type(s.mystery, 'string', 'an unknown scalar is a string');
  t.not(s.optional, null);
});

t.test('every enum value is reachable; enum lists take consecutive values', async (t) => {
  const wide = mockEngine(SDL, { listLength: { min: 30, max: 30 } });
  const { users } = await data(t, wide, '{ users { role } }');
  t.same([...new Set(users.map((u) => u.role))].sort(), ['ADMIN', 'EDITOR', 'GUEST', 'VIEWER'], 'over a list, every value');
  const { roles } = await data(t, mockEngine(SDL, { listLength: { min: 4, max: 4 } }), '{ roles }');
  t.same([...roles].sort(), ['ADMIN', 'EDITOR', 'GUEST', 'VIEWER'], 'an enum list as long as the enum holds each value once');
});

t.test('unions and interfaces resolve to concrete types, varying', async (t) => {
  const wide = mockEngine(SDL, { listLength: { min: 20, max: 20 } });
  const { search, feed } = await data(t, wide, '{ search(text: "a") { __typename ... on User { id name } ... on Post { id title } ... on Comment { id text } } feed { __typename id } }');
  t.same([...new Set(search.map((r) => r.__typename))].sort(), ['Comment', 'Post', 'User']);
  for (const r of search) t.ok(r.name ?? r.title ?? r.text, `${r.__typename} has its own fields`);
  t.same([...new Set(feed.map((r) => r.__typename))].sort(), ['Comment', 'Post', 'User']);
});

t.test('lists: settings.listLength, a first argument, connections whose edges and nodes agree', async (t) => {
  const { users, few, posts } = await data(t, engine, '{ users { id } few: users(first: 1) { id } posts(first: 2) { totalCount edges { cursor node { id } } nodes { id } } }');
  t.ok(users.length >= 2 && users.length <= 4, `listLength 2..4 (${users.length})`);
  t.equal(few.length, 1, 'first: 1');
  t.ok(posts.edges.length <= 2 && posts.edges.length >= 1);
  t.same(posts.nodes.map((n) => n.id), posts.edges.map((e) => e.node.id), 'nodes[i] is edges[i].node');
  t.ok(posts.totalCount >= posts.edges.length);
  const sized = mockEngine(`${SDL}\nextend type User { feed: PostConnection! @listLength(min: 5, max: 5) }`);
  const { me } = await data(t, sized, '{ me { feed { edges { node { id } } nodes { id } } } }');
  t.equal(me.feed.edges.length, 5, '@listLength on a field answering a connection sizes its edges');
  t.equal(me.feed.nodes.length, 5);
  const exact = mockEngine(SDL, { listLength: { min: 0, max: 0 } });
  t.same((await data(t, exact, '{ users { id } }')).users, [], 'max 0: empty lists');
});

t.test('identity: same type and id, same fields, in any query; lookups by id; related ids agree', async (t) => {
  const { users } = await data(t, engine, '{ users { id name email posts { id title authorId author { id } } } }');
  const [first] = users;
  const { user } = await data(t, engine, 'query ($id: ID!) { user(id: $id) { id name email } }', { id: first.id });
  t.same(user, { id: first.id, name: first.name, email: first.email }, 'user(id:) answers the listed user');
  const post = first.posts[0];
  const { node, userNode } = await data(t, engine, `{ node(id: "${post.id}") { __typename id ... on Post { title } } userNode: node(id: "${first.id}") { __typename ... on User { name } } }`);
  t.same(node, { __typename: 'Post', id: post.id, title: post.title }, 'node(id:) answers the object of the type that id was made for');
  t.same(userNode, { __typename: 'User', name: first.name });
  for (const post of first.posts) t.equal(post.authorId, post.author.id, 'authorId is author.id');
  const { usersById } = await data(t, engine, `{ usersById(ids: ["${first.id}", "7"]) { id name } }`);
  t.same(usersById.map((u) => u.id), [first.id, '7']);
  t.equal(usersById[0].name, first.name);
  const seven = (await data(t, engine, '{ user(id: "7") { name email } }')).user;
  t.same(seven, { name: usersById[1].name, email: (await data(t, engine, '{ user(id: "7") { email } }')).user.email }, 'any id is a stable object');
});

t.test('adding a field to a query changes no other field; arguments take part in values', async (t) => {
  const small = await data(t, engine, '{ me { name email } users { id } }');
  const large = await data(t, engine, '{ counter me { id name age email posts { title } } tags users { id name } }');
  t.equal(large.me.name, small.me.name);
  t.equal(large.me.email, small.me.email);
  t.same(large.users.map((u) => u.id), small.users.map((u) => u.id));
  const { a, b, c } = await data(t, engine, '{ me { a: greeting b: greeting(polite: true) c: greeting(polite: false) } }').then((d) => d.me);
  t.equal(a, c, 'a default argument is the same as none');
  t.not(a, b, 'another argument, another value');
});

t.test('determinism: the same seed answers byte-identical JSON, in another process too; another seed differs', async (t) => {
  const query = '{ me { id name email createdAt role roles posts { id title tags } } users { id name } search(text: "x") { __typename ... on Node { id } } scalars { createdAt meta big } }';
  const one = JSON.stringify(await data(t, mockEngine(SDL), query));
  const two = JSON.stringify(await data(t, mockEngine(SDL), query));
  t.equal(one, two, 'two engines, same seed');
  const script = `
    import { GraphqlEngine } from ${JSON.stringify(new URL('../../../../dist/runtime/terminal/graphql/index.js', import.meta.url).href)};
    const e = new GraphqlEngine(${JSON.stringify(SDL)}, { seed: 42, now: () => ${NOW}, overrides: {}, listLength: { min: 2, max: 4 }, maxDepth: 15, maxComplexity: 1000, maxAliases: 50, maxTokens: 10000, maxCacheBytes: 32 << 20, maxStoreBytes: 64 << 20, introspection: true, subscriptionIntervalMs: 20, subscriptionMaxEvents: 3 });
    process.stdout.write(JSON.stringify((await e.prepare(${JSON.stringify(query)}).execute({})).data));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  t.equal(child.stderr, '');
  t.equal(child.stdout, one, 'another process, same bytes');
  t.not(JSON.stringify(await data(t, mockEngine(SDL, { seed: 43 }), query)), one, 'another seed, other data');
  const unseeded = mockEngine(SDL, { seed: undefined });
  t.type(unseeded.seed, 'number', 'without a seed, one drawn per engine');
  t.equal(JSON.stringify(await data(t, unseeded, query)), JSON.stringify(await data(t, unseeded, query)), 'and kept while it runs');
});

t.test('@fake, @examples and @listLength', async (t) => {
  const sdl = `type Query { people: [Person!]! @listLength(min: 5, max: 5) one: Person! }
scalar Sku @examples(values: ["SKU-1", "SKU-2"])
scalar Phone @fake(type: phoneNumber)
type Person {
  first: String @fake(type: firstName)
  mail: String! @fake(type: "email")
  corporate: String @fake(type: email, options: { emailProvider: "corp.example" })
  price: Float @fake(type: money, options: { minMoney: 5, maxMoney: 6, decimalPlaces: 1 })
  cents: Int @fake(type: number, options: { minNumber: 10, maxNumber: 20 })
  text: String @fake(type: lorem, options: { loremSize: paragraph })
  pic: String @fake(type: imageUrl, options: { imageWidth: 100, imageHeight: 50 })
  past: String @fake(type: pastDate, options: { dateFormat: "YYYY/MM/DD" })
  future: String @fake(type: futureDate)
  name: String @fake(type: fullName, locale: de)
  gender: String @examples(values: ["female", "male", "other"])
  level: Int @examples(values: [1, 2])
  sku: Sku
  phone: Phone
  pets: [String!] @listLength(min: 1, max: 2) @examples(values: ["cat", "dog"])
}`;
  const e = mockEngine(sdl);
  const { people, one } = await data(t, e, '{ people { first mail corporate price cents text pic past future name gender level sku phone pets } one { first } }');
  t.equal(people.length, 5, '@listLength on the field beats listLength');
  for (const p of people) {
    t.match(p.first, /^[A-Z]/);
    t.match(p.mail, /^[^@]+@example\.(com|org|net)$/);
    t.match(p.corporate, /@corp\.example$/);
    t.ok(p.price >= 5 && p.price <= 6 && Math.round(p.price * 10) === p.price * 10, `money ${p.price}`);
    t.ok(Number.isInteger(p.cents) && p.cents >= 10 && p.cents <= 20);
    t.ok(p.text.length > 40);
    t.match(p.pic, /^https:\/\/picsum\.photos\/seed\/\w+\/100\/50$/);
    t.match(p.past, /^\d{4}\/\d{2}\/\d{2}$/);
    t.ok(Date.parse(p.past.replaceAll('/', '-')) < NOW);
    t.ok(Date.parse(p.future) > NOW);
    t.ok(['female', 'male', 'other'].includes(p.gender));
    t.ok([1, 2].includes(p.level));
    t.ok(['SKU-1', 'SKU-2'].includes(p.sku), '@examples on a scalar');
    t.match(p.phone, /\d/, '@fake on a scalar');
    t.ok(p.pets.length >= 1 && p.pets.length <= 2 && p.pets.every((x) => x === 'cat' || x === 'dog'));
  }
  t.ok(new Set(people.map((p) => p.gender)).size > 1, 'examples vary between objects');
  t.type(one.first, 'string');
});

t.test('nothing nullable is null; non-null everywhere', async (t) => {
  const { maybeUser } = await data(t, engine, '{ maybeUser { lastName bestFriend { bestFriend { name } } } }');
  t.ok(maybeUser?.lastName && maybeUser.bestFriend.bestFriend.name);
});

t.test('custom scalars as inputs: literals and variables accepted, stored and answered as given', async (t) => {
  const e = mockEngine(`type Query { event(id: ID!): Event }
type Mutation { createEvent(at: DateTime!, meta: JSON, big: BigInt, file: Upload): Event! }
scalar DateTime
scalar JSON
scalar BigInt
scalar Upload
type Event { id: ID! at: DateTime! meta: JSON big: BigInt file: String }`);
  const literal = await data(t, e, 'mutation { createEvent(at: "2030-01-02T03:04:05Z", meta: {a: [1, "x", {b: null}]}, big: 123456789012345678901, file: "a.png") { id at meta big file } }');
  t.match(literal.createEvent, { at: '2030-01-02T03:04:05Z', meta: { a: [1, 'x', { b: null }] }, big: '123456789012345678901', file: 'a.png' });
  const stored = await data(t, e, `{ event(id: "${literal.createEvent.id}") { at meta } }`);
  t.same(stored.event, { at: '2030-01-02T03:04:05Z', meta: { a: [1, 'x', { b: null }] } });
  const variables = await data(t, e, 'mutation ($at: DateTime!, $meta: JSON) { createEvent(at: $at, meta: $meta) { at meta big } }', { at: '2031-05-06', meta: { k: true } });
  t.match(variables.createEvent, { at: '2031-05-06', meta: { k: true } });
  t.ok(Number.isSafeInteger(variables.createEvent.big), 'a BigInt not given is mocked');
});

t.test('@examples on lists and objects: whole lists, example objects', async (t) => {
  const e = mockEngine(`type Query { one: Box! }
type Box {
  tags: [String!]! @examples(values: [["a", "b"], ["c"]])
  owner: Person! @examples(values: [{name: "Ann"}, {name: "Bob"}])
  crew: [Person!]! @examples(values: [{name: "Cy"}, {name: "Di"}]) @listLength(min: 2, max: 2)
}
type Person { name: String! email: String! }`);
  const { one } = await data(t, e, '{ one { tags owner { name email } crew { name } } }');
  t.ok(JSON.stringify(one.tags) === '["a","b"]' || JSON.stringify(one.tags) === '["c"]', `a whole example list (${JSON.stringify(one.tags)})`);
  t.ok(['Ann', 'Bob'].includes(one.owner.name));
  t.match(one.owner.email, /@/, 'the fields an example object leaves out are mocked');
  t.same(one.crew.map((p) => p.name).sort(), ['Cy', 'Di']);
});

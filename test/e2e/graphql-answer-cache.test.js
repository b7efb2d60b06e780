// The GraphQL answer cache (graphql.answer_cache_bytes, issue 38) through the real CLI and fetch:
// a repeated query is answered from the cache (GET /__mock/graphql's answer_cache counts the hits,
// X-Mock-Cache says hit) with the bytes it answered first, and every request still reaches the request log, the
// per-operation statistics and chaos; what a mutation wrote, POST /__mock/graphql/reset and time
// travel show in the next answer; mutations, errors and answers of override templates that read
// the time are never kept; answers larger than the budget are not kept; with the cache off (0)
// the server answers the same bytes and keeps nothing. The same seed on every server, so their
// answers compare byte for byte.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startCommand, tmpdir } from '../helpers/cli.js';

const shop = path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql');
const GQL = 'application/graphql-response+json';

async function serve(extra) {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    `seed: 7
server: { http_backend: uws, graphql_port: 0 }
graphql:
  schema: ${JSON.stringify(shop)}
  list_length: { min: 3, max: 3 }
${extra}`,
  );
  // every address is printed in one write: the GraphQL line comes with the admin's
  const server = await startCommand(['serve', '--host', '127.0.0.1', '--admin', '--admin-port', '0'], /GraphQL on (http:\/\/\S+)/, { cwd: dir });
  const adminUrl = /admin on (http:\/\/\S+)/.exec(server.stdout)[1];
  /** The answer's status, media type, X-Mock-Cache and text. */
  server.post = async (query, variables, accept = GQL) => {
    const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query, variables }) });
    return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('x-mock-cache'), text: await res.text() };
  };
  server.data = async (query, variables) => JSON.parse((await server.post(query, variables)).text).data;
  server.admin = async (p, body) => {
    const init = body === undefined ? undefined : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const res = await fetch(`${adminUrl}/__mock/${p}`, init);
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()).data;
  };
  server.cache = async () => (await server.admin('graphql')).answer_cache;
  return server;
}

const [cached, small, off] = await Promise.all([
  serve(`  overrides:
    Product: { title: 'made at {{now}}' }
`),
  serve('  answer_cache_bytes: 2048\n'),
  serve('  answer_cache_bytes: 0\n'),
]);
t.teardown(() => Promise.all([cached.stop(), small.stop(), off.stop()]));

const ME = 'query Me { me { id name email role createdAt friends { id name } } }';

t.test('a repeated query is answered from the cache, the same bytes, and every request is logged and counted', async (t) => {
  const first = await cached.post(ME);
  t.equal(first.status, 200);
  t.notOk(JSON.parse(first.text).errors);
  t.equal(first.cache, 'miss', 'X-Mock-Cache: miss on the answer that filled the entry');
  const before = await cached.cache();
  const again = await Promise.all([cached.post(ME), cached.post(ME), cached.post(ME)]);
  t.same(
    again.map((a) => [a.status, a.type, a.cache, a.text]),
    Array(3).fill([200, first.type, 'hit', first.text]),
    'the same status, media type and bytes, X-Mock-Cache: hit',
  );
  const after = await cached.cache();
  t.equal(after.hits - before.hits, 3, 'three answers from the cache');
  t.equal(after.misses, before.misses, 'nothing computed again');
  t.ok(after.answers >= 1 && after.bytes > first.text.length, `the answer is counted in bytes (${after.bytes})`);
  t.equal(after.max_bytes, 16 * 1024 * 1024, 'the default budget, 16 MiB');
  t.equal((await cached.admin('graphql')).settings.answer_cache_bytes, 16 * 1024 * 1024);

  const details = await cached.admin('graphql');
  t.equal(details.operations['query Me'].count, 4, 'the statistics count every request');
  const logged = (await cached.admin('logs?limit=100')).filter((e) => e.graphql?.operation_name === 'Me');
  t.equal(logged.length, 4, 'one request-log entry each');
  t.match(logged[0], { method: 'POST', path: '/graphql', status_code: 200, graphql: { operation_type: 'query' } });

  const uncached = await off.post(ME);
  t.equal(uncached.text, first.text, 'with the cache off, the same seed answers the same bytes');
  t.equal(uncached.cache, null, '… without X-Mock-Cache');
  const legacy = await cached.post(ME, undefined, 'application/json');
  t.match(legacy.type, /^application\/json/, 'another media type is another answer');
  t.equal(legacy.text, first.text);

  const url = `${cached.url}?query=${encodeURIComponent(ME)}`;
  const get = [await fetch(url, { headers: { accept: GQL } }), await fetch(url, { headers: { accept: GQL } })];
  t.same(await Promise.all(get.map((r) => r.text())), [first.text, first.text], 'GET too');
  t.equal((await cached.cache()).hits - after.hits, 1, 'the second GET from the cache');
});

t.test('a mutation, POST /__mock/graphql/reset and time travel change the next answer', async (t) => {
  const USER = 'query ($id: ID!) { user(id: $id) { id name createdAt } }';
  const original = await cached.data(USER, { id: 'u-1' });
  t.same(await cached.data(USER, { id: 'u-1' }), original);
  const { hits } = await cached.cache();

  const updated = await cached.data('mutation { updateUser(id: "u-1", input: { name: "Zed" }) { name } }');
  t.same(updated, { updateUser: { name: 'Zed' } });
  t.equal((await cached.data(USER, { id: 'u-1' })).user.name, 'Zed', 'the query after the mutation reads what it wrote');
  t.equal((await cached.data(USER, { id: 'u-1' })).user.name, 'Zed', '… and keeps it');
  const afterMutation = await cached.cache();
  t.equal(afterMutation.hits, hits + 1, 'answered from the cache again once computed in the new state');
  t.ok(afterMutation.invalidations >= 1);

  await cached.admin('graphql/reset', {});
  t.same(await cached.data(USER, { id: 'u-1' }), original, 'after a reset, the generated user again');

  // dates count from the clock's day: a jump of years moves them
  const year = (data) => Number(data.user.createdAt.slice(0, 4));
  const before = year(original);
  await cached.admin('time/set', { time: '2041-06-01T00:00:00Z' });
  t.teardown(() => cached.admin('time/enable', { enabled: false }));
  const moved = await cached.data(USER, { id: 'u-1' });
  t.ok(year(moved) >= 2039 && year(moved) !== before, `createdAt after time travel: ${moved.user.createdAt} (before ${original.user.createdAt})`);
  t.equal(moved.user.name, original.user.name);
});

t.test('mutations, errors and answers that read the time are never kept', async (t) => {
  const { hits } = await cached.cache();
  const CREATE = 'mutation { createUser(input: { name: "Ann", email: "ann@example.com" }) { id } }';
  const ids = [(await cached.data(CREATE)).createUser.id, (await cached.data(CREATE)).createUser.id];
  t.not(ids[0], ids[1], 'each mutation runs');

  const invalid = [await cached.post('{ me { nope } }'), await cached.post('{ me { nope } }')];
  t.same(
    invalid.map((a) => [a.status, a.cache]),
    [
      [400, null],
      [400, null],
    ],
  );

  // Product.title's override reads {{now}}: the instant of each request
  const products = [await cached.post('{ products { id title } }'), await cached.post('{ products { id title } }')];
  t.match(JSON.parse(products[0].text).data.products[0].title, /^made at \d{4}-/);
  t.same(
    products.map((a) => a.cache),
    [null, null],
  );
  t.equal((await cached.cache()).hits, hits, 'no answer came from the cache');
});

t.test('chaos applies to answers from the cache', async (t) => {
  const warm = await cached.post(ME);
  await cached.admin('config/faults', { enabled: true, failure_rate: 1, status_codes: [503] });
  t.teardown(() => cached.admin('config/faults', { enabled: false }));
  const fault = await cached.post(ME);
  t.equal(fault.status, 503, 'an injected fault, whatever the cache holds');
  t.match(JSON.parse(fault.text), { errors: [{ extensions: { code: 'MOCK_ERR_FAULT_INJECTED' } }] });
  await cached.admin('config/faults', { enabled: false });
  const { hits } = await cached.cache();
  t.equal((await cached.post(ME)).text, warm.text);
  t.equal((await cached.cache()).hits, hits + 1, 'the cache answers again once the faults stop');
});

t.test('graphql.answer_cache_bytes bounds the answers kept: a larger answer is computed every time', async (t) => {
  const LARGE = '{ users(first: 3) { id name email createdAt friends { id name email createdAt friends { id name email } } } }';
  const large = [await small.post(LARGE), await small.post(LARGE)];
  t.ok(large[0].text.length > 2048, `the answer takes ${large[0].text.length} bytes`);
  t.equal(large[1].text, large[0].text);
  t.same(
    large.map((a) => a.cache),
    [null, null],
  );
  let stats = await small.cache();
  t.match(stats, { answers: 0, bytes: 0, max_bytes: 2048, hits: 0, misses: 2 }, 'not kept');

  await small.post('{ me { id } }');
  await small.post('{ me { id } }');
  stats = await small.cache();
  t.match(stats, { answers: 1, hits: 1, misses: 3 }, 'a small one is');
  t.ok(stats.bytes > 0 && stats.bytes <= 2048);
});

t.test('graphql.answer_cache_bytes: 0 keeps nothing, and answers as before', async (t) => {
  const first = await off.post(ME);
  t.equal((await off.post(ME)).text, first.text);
  t.same(await off.cache(), { answers: 0, bytes: 0, max_bytes: 0, hits: 0, misses: 0, invalidations: 0 });
  t.equal((await off.admin('graphql')).settings.answer_cache_bytes, 0);
  await off.data('mutation { updateUser(id: "u-2", input: { name: "Bo" }) { name } }');
  t.equal((await off.data('{ user(id: "u-2") { name } }')).user.name, 'Bo');
});

// The one store interface (runtime/store/store.ts) as a contract: every implementation passes the
// same tests. The memory store always; the workers' store (ClusterStores asking a StoreHost, as
// `mock serve --workers` runs them, over a channel that copies each message and delivers it on a
// later turn, as IPC does); the Redis store against a real redis-server when one is installed
// (always in CI). Values go through `await`, which takes the memory store's plain values
// and the Redis store's promises alike.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { AppliedCount, ClusterStores, MemoryStore, StoreHost, StoreRefusal, countApplied } from '../../../dist/runtime/store/index.js';
import { RedisStores } from '../../../dist/runtime/store/redis-stores.js';
import { RedisServer } from '../../helpers/shared-state.js';

const sizeOf = (key, value) => key.length + JSON.stringify(value).length;
const refusing = { maxBytes: 60, past: 'refuse', setting: 'test.max_refusing', sizeOf };
const evicting = { maxBytes: 60, past: 'evict', setting: 'test.max_evicting', forgotten: 'the entries', sizeOf };

/** What `write` throws or rejects with (a memory store throws, a Redis store rejects); undefined when it does neither. */
async function thrown(write) {
  try {
    await write();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** A primary holding the stores, and `count` workers asking it over a channel that behaves as IPC: each message copied, delivered on a later turn, in order. */
function workersOf(count) {
  const host = new StoreHost(() => undefined);
  return Array.from({ length: count }, (_, i) => {
    const id = i + 1;
    const stores = new ClusterStores((message) => setImmediate(() => host.receive(id, structuredClone(message))));
    host.addWorker(id, (message) => setImmediate(() => stores.receive(structuredClone(message))));
    return stores;
  });
}

/** Each implementation: a name, and a function that opens a fresh store of it with a budget. */
const implementations = [
  { name: 'memory', open: (name, budget) => new MemoryStore(name, budget) },
  { name: 'workers', open: (name, budget) => workersOf(1)[0].open(name, budget) },
];

t.test('workers: every worker hears each change once, evictions included, before the write that made it answers', async (t) => {
  const [one, two, three] = workersOf(3);
  const [writer, reader, silent] = [one.open('state-machines', evicting), two.open('state-machines', evicting), three.open('state-machines', evicting)];
  const heard = [];
  reader.subscribe((change) => heard.push(change));
  const own = [];
  writer.subscribe((change) => own.push(change.key));
  await two.settled();
  for (let i = 0; i < 6; i++) {
    await writer.set(`k${i}`, 'v'.repeat(10));
    t.ok(
      heard.some((c) => c.key === `k${i}` && c.value !== undefined),
      `k${i} heard by the other worker when the write answered`,
    );
  }
  const gone = heard.filter((c) => c.value === undefined).map((c) => c.key);
  t.same(gone, [...new Set(gone)], `each eviction heard once: ${gone.join(' ')}`);
  t.same(gone.length, 6 - (await silent.entries()).length, 'a worker that does not listen reads the same store');
  t.same(own.filter((key) => key === 'k0').length, 2, "the writer's own listeners hear its change once, and its eviction once");
  const count = new AppliedCount();
  await countApplied(count, () => writer.set('counted', 'v'));
  t.equal(count.fewest, 3, 'the answer counts the workers that hold it, for the write made under the count');
  const other = new AppliedCount();
  await countApplied(other, () => reader.get('counted'));
  t.equal(other.fewest, undefined, 'a read counts nothing');
});

const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error === undefined;
if (hasRedis || process.env.CI === 'true') {
  const redis = await RedisServer.start();
  t.teardown(() => redis.kill());
  const { port } = redis;
  let opened = 0;
  // one RedisStores opens each name once: every test gets a prefix of its own instead
  t.test('redis: another instance with the same prefix hears each change once, evictions included', async (t) => {
    const prefix = `contract-${process.pid}-shared:`;
    const [one, two] = await Promise.all([0, 1].map(() => RedisStores.connect(`redis://127.0.0.1:${port}`, prefix, () => undefined)));
    t.teardown(() => Promise.all([one.close(), two.close()]));
    const [writer, reader] = [one.open('state-machines', evicting), two.open('state-machines', evicting)];
    await two.settled();
    const heard = [];
    reader.subscribe((change) => heard.push(change));
    for (let i = 0; i < 6; i++) await writer.set(`k${i}`, 'v'.repeat(10));
    for (let waited = 0; heard.filter((c) => c.value !== undefined).length < 6 && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    t.same(
      heard.filter((c) => c.value !== undefined).map((c) => c.key),
      ['k0', 'k1', 'k2', 'k3', 'k4', 'k5'],
    );
    const gone = heard.filter((c) => c.value === undefined).map((c) => c.key);
    t.same(gone, [...new Set(gone)], `each eviction heard once: ${gone.join(' ')}`);
    t.same(gone.length, 6 - (await writer.entries()).length);
  });
  implementations.push({
    name: 'redis',
    open: async (name, budget) => {
      const own = await RedisStores.connect(`redis://127.0.0.1:${port}`, `contract-${process.pid}-${++opened}:`, () => undefined);
      t.teardown(() => own.close());
      return own.open(name, budget);
    },
  });
} else {
  t.comment('redis-server is not installed: the Redis store is not held to the contract here (apt-get install -y redis-server)');
}

for (const { name, open } of implementations) {
  t.test(`${name}: get, set, delete; a missing key is undefined`, async (t) => {
    const store = await open('settings', refusing);
    t.equal(await store.get('a'), undefined);
    await store.set('a', { n: 1 });
    t.same(await store.get('a'), { n: 1 });
    await store.set('a', { n: 2 });
    t.same(await store.get('a'), { n: 2 }, 'a second set replaces');
    t.equal(await store.delete('a'), true);
    t.equal(await store.delete('a'), false, 'nothing left to delete');
    t.equal(await store.get('a'), undefined);
  });

  t.test(`${name}: entries in the order keys were first set, by prefix; clear by prefix`, async (t) => {
    const store = await open('settings', refusing);
    for (const key of ['x:2', 'y:1', 'x:1']) await store.set(key, 1);
    await store.set('x:2', 2);
    t.same(await store.entries(), [
      ['x:2', 2],
      ['y:1', 1],
      ['x:1', 1],
    ]);
    t.same(await store.entries('x:'), [
      ['x:2', 2],
      ['x:1', 1],
    ]);
    t.equal(await store.clear('x:'), 2);
    t.same(await store.entries(), [['y:1', 1]]);
    t.equal(await store.clear(), 1);
    t.same(await store.entries(), []);
  });

  t.test(`${name}: update decides on the current value; undefined changes nothing`, async (t) => {
    const store = await open('rate-limits', evicting);
    t.same(await store.update('k', (current) => ({ n: (current?.n ?? 0) + 1 })), { n: 1 });
    t.same(await store.update('k', (current) => ({ n: current.n + 1 })), { n: 2 });
    t.equal(await store.update('k', () => undefined), undefined);
    t.same(await store.get('k'), { n: 2 }, 'unchanged');
  });

  t.test(`${name}: updates of one key at once are one after another, none lost`, async (t) => {
    const store = await open('rate-limits', evicting);
    await Promise.all(Array.from({ length: 25 }, () => store.update('count', (current) => (current ?? 0) + 1)));
    t.equal(await store.get('count'), 25);
  });

  t.test(`${name}: subscribers hear every change after it is made; unsubscribed, nothing`, async (t) => {
    const store = await open('settings', refusing);
    const heard = [];
    const stop = store.subscribe((change) => heard.push(change));
    await store.set('a', 1);
    await store.update('a', (n) => n + 1);
    await store.delete('a');
    t.same(heard, [
      { key: 'a', value: 1 },
      { key: 'a', value: 2 },
      { key: 'a', value: undefined },
    ]);
    stop();
    await store.set('b', 1);
    t.equal(heard.length, 3);
  });

  t.test(`${name}: a store that refuses refuses past its budget and keeps what it had`, async (t) => {
    const store = await open('settings', refusing);
    await store.set('a', 'x'.repeat(20));
    const full = await thrown(() => store.set('b', 'y'.repeat(40)));
    t.ok(full instanceof StoreRefusal && full.full, `no room beside a: ${full?.message}`);
    const large = await thrown(() => store.set('c', 'z'.repeat(100)));
    t.ok(large instanceof StoreRefusal && !large.full, 'one entry larger than the budget');
    t.match(large.message, /larger than the whole store \(test\.max_refusing/);
    t.same(await store.entries(), [['a', 'x'.repeat(20)]]);
    t.match(store.usage(), { name: 'settings', entries: 1, max_bytes: 60, evicted: 0 });
  });

  t.test(`${name}: a store that evicts forgets old entries past its budget, and says so to its subscribers`, async (t) => {
    const store = await open('state-machines', evicting);
    const forgotten = [];
    store.subscribe((change) => change.value === undefined && forgotten.push(change.key));
    for (let i = 0; i < 6; i++) await store.set(`k${i}`, 'v'.repeat(10));
    const kept = (await store.entries()).map(([key]) => key);
    t.ok(kept.length < 6 && kept.length > 0, `some kept: ${kept.join(' ')}`);
    t.ok(kept.includes('k5'), 'the newest kept');
    t.same(
      forgotten,
      ['k0', 'k1', 'k2', 'k3', 'k4', 'k5'].filter((key) => !kept.includes(key)),
      'each forgotten entry announced, oldest first',
    );
    t.ok(kept.reduce((sum, key) => sum + sizeOf(key, 'v'.repeat(10)), 0) <= 60, 'within the budget');
    t.equal(store.usage().evicted, 6 - kept.length);
  });
}

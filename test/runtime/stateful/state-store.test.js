// runtime/chain/stateful StateStore over the memory store: one state per machine and resource id, update as one step.
import t from 'tap';
import { StateStore, stateBudget } from '../../../dist/runtime/chain/stateful/index.js';
import { MemoryStore } from '../../../dist/runtime/store/index.js';

const memoryStates = (o = {}) => new StateStore(new MemoryStore('state-machines', stateBudget(o.maxBytes), o.warn));

t.test('get, set, delete, list, count and clear keep machines apart', async (t) => {
  const store = memoryStates();
  t.equal(store.get('orders', 'a'), undefined, 'nothing before a state is set');
  store.set('orders', 'a', { state: 'pending', enteredAt: 1 });
  store.set('orders', 'b', { state: 'shipped', enteredAt: 2 });
  store.set('carts', 'a', { state: 'open', enteredAt: 3 });
  t.same(store.get('orders', 'a'), { state: 'pending', enteredAt: 1 });
  t.same(store.get('carts', 'a'), { state: 'open', enteredAt: 3 }, 'the same id in another machine is another resource');
  t.same(store.list('orders'), [['a', { state: 'pending', enteredAt: 1 }], ['b', { state: 'shipped', enteredAt: 2 }]], 'in the order they got a state');
  t.equal(store.count('orders'), 2);
  t.equal(store.delete('orders', 'a'), true);
  t.equal(store.delete('orders', 'a'), false, 'a second delete finds nothing');
  t.equal(store.count('orders'), 1);
  t.equal(store.clear('orders'), 1, 'clear answers how many it forgot');
  t.same(store.list('orders'), []);
  t.equal(store.count('carts'), 1, 'clearing one machine leaves the others');
  t.same(store.list('nobody'), [], 'an unknown machine has no resources');
});

t.test('update hands the current record to decide and stores what it answers', async (t) => {
  const store = memoryStates();
  const seen = [];
  const moved = store.update('orders', 'a', (current) => {
    seen.push(current);
    return { state: 'pending', enteredAt: 5 };
  });
  t.same(moved, { state: 'pending', enteredAt: 5 }, 'answers what decide returned');
  t.same(store.update('orders', 'a', (current) => (seen.push(current), undefined)), undefined, 'undefined: nothing changes');
  t.same(seen, [undefined, { state: 'pending', enteredAt: 5 }]);
  t.same(store.get('orders', 'a'), { state: 'pending', enteredAt: 5 });
});

t.test('10,000 resources changing at once never touch each other', async (t) => {
  const store = memoryStates();
  const ids = Array.from({ length: 10_000 }, (_, i) => `r${i}`);
  await Promise.all(ids.map(async (id, i) => store.update('m', id, () => ({ state: i % 2 === 0 ? 'even' : 'odd', enteredAt: i }))));
  await Promise.all(ids.map(async (id, i) => i % 3 === 0 && store.update('m', id, (current) => ({ state: `${current.state}+moved`, enteredAt: current.enteredAt }))));
  t.equal(store.count('m'), 10_000);
  const wrong = ids.filter((id, i) => store.get('m', id).state !== `${i % 2 === 0 ? 'even' : 'odd'}${i % 3 === 0 ? '+moved' : ''}` || store.get('m', id).enteredAt !== i);
  t.same(wrong, [], 'every resource holds its own state');
});

t.test('a byte budget: the least recently used go first, one warning a minute, a record larger than the budget refused', async (t) => {
  const warnings = [];
  // each record: 256 + 2 × (key + id) bytes; ids of 1,000 characters take about 4.3 KB
  const store = memoryStates({ maxBytes: 20_000, warn: (message) => warnings.push(message) });
  const id = (n) => `${n}`.padEnd(1000, '.');
  for (let n = 0; n < 4; n++) store.set('m', id(n), { state: 's', enteredAt: n });
  t.same(store.get('m', id(0)), { state: 's', enteredAt: 0 }, 'reading the oldest makes it the most recently used');
  store.update('m', id(4), () => ({ state: 's', enteredAt: 4 }));
  t.equal(store.get('m', id(1)), undefined, 'the least recently used went first');
  t.ok(store.get('m', id(0)) !== undefined && store.get('m', id(4)) !== undefined, 'the recently used stay');
  t.same(store.list('m').map(([key]) => key[0]), ['0', '2', '3', '4'], 'list and count follow');
  t.equal(store.count('m'), 4);
  for (let n = 5; n < 20; n++) store.set('m', id(n), { state: 's', enteredAt: n });
  t.equal(warnings.length, 1, 'one warning for 16 evictions');
  t.match(warnings[0], /max_store_mb .*the 1 least recently used were forgotten/);
  t.throws(() => store.set('m', 'x'.repeat(10_000), { state: 's', enteredAt: 0 }), { name: 'Error', machine: 'm', budgetBytes: 20_000 }, 'larger than the whole budget: refused');
  t.equal(store.count('m'), 4, 'and nothing forgotten for it');
});

// runtime/chain/chaos bulkhead: a concurrency limit with a bounded FIFO queue.
import t from 'tap';
import { Bulkhead } from '../../../dist/runtime/chain/chaos/index.js';

const kind = (entry) => (entry === null ? 'refused' : typeof entry === 'function' ? 'now' : 'queued');

t.test('slots first, then the queue, then refusal exactly beyond it', async (t) => {
  const bulkhead = new Bulkhead({ maxConcurrent: 2, maxQueue: 3 });
  const entries = Array.from({ length: 7 }, () => bulkhead.enter());
  t.same(entries.map(kind), ['now', 'now', 'queued', 'queued', 'queued', 'refused', 'refused']);
  t.same([bulkhead.active, bulkhead.queued], [2, 3]);
  const noQueue = new Bulkhead({ maxConcurrent: 1, maxQueue: 0 });
  t.same([noQueue.enter(), noQueue.enter()].map(kind), ['now', 'refused'], 'maxQueue 0: no waiting');
});

t.test('waiters get slots in arrival order; a release works once', async (t) => {
  const bulkhead = new Bulkhead({ maxConcurrent: 1, maxQueue: 3 });
  const first = bulkhead.enter();
  const order = [];
  const waiters = ['a', 'b', 'c'].map((name) => bulkhead.enter().then((release) => (order.push(name), release)));
  first();
  first();
  first();
  const a = await waiters[0];
  t.same(order, ['a'], 'three calls of one release free one slot');
  t.same([bulkhead.active, bulkhead.queued], [1, 2]);
  a();
  (await waiters[1])();
  (await waiters[2])();
  t.same(order, ['a', 'b', 'c']);
  t.same([bulkhead.active, bulkhead.queued], [0, 0]);
  t.equal(kind(bulkhead.enter()), 'now', 'all released: a slot right away');
});

t.test('under load the limit is never exceeded and nothing is lost', async (t) => {
  const bulkhead = new Bulkhead({ maxConcurrent: 4, maxQueue: 10 });
  let inside = 0;
  let most = 0;
  let done = 0;
  let refused = 0;
  const work = async (ticks, release) => {
    inside++;
    most = Math.max(most, inside);
    for (let i = 0; i < ticks; i++) await new Promise((resolve) => setImmediate(resolve));
    inside--;
    done++;
    release();
  };
  const running = [];
  for (let i = 0; i < 200; i++) {
    const entry = bulkhead.enter();
    if (entry === null) refused++;
    else running.push(Promise.resolve(entry).then((release) => work(1 + (i % 5), release)));
    if (i % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(running);
  t.equal(most, 4, 'at most maxConcurrent inside');
  t.equal(done + refused, 200);
  t.ok(refused > 0 && done > 14, `${done} done, ${refused} refused`);
  t.same([bulkhead.active, bulkhead.queued], [0, 0]);
});

t.test('limits are checked', async (t) => {
  t.throws(() => new Bulkhead({ maxConcurrent: 0, maxQueue: 1 }), RangeError);
  t.throws(() => new Bulkhead({ maxConcurrent: 1, maxQueue: -1 }), RangeError);
});

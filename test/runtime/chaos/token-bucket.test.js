// runtime/chain/chaos token buckets: exact admit counts and Retry-After waits on a fake clock, the IETF
// policy figures, and the per-key table's bound in the rate-limits store (least recently used out).
import t from 'tap';
import { BucketTable, TokenBucket, bucketBudget } from '../../../dist/runtime/chain/chaos/index.js';
import { MemoryStore } from '../../../dist/runtime/store/index.js';

/** One bucket: the policy moving one record. */
function clocked(o) {
  const clock = { ms: 0 };
  const policy = new TokenBucket({ ...o, now: () => clock.ms });
  const record = { full: 0 };
  const bucket = { take: () => policy.take(record), state: () => policy.state(record), policy: () => policy.policy() };
  return { clock, bucket };
}

/** A table of about `keys` buckets of short keys (what the budget charges one of them). */
const tableOf = (keys, policy) => new BucketTable(policy, new MemoryStore('rate-limits', bucketBudget(keys * bucketBudget().sizeOf('k'))));

/** Requests every `step` ms over [from, to]; how many were admitted. */
function admitted(clock, bucket, from, to, step) {
  let ok = 0;
  for (clock.ms = from; clock.ms <= to; clock.ms += step) if (bucket.take().ok) ok++;
  return ok;
}

t.test('all at once: exactly the burst, then the exact wait for the next token', async (t) => {
  const { clock, bucket } = clocked({ ratePerSecond: 10, burst: 5 });
  t.same([1, 2, 3, 4, 5].map(() => bucket.take()), [4, 3, 2, 1, 0].map((remaining) => ({ ok: true, remaining })));
  t.same(bucket.take(), { ok: false, retryAfterMs: 100 });
  clock.ms = 30;
  t.same(bucket.take(), { ok: false, retryAfterMs: 70 }, 'the wait shrinks as time passes: not a constant');
  clock.ms = 100;
  t.same(bucket.take(), { ok: true, remaining: 0 });
  t.same(bucket.take(), { ok: false, retryAfterMs: 100 });
});

t.test('requests_per_second plus burst_size in the first second, then requests_per_second', async (t) => {
  const { clock, bucket } = clocked({ ratePerSecond: 10, burst: 5 });
  t.equal(admitted(clock, bucket, 0, 1000, 10), 15, 'first second, t = 0 … 1000 ms: 5 + 10');
  t.equal(admitted(clock, bucket, 1010, 2000, 10), 10, 'second second: 10');
  t.equal(admitted(clock, bucket, 2010, 3000, 10), 10, 'third second: 10');
  clock.ms = 60_000;
  t.equal([1, 2, 3, 4, 5, 6].filter(() => bucket.take().ok).length, 5, 'a long idle refills to the burst, not beyond');
});

t.test('waiting exactly retryAfterMs is enough, a millisecond less is not', async (t) => {
  const { clock, bucket } = clocked({ ratePerSecond: 3, burst: 1 });
  t.ok(bucket.take().ok);
  const refused = bucket.take();
  t.notOk(refused.ok);
  t.ok(Math.abs(refused.retryAfterMs - 1000 / 3) < 1e-9, `${refused.retryAfterMs} ms: a third of a second`);
  clock.ms = 333;
  t.notOk(bucket.take().ok);
  clock.ms = 334;
  t.ok(bucket.take().ok);
  clock.ms = 667;
  t.notOk(bucket.take().ok, 'the next token is due at 334 + 333.3');
  clock.ms = 668;
  t.ok(bucket.take().ok);
  // Three a second for a minute, on the dot: float sums of 333.33… must not refuse any.
  const paced = clocked({ ratePerSecond: 3, burst: 1 });
  let ok = 0;
  for (let i = 0; i < 180; i++) {
    paced.clock.ms = (i * 1000) / 3;
    if (paced.bucket.take().ok) ok++;
  }
  t.equal(ok, 180, 'none refused');
});

t.test('a burst below 1 still holds one token', async (t) => {
  const { bucket } = clocked({ ratePerSecond: 2, burst: 0 });
  t.same(bucket.take(), { ok: true, remaining: 0 });
  t.same(bucket.take(), { ok: false, retryAfterMs: 500 });
  t.throws(() => new TokenBucket({ ratePerSecond: 0, burst: 5, now: Date.now }), RangeError);
  t.throws(() => new TokenBucket({ ratePerSecond: Infinity, burst: 5, now: Date.now }), RangeError);
});

t.test('policy() and state() for the RateLimit header fields', async (t) => {
  const { clock, bucket } = clocked({ ratePerSecond: 10, burst: 5 });
  t.same(bucket.policy(), { quota: 10, windowSeconds: 1 });
  t.same(bucket.state(), { remaining: 5, resetSeconds: 0 });
  for (let i = 0; i < 5; i++) bucket.take();
  t.same(bucket.state(), { remaining: 0, resetSeconds: 1 }, 'full again at 500 ms: 1 s, rounded up');
  clock.ms = 250;
  t.same(bucket.state(), { remaining: 2, resetSeconds: 1 });
  clock.ms = 500;
  t.same(bucket.state(), { remaining: 5, resetSeconds: 0 });
  const defaults = clocked({ ratePerSecond: 1000 / 60, burst: 2000 }).bucket;
  t.same(defaults.policy(), { quota: 2000, windowSeconds: 120 }, 'DEFAULT_RATE_LIMIT_RPM 1000 with burst 2000');
  // A client keeping to the policy's pace is never refused, even starting on an empty bucket.
  const drained = clocked({ ratePerSecond: 10, burst: 5 });
  for (let i = 0; i < 5; i++) drained.bucket.take();
  const { quota, windowSeconds } = drained.bucket.policy();
  const step = (windowSeconds * 1000) / quota;
  t.equal(admitted(drained.clock, drained.bucket, step, 10_000, step), Math.floor(10_000 / step));
});

t.test('a bucket per key, the least recently used evicted', async (t) => {
  const clock = { ms: 0 };
  const table = tableOf(3, new TokenBucket({ ratePerSecond: 1, burst: 1, now: () => clock.ms }));
  t.ok(table.take('a').ok);
  t.notOk(table.take('a').ok, 'a is drained');
  t.ok(table.take('b').ok, 'b has its own bucket');
  t.ok(table.take('c').ok);
  t.notOk(table.take('a').ok, 'a used again: now the most recent');
  t.ok(table.take('d').ok);
  t.equal(table.size, 3);
  t.notOk(table.take('a').ok, 'a survived (b was the least recently used) and is still drained');
  t.ok(table.take('b').ok, 'b was evicted and comes back with a full bucket');
  t.same(table.state('b'), { remaining: 0, resetSeconds: 1 }, 'state() reads the bucket without taking');
});

t.test('a hundred thousand keys never hold more buckets than the budget', async (t) => {
  const table = new BucketTable(new TokenBucket({ ratePerSecond: 1, burst: 1, now: () => 0 }), new MemoryStore('rate-limits', bucketBudget(1000 * bucketBudget().sizeOf('10.1.134.159'))));
  let largest = 0;
  for (let i = 0; i < 100_000; i++) {
    table.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    largest = Math.max(largest, table.size);
  }
  t.ok(largest >= 1000 && largest < 1100, `${largest} buckets at most: the budget holds 1000 of the longest keys, a few more of shorter ones`);
  t.notOk(table.take('10.1.134.159').ok, 'the last key seen is still there, drained');
  t.ok(table.take('10.0.0.0').ok, 'the first one was evicted long ago');
});

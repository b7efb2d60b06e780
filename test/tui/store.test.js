// The live data of `mock tui`: the log keeps the newest 1,000 entries, and listeners (redraws)
// hear of changes at most ten times a second however fast entries come; the text helpers.
import t from 'tap';
import { LiveStore } from '../../dist/src/tui/store.js';
import { Ring } from '../../dist/src/tui/ring.js';
import { chart, fit, sparkline, windowStart } from '../../dist/src/tui/format.js';
import { until } from '../helpers/wait.js';

const entry = (n) => ({ id: `e-${n}`, timestamp: new Date(0).toISOString(), method: 'GET', path: `/p/${n}`, status_code: 200, response_time_ms: 1 });

t.test('the ring keeps the newest items, oldest first', async (t) => {
  const ring = new Ring(3);
  for (let i = 1; i <= 5; i += 1) ring.push(i);
  t.same(ring.toArray(), [3, 4, 5]);
  t.equal(ring.length, 3);
  ring.clear();
  t.same(ring.toArray(), []);
  t.throws(() => new Ring(0), RangeError);
});

t.test('the log is bounded at 1,000 entries; received counts them all', async (t) => {
  const store = new LiveStore();
  t.teardown(() => store.close());
  store.addLogs(Array.from({ length: 2500 }, (_, i) => entry(i)));
  store.flush();
  const { logs, received } = store.getSnapshot();
  t.equal(logs.length, 1000);
  t.equal(received, 2500);
  t.equal(logs[0].id, 'e-1500', 'the oldest kept');
  t.equal(logs.at(-1).id, 'e-2499', 'the newest last');
});

t.test('a burst of entries is one snapshot; a steady flood at most ~10 a second', async (t) => {
  const store = new LiveStore({ minIntervalMs: 100 });
  t.teardown(() => store.close());
  let heard = 0;
  store.subscribe(() => (heard += 1));
  for (let i = 0; i < 5000; i += 1) store.addLogs([entry(i)]);
  t.equal(heard, 0, 'nothing published within the turn the entries came in');
  await until(() => heard === 1, 2000, 'the snapshot');
  t.equal(store.getSnapshot().received, 5000, 'all in one snapshot');

  heard = 0;
  const started = Date.now();
  let n = 0;
  await new Promise((done) => {
    const timer = setInterval(() => {
      store.addLogs([entry(n++)]);
      if (Date.now() - started >= 1000) {
        clearInterval(timer);
        done();
      }
    }, 2);
  });
  const seconds = (Date.now() - started) / 1000;
  t.ok(n > 100, `${n} entries sent one by one`);
  t.ok(heard <= Math.ceil(seconds * 10) + 1, `${heard} snapshots in ${seconds.toFixed(2)} s`);
  t.ok(heard >= 3, 'but the screen keeps up');
});

t.test('setting the same stream status twice publishes nothing', async (t) => {
  const store = new LiveStore({ minIntervalMs: 10 });
  t.teardown(() => store.close());
  store.setStream({ mode: 'polling', detail: 'x' });
  store.flush();
  const flushes = store.flushes;
  store.setStream({ mode: 'polling', detail: 'x' });
  await new Promise((r) => setTimeout(r, 40));
  t.equal(store.flushes, flushes);
  t.same(store.getSnapshot().stream, { mode: 'polling', detail: 'x' });
});

t.test('text helpers', async (t) => {
  t.equal(sparkline([0, 1, 2, 3, 4, 5, 6, 7], 8), '▁▂▃▄▅▆▇█');
  t.equal(sparkline([1, null, 1], 5), '  █ █', 'right-aligned; a missing value is blank');
  t.equal(sparkline([0, 0], 2), '▁▁', 'all zero: the baseline');
  t.equal(sparkline([1, 2, 3, 4], 2), '▆█', 'the newest that fit');
  t.same(chart([0, 4, 8], 3, 2), ['  █', '▁██'], 'half the top: the bottom line full');
  t.same(chart([0, 5, 8], 3, 2), ['  █', '▁██'].map((l, i) => (i === 0 ? ' ▂█' : l)), 'a partial block on top');
  t.equal(fit('abcdef', 4), 'abc…');
  t.equal(fit('ab', 4), 'ab  ');
  t.equal(fit('a\nb', 3), 'a b');
  t.equal(windowStart(100, 50, 10), 45);
  t.equal(windowStart(100, 99, 10), 90);
  t.equal(windowStart(5, 4, 10), 0);
});

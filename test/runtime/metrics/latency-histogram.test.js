// The response-time histogram of the statistics: three significant digits over a wide range,
// checked against exact percentiles of the same values.
import t from 'tap';
import { LatencyHistogram } from '../../../dist/runtime/control/metrics/latency-histogram.js';

t.test('percentiles within 0.1 % of the exact ones, from microseconds to an hour', async (t) => {
  const h = new LatencyHistogram(3_600_000_000);
  const values = [];
  let seed = 42;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 20000; i++) {
    // log-uniform from 1 µs to an hour: every power of two gets some
    const v = Math.floor(Math.exp(next() * Math.log(3_600_000_000)));
    values.push(v);
    h.record(v);
  }
  values.sort((a, b) => a - b);
  t.equal(h.totalCount, 20000);
  for (const p of [1, 10, 50, 90, 95, 99, 99.9, 100]) {
    const exact = values[Math.max(0, Math.ceil((p / 100) * values.length) - 1)];
    const got = h.valueAtPercentile(p);
    t.ok(got >= exact && got <= exact * 1.001 + 1, `p${p}: ${got} for ${exact}`);
  }
});

t.test('small values exactly; out-of-range values clamped; empty is 0', async (t) => {
  const h = new LatencyHistogram(1_000_000);
  t.equal(h.valueAtPercentile(50), 0);
  for (const v of [0, 1, 2, 3, 2047]) h.record(v);
  t.equal(h.valueAtPercentile(20), 0);
  t.equal(h.valueAtPercentile(60), 2);
  t.equal(h.valueAtPercentile(100), 2047);
  h.record(5_000_000);
  h.record(-3);
  t.ok(h.valueAtPercentile(100) >= 1_000_000 && h.valueAtPercentile(100) <= 1_001_000, 'above the highest: counted in its bucket');
  t.equal(h.valueAtPercentile(1), 0, 'a negative value counts as 0');
});

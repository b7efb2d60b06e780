// runtime/chain/chaos error patterns: which requests get an injected error — seeded random faults at
// their configured rate, exact bursts per window on a fake clock, sequences — and their checks.
import t from 'tap';
import { checkErrorPattern, createFaultPattern, seededRandom } from '../../../dist/runtime/chain/chaos/index.js';

const run = (pattern, n, o = {}) => {
  const faults = createFaultPattern(pattern, { random: seededRandom(o.seed ?? 1), now: o.now ?? (() => 0) });
  return Array.from({ length: n }, () => faults.next());
};

t.test('random: the configured rate, the same faults for the same seed', async (t) => {
  const n = 5000;
  const p = 0.2;
  const failed = run({ type: 'random', probability: p }, n).filter(Boolean).length;
  const spread = 2.576 * Math.sqrt(n * p * (1 - p));
  t.ok(Math.abs(failed - n * p) <= spread, `${failed} of ${n} failed; the 99% binomial interval is ${Math.ceil(n * p - spread)}-${Math.floor(n * p + spread)}`);
  t.same(run({ type: 'random', probability: 0.3 }, 300, { seed: 9 }), run({ type: 'random', probability: 0.3 }, 300, { seed: 9 }));
  t.not(run({ type: 'random', probability: 0.3 }, 300, { seed: 9 }).join(), run({ type: 'random', probability: 0.3 }, 300, { seed: 10 }).join());
  t.notOk(run({ type: 'random', probability: 0 }, 1000).some(Boolean), 'probability 0: never');
  t.ok(run({ type: 'random', probability: 1 }, 1000).every((x) => x === true), 'probability 1: always');
});

t.test('burst: exactly count failures in each window, the first count requests of it', async (t) => {
  const clock = { ms: 0 };
  const faults = createFaultPattern({ type: 'burst', count: 3, interval_ms: 1000 }, { random: seededRandom(1), now: () => clock.ms });
  const failedAt = [];
  for (clock.ms = 250; clock.ms < 5250; clock.ms += 100) if (faults.next()) failedAt.push(clock.ms);
  t.same(failedAt, [250, 350, 450, 1250, 1350, 1450, 2250, 2350, 2450, 3250, 3350, 3450, 4250, 4350, 4450], 'windows open at the first request, 250 ms');
});

t.test('burst: windows follow each other; a quiet spell does not move them', async (t) => {
  const clock = { ms: 0 };
  const faults = createFaultPattern({ type: 'burst', count: 1, interval_ms: 1000 }, { random: seededRandom(1), now: () => clock.ms });
  const at = (ms) => ((clock.ms = ms), faults.next());
  t.same([0, 10, 1500, 1999, 2100, 5999, 6000].map(at), [true, false, true, false, true, true, true]);
  const never = createFaultPattern({ type: 'burst', count: 0, interval_ms: 0 }, { random: seededRandom(1), now: () => 0 });
  t.same([never.next(), never.next()], [false, false], 'count 0: never');
});

t.test('sequential: cycles through the sequence; entries below 400 pass', async (t) => {
  t.same(run({ type: 'sequential', sequence: [503, 200, 500] }, 7), [503, false, 500, 503, false, 500, 503]);
  t.same(run({ type: 'sequential', sequence: [503, 503, 503], repeat: false }, 6), [503, 503, 503, false, false, false], 'fail the first 3, then pass');
  t.same(run({ type: 'sequential', sequence: [429], repeat: true }, 3), [429, 429, 429]);
});

t.test('checkErrorPattern names the key and what is wrong', async (t) => {
  const w = 'observability.chaos.fault_injection.error_pattern';
  t.same(checkErrorPattern({ type: 'random', probability: 0.5 }, w), []);
  t.same(checkErrorPattern({ type: 'burst', count: 0, interval_ms: 0 }, w), []);
  t.same(checkErrorPattern({ type: 'burst', count: 5, interval_ms: 1000 }, w), []);
  t.same(checkErrorPattern({ type: 'sequential', sequence: [200, 503], repeat: false }, w), []);
  t.same(checkErrorPattern({ type: 'burst', count: 5, interval_ms: 0 }, w), [`${w}.interval_ms: a burst needs interval_ms > 0 (count 5 in no time at all)`]);
  t.same(checkErrorPattern({ type: 'burst', count: -1, interval_ms: 100 }, w), [`${w}.count: burst needs count, a whole number 0 or more (got -1)`]);
  t.same(checkErrorPattern({ type: 'burst', count: 2 }, w), [`${w}.interval_ms: burst needs interval_ms, a number of milliseconds from 0 to 3600000`]);
  t.same(checkErrorPattern({ type: 'burst', count: 2, interval_ms: 1e10 }, w), [`${w}.interval_ms: burst needs interval_ms, a number of milliseconds from 0 to 3600000 (got 10000000000)`]);
  t.same(checkErrorPattern({ type: 'random', probability: 1.5 }, w), [`${w}.probability: random needs a probability from 0 to 1 (got 1.5)`]);
  t.same(checkErrorPattern({ type: 'random' }, w), [`${w}.probability: random needs a probability from 0 to 1`]);
  t.same(checkErrorPattern({ type: 'sequential', sequence: [] }, w), [`${w}.sequence: sequential needs a non-empty list of statuses (below 400: that request passes) (got [])`]);
  t.same(checkErrorPattern({ type: 'sequential', sequence: [503, 'x', 700] }, w), [`${w}.sequence[1]: "x" is not an HTTP status (100-599)`, `${w}.sequence[2]: 700 is not an HTTP status (100-599)`]);
  t.same(checkErrorPattern({ type: 'sequential', sequence: [503], repeat: 'no' }, w), [`${w}.repeat: must be true or false (got "no")`]);
  t.same(checkErrorPattern({ type: 'chaotic' }, w), [`${w}.type: "chaotic" is not one of burst, random, sequential`]);
  t.same(checkErrorPattern({}, w), [`${w}.type: missing; use one of burst, random, sequential`]);
  t.same(checkErrorPattern(null, w), [`${w}: must be an object with a type (burst, random, sequential)`]);
});

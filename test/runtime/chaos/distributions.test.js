// runtime/chain/chaos latency sampling: each distribution against its exact CDF (one-sample
// Kolmogorov–Smirnov at α = 0.01), truncation by redrawing rather than clamping, and repeatability.
import t from 'tap';
import { checkLatencySpec, sampleLatency, seededRandom } from '../../../dist/runtime/chain/chaos/index.js';

const N = 2000;
const KS_CRITICAL = 1.628 / Math.sqrt(N);

/** Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7), independent of the sampler's erfc. */
function erfc(x) {
  if (x < 0) return 2 - erfc(-x);
  const u = 1 / (1 + 0.3275911 * x);
  return u * (0.254829592 + u * (-0.284496736 + u * (1.421413741 + u * (-1.453152027 + u * 1.061405429)))) * Math.exp(-x * x);
}
/** P(Z > z) for the standard normal. */
const upper = (z) => 0.5 * erfc(z / Math.SQRT2);
const Phi = (z) => 1 - upper(z);

const uniformCdf = (a, b) => (x) => Math.min(1, Math.max(0, (x - a) / (b - a)));
/** N(m, s) given X >= 0, written with upper tails so a tiny kept mass stays accurate. */
const truncatedNormalCdf = (m, s) => (x) => 1 - upper((x - m) / s) / upper(-m / s);
const exponentialCdf = (mean) => (x) => 1 - Math.exp(-x / mean);
const lognormalCdf = (mu, sigma) => (x) => (x <= 0 ? 0 : Phi((Math.log(x) - mu) / sigma));

function draw(spec, seed = 7, n = N) {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => sampleLatency(spec, random));
}
const bases = (spec, seed, n) => draw(spec, seed, n).map((s) => s.base_ms);

/** Kolmogorov–Smirnov distance between a sample and a CDF. */
function ks(sample, cdf) {
  const sorted = [...sample].sort((a, b) => a - b);
  let d = 0;
  sorted.forEach((x, i) => {
    const f = cdf(x);
    d = Math.max(d, f - i / sorted.length, (i + 1) / sorted.length - f);
  });
  return d;
}

/** Whether `count` successes in `n` draws lie inside the 99% interval of a binomial(n, p). */
function inBinomial99(count, n, p) {
  const spread = 2.576 * Math.sqrt(n * p * (1 - p));
  return Math.abs(count - n * p) <= spread;
}

const nearestRank = (sorted, p) => sorted[Math.ceil(p * sorted.length) - 1];

t.test('fixed: the mean itself', async (t) => {
  t.same(draw({ distribution: 'fixed', mean_ms: 250 }, 1, 5), Array(5).fill({ base_ms: 250, jitter_ms: 0 }));
});

t.test('uniform: mean ± √3·σ, the part below 0 redrawn, not clamped', async (t) => {
  const a = 10 - Math.sqrt(3) * 10;
  const b = 10 + Math.sqrt(3) * 10;
  const sample = bases({ distribution: 'uniform', mean_ms: 10, std_dev_ms: 10 });
  t.ok(a < 0, 'this spec reaches below 0');
  const d = ks(sample, uniformCdf(0, b));
  t.ok(d < KS_CRITICAL, `uniform over [0, ${b.toFixed(2)}]: D = ${d.toFixed(4)} < ${KS_CRITICAL.toFixed(4)}`);
  t.equal(sample.filter((x) => x === 0).length, 0, 'no pile-up at 0');
  const wide = bases({ distribution: 'uniform', mean_ms: 10, std_dev_ms: 2 });
  t.ok(ks(wide, uniformCdf(10 - Math.sqrt(3) * 2, 10 + Math.sqrt(3) * 2)) < KS_CRITICAL, 'untruncated: mean ± √3·σ');
  const plain = bases({ distribution: 'uniform', mean_ms: 40 });
  t.ok(ks(plain, uniformCdf(0, 80)) < KS_CRITICAL, 'without σ: [0, 2·mean]');
});

t.test('normal: N(mean, σ) truncated at 0 by redrawing', async (t) => {
  const sample = bases({ distribution: 'normal', mean_ms: 10, std_dev_ms: 20 });
  const cdf = truncatedNormalCdf(10, 20);
  const d = ks(sample, cdf);
  t.ok(d < KS_CRITICAL, `mean 10, σ 20: D = ${d.toFixed(4)} < ${KS_CRITICAL.toFixed(4)}`);
  t.ok(sample.every((x) => x > 0), 'nothing at or below 0');
  // Clamping would put Φ(-0.5) ≈ 31% of the draws at 0, so ≈ 33% below 1 ms instead of ≈ 2.6%.
  const below1 = sample.filter((x) => x < 1).length;
  t.ok(inBinomial99(below1, N, cdf(1)), `${below1} of ${N} below 1 ms, expected ${(N * cdf(1)).toFixed(1)}`);
  t.notOk(inBinomial99(below1, N, Phi((1 - 10) / 20)), 'and far from what clamping gives');
});

t.test('normal with a mean far below 0: inverse-CDF sampling, no endless redraws', async (t) => {
  // Only 0.13% of N(-30, 10) is above 0: rejection would need about 740 tries a sample.
  const random = seededRandom(3);
  let draws = 0;
  const counting = { next: () => (draws++, random.next()) };
  const sample = Array.from({ length: N }, () => sampleLatency({ distribution: 'normal', mean_ms: -30, std_dev_ms: 10 }, counting).base_ms);
  t.equal(draws, N, 'one draw a sample');
  const d = ks(sample, truncatedNormalCdf(-30, 10));
  t.ok(d < KS_CRITICAL, `mean -30, σ 10: D = ${d.toFixed(4)} < ${KS_CRITICAL.toFixed(4)}`);
  const far = bases({ distribution: 'normal', mean_ms: -2000, std_dev_ms: 10 }, 4, 200);
  t.ok(far.every((x) => x >= 0 && x < 1), 'a tail mass far below a double still samples (scale σ²/|mean| = 0.05 ms)');
  const stuck = { next: () => 0.5 };
  const x = sampleLatency({ distribution: 'normal', mean_ms: 0, std_dev_ms: 10 }, stuck).base_ms;
  t.ok(Number.isFinite(x) && x >= 0, `a stuck generator cannot hang the sampler (got ${x})`);
});

t.test('exponential: inverse CDF, not a uniform draw', async (t) => {
  const sample = bases({ distribution: 'exponential', mean_ms: 100 });
  const d = ks(sample, exponentialCdf(100));
  t.ok(d < KS_CRITICAL, `mean 100: D = ${d.toFixed(4)} < ${KS_CRITICAL.toFixed(4)}`);
  t.ok(ks(sample, uniformCdf(0, 200)) > KS_CRITICAL, 'the test tells it from a uniform with the same mean');
});

t.test('lognormal: p50 and p99 as given', async (t) => {
  const mu = Math.log(100);
  const sigma = Math.log(1000 / 100) / 2.3263478740408408;
  const d = ks(bases({ distribution: 'lognormal', p50_ms: 100, p99_ms: 1000 }), lognormalCdf(mu, sigma));
  t.ok(d < KS_CRITICAL, `p50 100, p99 1000: D = ${d.toFixed(4)} < ${KS_CRITICAL.toFixed(4)}`);
  const many = bases({ distribution: 'lognormal', p50_ms: 100, p99_ms: 1000 }, 11, 50_000).sort((a, b) => a - b);
  const p50 = nearestRank(many, 0.5);
  const p99 = nearestRank(many, 0.99);
  t.ok(Math.abs(p50 / 100 - 1) < 0.02, `observed p50 ${p50.toFixed(1)}`);
  t.ok(Math.abs(p99 / 1000 - 1) < 0.05, `observed p99 ${p99.toFixed(1)}`);
  t.same(draw({ distribution: 'lognormal', p50_ms: 80, p99_ms: 80 }, 1, 3).map((s) => s.base_ms), [80, 80, 80], 'p99 = p50: a constant');
});

t.test('every base is truncated at one hour by redrawing: long tails cannot make a timer fire at once', async (t) => {
  const HOUR = 3_600_000;
  // P(X > 1 h) is 1% here: clamping would pile 1% up at the bound, redrawing keeps the shape below it
  const sample = bases({ distribution: 'lognormal', p50_ms: 360_000, p99_ms: HOUR });
  t.ok(sample.every((x) => x <= HOUR), 'nothing above the bound');
  t.equal(sample.filter((x) => x === HOUR).length, 0, 'no pile-up at the bound');
  const sigma = Math.log(10) / 2.3263478740408408;
  const cdf = (x) => lognormalCdf(Math.log(360_000), sigma)(x) / 0.99;
  const d = ks(sample, cdf);
  t.ok(d < KS_CRITICAL, `lognormal given X <= 1 h: D = ${d.toFixed(4)} < ${KS_CRITICAL.toFixed(4)}`);
  t.ok(bases({ distribution: 'exponential', mean_ms: HOUR }).every((x) => x <= HOUR), 'exponential');
  t.ok(bases({ distribution: 'normal', mean_ms: HOUR, std_dev_ms: HOUR }).every((x) => x <= HOUR), 'normal');
  t.ok(bases({ distribution: 'uniform', mean_ms: HOUR, std_dev_ms: HOUR }).every((x) => x <= HOUR), 'uniform');
  const stuck = { next: () => 1 - 1e-16 };
  t.equal(sampleLatency({ distribution: 'exponential', mean_ms: HOUR }, stuck).base_ms, HOUR, 'a generator stuck above the bound gets the bound, not an endless loop');
});

t.test('jitter: base × uniform(-j%, +j%), the total never negative', async (t) => {
  const sample = draw({ distribution: 'fixed', mean_ms: 200, jitter_percent: 25 });
  const d = ks(sample.map((s) => s.jitter_ms), uniformCdf(-50, 50));
  t.ok(d < KS_CRITICAL, `jitter of 25% of 200 ms uniform over ±50: D = ${d.toFixed(4)}`);
  const full = draw({ distribution: 'exponential', mean_ms: 50, jitter_percent: 100 });
  t.ok(full.every((s) => s.base_ms + s.jitter_ms >= 0 && Math.abs(s.jitter_ms) <= s.base_ms), 'at 100% the total stays within [0, 2·base]');
  const unchecked = draw({ distribution: 'fixed', mean_ms: 10, jitter_percent: 500 }, 2, 200);
  t.ok(unchecked.every((s) => s.base_ms + s.jitter_ms >= 0), 'even an unchecked percentage cannot make it negative');
});

t.test('the same seed gives the same sequence', async (t) => {
  const specs = [
    { distribution: 'normal', mean_ms: 5, std_dev_ms: 20, jitter_percent: 10 },
    { distribution: 'uniform', mean_ms: 30, std_dev_ms: 40 },
    { distribution: 'exponential', mean_ms: 70 },
    { distribution: 'lognormal', p50_ms: 20, p99_ms: 400, jitter_percent: 5 },
  ];
  const run = (seed) => {
    const random = seededRandom(seed);
    return Array.from({ length: 400 }, (_, i) => sampleLatency(specs[i % specs.length], random));
  };
  t.same(run(42), run(42));
  t.not(JSON.stringify(run(42)), JSON.stringify(run(43)), 'another seed, another sequence');
});

t.test('checkLatencySpec names the key and what is wrong', async (t) => {
  const w = 'core.routes[0].latency';
  t.same(checkLatencySpec({ distribution: 'normal', mean_ms: 100, std_dev_ms: 20, jitter_percent: 10 }, w), []);
  t.same(checkLatencySpec({ distribution: 'uniform', mean_ms: 0 }, w), []);
  t.same(checkLatencySpec({ distribution: 'lognormal', p50_ms: 50, p99_ms: 50 }, w), []);
  t.same(checkLatencySpec({ distribution: 'normal', mean_ms: 100 }, w), [`${w}.std_dev_ms: normal needs std_dev_ms above 0 and at most 3600000`]);
  t.same(checkLatencySpec({ distribution: 'normal', mean_ms: 100, std_dev_ms: 0 }, w), [`${w}.std_dev_ms: normal needs std_dev_ms above 0 and at most 3600000 (got 0)`]);
  t.same(checkLatencySpec({ distribution: 'weibull', mean_ms: 1 }, w), [`${w}.distribution: "weibull" is not one of fixed, uniform, normal, exponential, lognormal`]);
  t.same(checkLatencySpec({ mean_ms: 1 }, w), [`${w}.distribution: missing; use one of fixed, uniform, normal, exponential, lognormal`]);
  t.same(checkLatencySpec({ distribution: 'exponential', mean_ms: -5 }, w), [`${w}.mean_ms: exponential needs mean_ms from 0 to 3600000 (got -5)`]);
  t.same(checkLatencySpec({ distribution: 'uniform', mean_ms: 5, std_dev_ms: -1 }, w), [`${w}.std_dev_ms: uniform needs std_dev_ms from 0 to 3600000 (got -1)`]);
  t.same(checkLatencySpec({ distribution: 'fixed', mean_ms: '100' }, w), [`${w}.mean_ms: fixed needs mean_ms from 0 to 3600000 (got "100")`]);
  t.same(checkLatencySpec({ distribution: 'lognormal', p50_ms: 200, p99_ms: 100 }, w), [`${w}.p99_ms: lognormal needs p99_ms >= p50_ms (got p99_ms 100, p50_ms 200)`]);
  t.same(checkLatencySpec({ distribution: 'lognormal', p50_ms: 0, p99_ms: 100 }, w), [`${w}.p50_ms: lognormal needs p50_ms above 0 and at most 3600000 (got 0)`]);
  t.same(checkLatencySpec({ distribution: 'fixed', mean_ms: 5, jitter_percent: 101 }, w), [`${w}.jitter_percent: must be a number from 0 to 100 (got 101)`]);
  t.same(checkLatencySpec({ distribution: 'normal', mean_ms: -1, std_dev_ms: -1 }, w).length, 2, 'every problem, not the first');
  t.same(checkLatencySpec('fast', w), [`${w}: must be an object with a distribution (fixed, uniform, normal, exponential, lognormal)`]);
  // every parameter is a delay: at most an hour (a timer above 2^31-1 ms would fire at once)
  t.same(checkLatencySpec({ distribution: 'lognormal', p50_ms: 1, p99_ms: 1e308 }, w), [`${w}.p99_ms: lognormal needs p99_ms above 0 and at most 3600000 (got 1e+308)`]);
  t.same(checkLatencySpec({ distribution: 'fixed', mean_ms: 3_600_001 }, w), [`${w}.mean_ms: fixed needs mean_ms from 0 to 3600000 (got 3600001)`]);
  t.same(checkLatencySpec({ distribution: 'normal', mean_ms: 10, std_dev_ms: Infinity }, w).length, 1, 'Infinity is no delay');
  t.same(checkLatencySpec({ distribution: 'fixed', mean_ms: 3_600_000 }, w), [], 'the bound itself is fine');
});

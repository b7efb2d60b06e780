// The runtime primitives the emitted code calls.
import t from 'tap';
import { createGenRuntime } from './fixtures/harness.js';

const times = (n, f) => Array.from({ length: n }, f);

t.test('numbers stay in range', (t) => {
  const g = createGenRuntime({ seed: 1 });
  t.ok(times(500, () => g.int(-2, 2)).every((v) => Number.isInteger(v) && v >= -2 && v <= 2));
  t.same(new Set(times(200, () => g.int(0, 3))), new Set([0, 1, 2, 3]), 'both ends are reachable');
  t.ok(times(500, () => g.int(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).every(Number.isSafeInteger));
  t.ok(times(500, () => g.float(0.5, 0.51)).every((v) => v >= 0.5 && v <= 0.51));
  t.ok(times(500, () => g.multiple(0, 100, 0.1)).every((v) => Number.isInteger(v / 0.1) && v >= 0 && v <= 10));
  t.end();
});

t.test('strings fit their bounds', (t) => {
  const g = createGenRuntime({ seed: 2 });
  t.ok(times(200, () => g.text(10, 12)).every((s) => s.length >= 10 && s.length <= 12));
  t.ok(times(200, () => g.text(0, 1)).every((s) => s.length <= 1));
  t.equal(g.fit('abcdef', 0, 3), 'abc');
  t.match(g.fit('ab', 5, 10), /^ab[a-z]{3}$/);
  t.match(g.uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.match(g.digits(3, 3), /^[1-9]\d\d$/);
  t.match(g.base64(), /^(?:[A-Za-z0-9+/]{4})+$/);
  t.end();
});

t.test('patterns are compiled once and honour length bounds', (t) => {
  const g = createGenRuntime({ seed: 3 });
  const digits = g.compilePattern('^\\d+$', 8);
  t.ok(times(100, () => g.pattern(digits, 15, 20)).every((s) => /^\d{15,20}$/.test(s)), 'too-short matches are padded');
  t.ok(times(100, () => g.pattern(digits, 0, 3)).every((s) => /^\d{1,3}$/.test(s)), 'too-long matches are trimmed');
  const hex = g.compilePattern('^[0-9a-f]{4}$', 8);
  t.equal(g.patternOr(hex, 'beef', 0, Infinity), 'beef', 'a matching value is kept');
  t.match(g.patternOr(hex, 'nope', 0, Infinity), /^[0-9a-f]{4}$/, 'a non-matching one is replaced');
  t.end();
});

t.test('collections', (t) => {
  const g = createGenRuntime({ seed: 4 });
  const sample = times(100, () => g.sample(['a', 'b', 'c'], 2, 5));
  t.ok(sample.every((s) => s.length >= 2 && s.length <= 3 && new Set(s).size === s.length));
  let calls = 0;
  const item = (d) => {
    calls++;
    return d;
  };
  t.same(g.array(item, 7, 2, 2), [7, 7], 'items get the given depth');
  t.equal(calls, 2);
  const unique = g.uniqueArray(() => g.int(1, 3), 0, 3, 3);
  t.same([...unique].sort(), [1, 2, 3]);
  t.same(g.uniqueArray(() => 'same', 0, 3, 3), ['same'], 'gives up rather than loop forever');
  const record = g.record(() => 1, 0, 2, 2);
  t.equal(Object.keys(record).length, 2);
  t.same(g.tag({ a: 1 }, 'kind', 'x'), { a: 1, kind: 'x' });
  t.equal(g.tag(null, 'kind', 'x'), null);
  const shared = { deep: [1] };
  t.not(g.clone(shared), shared);
  t.end();
});

t.test('the seed fixes every source of randomness', (t) => {
  const draw = (seed) => {
    const g = createGenRuntime({ seed, now: () => 0 });
    const pattern = g.compilePattern('^[A-Z][a-z]+-\\d{2,4}$', 8);
    return times(10, () => [
      g.uuid(), g.int(0, 1e6), g.float(0, 1), g.email(), g.fullName(), g.company(), g.street(), g.pattern(pattern, 0, Infinity),
      g.date(), g.sample([1, 2, 3, 4], 1, 4),
    ]);
  };
  t.same(draw(9), draw(9));
  t.notSame(draw(9), draw(10));
  t.end();
});

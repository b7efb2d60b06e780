// common/patterns: user patterns run in linear time, or are refused naming the construct.
import t from 'tap';
import { MAX_PATTERN_LENGTH, PatternError, compileLinear, compileRouteCondition, escapeLiteral } from '../../dist/common/patterns/index.js';

/**
 * How much longer `test` takes on `hostile` than on `plain`, an input of the same length that it
 * accepts after reading it whole: the same work for a linear-time engine (a ratio near 1), none
 * worth the name for a backtracking one, which never finishes the hostile input. Medians of
 * alternating runs of equal length (short inputs repeated to about 10,000 characters a run), so
 * that load on the machine slows both alike: a time limit (50 ms) is what load breaks.
 */
function slowdown(test, hostile, plain) {
  const times = { hostile: [], plain: [] };
  const repeats = Math.ceil(10_000 / plain.length);
  for (let run = 0; run < 9; run++) {
    for (const which of run % 2 === 0 ? ['hostile', 'plain'] : ['plain', 'hostile']) {
      const value = which === 'hostile' ? hostile : plain;
      const start = performance.now();
      for (let i = 0; i < repeats; i++) test(value);
      times[which].push(performance.now() - start);
    }
  }
  const median = (list) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)];
  return median(times.hostile) / median(times.plain);
}

t.test('pathological patterns answer in linear time', async (t) => {
  for (const [source, c, end] of [['(a+)+$', 'a', ''], ['(a|aa)+$', 'a', ''], ['(.*a){20}', 'a', ''], ['(x+x+)+y', 'x', 'y'], ['^(\\w+\\s?)*$', 'a', '']]) {
    const pattern = compileLinear(source, { whole: true });
    for (const length of [32, 64, 10_000]) {
      const hostile = `${c.repeat(length)}!`;
      const plain = `${c.repeat(length)}${end || c}`;
      t.ok(!pattern.test(hostile) && pattern.test(plain), `${source} on ${length + 1} characters: answered`);
      const ratio = slowdown((value) => pattern.test(value), hostile, plain);
      t.ok(ratio < 10, `${source} on ${length + 1} characters: ${ratio.toFixed(2)}x the time of an accepted input`);
    }
  }
});

t.test('matching: whole value or any part; flags', async (t) => {
  t.ok(compileLinear('ab+c', { whole: true }).test('abbbc'));
  t.notOk(compileLinear('ab+c', { whole: true }).test('xabcx'), 'whole: anchored at both ends');
  t.ok(compileLinear('ab+c').test('xabcx'), 'otherwise any part');
  t.ok(compileLinear('^Bearer ', {}).test('Bearer x'));
  t.ok(compileLinear('json', { flags: 'i' }).test('application/JSON'));
  t.ok(compileLinear('a.b', { flags: 's' }).test('a\nb'));
  t.ok(compileLinear('^b$', { flags: 'm' }).test('a\nb'));
  t.ok(compileLinear('x', { flags: 'gu' }).test('x'), 'g and u change nothing');
  t.ok(compileLinear('\\u0041\\u{42}', { whole: true }).test('AB'), 'JavaScript \\u escapes');
  t.ok(compileLinear('[\\\\u0041]', { whole: true }).test('u'), 'an escaped backslash is not a \\u escape');
  t.ok(compileLinear('(?<word>\\w+)-\\d{2,3}', { whole: true }).test('ab-123'), 'named groups and counted repetition');
  t.ok(compileLinear('plain.text', { whole: true }).test('plain.text'));
  t.ok(compileLinear('literal', { whole: true }).test('literal'));
  t.notOk(compileLinear('literal', { whole: true }).test('literally'));
  t.ok(compileLinear('literal').test('a literal one'));
  t.ok(compileLinear(escapeLiteral('/v1.0/{id}?(x)'), { whole: true }).test('/v1.0/{id}?(x)'), 'escapeLiteral');
});

t.test('constructs without a linear-time implementation are refused by name', async (t) => {
  const cases = [
    ['(a)\\1', /backreference \(\\1\)/],
    ['(?<n>a)\\k<n>', /named backreference/],
    ['(?=a)a', /lookahead/],
    ['(?!a)b', /negative lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /negative lookbehind/],
    ['(?>a+)b', /atomic group/],
  ];
  for (const [source, reason] of cases) {
    const error = t.throws(() => compileLinear(source), PatternError, source);
    t.match(error.message, reason, source);
    t.match(error.message, /cannot be matched in linear time/, source);
  }
  t.notOk(compileLinear('[(?=]x').test('y'), '(?= inside a class is literal text');
  t.ok(compileLinear('\\(?=x', { whole: true }).test('(=x'), 'an escaped parenthesis is literal text');
});

t.test('malformed patterns, unknown flags and oversized patterns are refused', async (t) => {
  t.match(t.throws(() => compileLinear('(a')).message, /^is not a valid pattern: missing closing \)/);
  t.match(t.throws(() => compileLinear('a{1001}')).message, /invalid repeat count/);
  t.match(t.throws(() => compileLinear('((a{100}){100}){100}')).message, /invalid repeat count/, 'a program too large to compile');
  t.match(t.throws(() => compileLinear('a', { flags: 'y' })).message, /flag "y"/);
  t.match(t.throws(() => compileLinear('a'.repeat(MAX_PATTERN_LENGTH + 1))).message, /at most 1000/);
});

t.test('route conditions: /pattern/flags or an exact value', async (t) => {
  const exact = compileRouteCondition('abc');
  t.ok(exact('abc'));
  t.notOk(exact('xabc'));
  t.notOk(exact(undefined));
  const pattern = compileRouteCondition('/^v\\d+$/i');
  t.ok(pattern('V2'));
  t.notOk(pattern(undefined));
  t.notOk(pattern('v2x'));
  t.throws(() => compileRouteCondition('/(a)\\1/'), PatternError);
  const hostile = compileRouteCondition('/(a+)+$/');
  const ratio = slowdown(hostile, `${'a'.repeat(64)}!`, 'a'.repeat(65));
  t.ok(ratio < 10, `hostile custom-route pattern: ${ratio.toFixed(2)}x the time of an accepted value`);
});

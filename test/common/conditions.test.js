// common/patterns: the one condition dialect ({equals}, {matches}, {present}, JSONPath) and the
// bounded JSONPath beneath it.
import t from 'tap';
import {
  JSONPATH_BASE_STEPS,
  JsonPathLimitError,
  MAX_JSONPATH_LENGTH,
  compileCondition,
  compileJsonPath,
  compileJsonPathConditions,
  firstValue,
  holds,
  holdsForAny,
  jsonPathHolds,
} from '../../dist/common/patterns/index.js';

const ORDER = { user: { role: 'admin', email: 'ann@example.com', id: 42 }, items: [{ sku: 'A-1', qty: 3 }, { sku: 'B-2', qty: 9, tags: ['gift'] }], note: null };

t.test('JSONPath selects values in document order (RFC 9535)', async (t) => {
  const values = (path, doc = ORDER) => compileJsonPath(path).values(doc);
  t.same(values('$.user.role'), ['admin']);
  t.same(values('$.items[*].sku'), ['A-1', 'B-2']);
  t.same(values('$.items[?@.qty > 5].sku'), ['B-2'], 'filters compare');
  t.same(values('$..sku'), ['A-1', 'B-2'], 'descendants');
  t.same(values('$.items[-1].qty'), [9], 'negative index');
  t.same(values('$.items[0:1].sku'), ['A-1'], 'slices');
  t.same(values("$.items[?@.tags[?@ == 'gift']].sku"), ['B-2'], 'nested filters');
  t.same(values('$.items[?length(@.sku) == 3].qty'), [3, 9], 'length()');
  t.same(values('$[?count(@[*]) == 2]'), [ORDER.items], 'count()');
  t.same(values("$.items[?match(@.sku, 'B-[0-9]')].qty"), [9], 'match() is the whole string');
  t.same(values("$.items[?match(@.sku, 'B')].qty"), [], 'match() is anchored');
  t.same(values("$.items[?search(@.sku, '-2')].qty"), [9], 'search() is any part');
  t.same(values("$[?search(@, '(?i)ANN')]", ORDER.user), ['ann@example.com'], 'inline flags');
  t.same(values("$[?match(@, 'a.b')]", ['a\nb', 'a\rb', 'axb']), ['axb'], 'I-Regexp: . is no line break');
  t.same(values('$.missing'), []);
  t.same(values('$.note'), [null], 'null is a value');
  t.same(values('$.constructor'), [], 'only the document\'s own members');
  t.same(values('$.__proto__', JSON.parse('{"__proto__": 1}')), [1]);
  t.equal(firstValue(compileJsonPath('$.items[*].qty'), ORDER), 3, 'firstValue: the first in document order');
  t.equal(firstValue(compileJsonPath('$.nothing'), ORDER), undefined);
  t.equal(firstValue(compileJsonPath('$.a'), undefined), undefined, 'no document');
});

t.test('paths are compiled once and refused with one line naming what to fix', async (t) => {
  const refused = (path, message) => t.throws(() => compileJsonPath(path), { name: 'PatternError', message }, path);
  refused('$.items[', /^is malformed: unclosed bracketed selection \(RFC 9535 syntax, e\.g\. \$\.user\.role/);
  refused('user.role', /^must start with \$, the document's root/);
  refused(`$.${'a'.repeat(MAX_JSONPATH_LENGTH)}`, new RegExp(`^is ${MAX_JSONPATH_LENGTH + 2} characters long; paths may have at most ${MAX_JSONPATH_LENGTH}$`));
  refused("$[?match(@.a, '(?=x)')]", /^calls match\(\) with the pattern "\(\?=x\)", which uses a lookahead/);
  refused("$[?search(@.a, '(a)\\\\1')]", /which uses a backreference/);
  refused("$[?match(@.a, '[')]", /which is not a valid pattern/);
  t.doesNotThrow(() => compileJsonPath("$[?match(@.a, $.pattern)]"), 'a pattern read from the document is compiled when evaluated');
});

t.test('filters are RFC 9535 expressions: nothing in a path runs as a script', async (t) => {
  globalThis.__scripted = false;
  for (const path of [
    "$[?(@.x = require('fs'))]",
    "$[?eval('globalThis.__scripted = true')]",
    "$[?(function(){ globalThis.__scripted = true })()]",
    '$[(@.length-1)]',
    '$[?(@.a && this.constructor)]',
    "$..[?@property == 'a']",
    '$[?@.a == 1; globalThis.__scripted = true]',
    '$[?`${globalThis.__scripted = true}`]',
  ]) {
    t.throws(() => compileJsonPath(path), { name: 'PatternError', message: /^is malformed: .*never scripts\)$/ }, path);
  }
  t.throws(() => compileJsonPath("$[?eval('x')]"), { message: /there is no function 'eval' \(filters may call length, count, value, match and search\)/ });
  // what looks like code but is valid RFC 9535 only selects members
  t.same(compileJsonPath('$[?@.constructor]').values([{}, { constructor: 1 }]), [{ constructor: 1 }]);
  t.equal(globalThis.__scripted, false, 'nothing ran');
});

t.test('conditions: {equals}, {matches}, {present}, plain values and each feature\'s bare strings', async (t) => {
  const c = (spec, shorthand = 'exact') => compileCondition(spec, shorthand);
  t.ok(holds(c({ equals: 'admin' }), 'admin'));
  t.notOk(holds(c({ equals: 'admin' }), 'Admin'));
  t.ok(holds(c({ equals: 5 }), '5'), 'a number equals its text (query and header values are text)');
  t.ok(holds(c({ equals: '5' }), 5));
  t.ok(holds(c(true), 'true'), 'a plain value is {equals}');
  t.ok(holds(c(null), null));
  t.notOk(holds(c(null), 'null'), 'null is not "null"');
  t.ok(holds(c({ equals: { a: [1, { b: 2 }] } }), { a: [1, { b: '2' }] }), 'objects and arrays compare deeply');
  t.notOk(holds(c({ equals: { a: 1 } }), { a: 1, b: 2 }), 'equals is not a partial match');
  t.ok(holds(c({ matches: 'ab+c' }), 'abbc'));
  t.notOk(holds(c({ matches: 'ab+c' }), 'xabcx'), 'the whole value');
  t.ok(holds(c({ matches: '\\d+' }), 42), 'a number matches by its text');
  t.notOk(holds(c({ matches: '.*' }), { a: 1 }), 'objects never match a pattern');
  t.ok(holds(c({ present: true }), ''));
  t.notOk(holds(c({ present: true }), undefined));
  t.ok(holds(c({ present: false }), undefined));
  t.notOk(holds(c({ present: false }), 'x'));
  t.notOk(holds(c({ equals: 'x' }), undefined), 'a value condition needs a value');
  t.ok(holdsForAny(c({ equals: 'b' }), ['a', 'b']), 'a repeated value: any of them');
  t.ok(holdsForAny(c({ present: false }), undefined));
  t.notOk(holdsForAny(c({ present: false }), ['a']));
  // bare strings keep the meaning they always had where they are written
  t.ok(holds(c('a.c', 'exact'), 'a.c'));
  t.notOk(holds(c('a.c', 'exact'), 'abc'), 'exact: override rules, chaos');
  t.ok(holds(c('/B+/i', 'route'), 'abbc'), 'route: /regex/flags matches any part (custom routes)');
  t.ok(holds(c('a.c', 'route'), 'a.c'));
  t.notOk(holds(c('a.c', 'route'), 'abc'), 'route: otherwise exact');
  t.ok(holds(c('a.c', 'regex'), 'abc'), 'regex: a whole-value pattern (runtime mocks)');
  t.notOk(holds(c('a.c', 'regex'), 'xabc'));
});

t.test('malformed conditions are refused naming the fix', async (t) => {
  const refused = (spec, message, shorthand = 'exact') => t.throws(() => compileCondition(spec, shorthand), { name: 'PatternError', message }, JSON.stringify(spec));
  refused({ regex: 'a' }, /^must be exactly one of \{equals: <value>\}, \{matches: "<regex>"\}, \{present: true\|false\}, or a plain value \(got \{"regex":"a"\}\); to compare with an object, write \{equals: \{\.\.\.\}\}$/);
  refused({ equals: 1, matches: '1' }, /^must be exactly one of/);
  refused({ matches: 5 }, /^matches must be a pattern string \(got 5\)$/);
  refused({ present: 'yes' }, /^present must be true or false/);
  refused([1], /^must be \{equals/);
  refused({ matches: '(a)\\1' }, /^the pattern "\(a\)\\\\1" uses a backreference/);
  refused('(?<=a)b', /^the pattern "\(\?<=a\)b" uses a lookbehind/, 'regex');
  refused('/[a-/', /^the pattern "\/\[a-\/" is not a valid pattern/, 'route');
  t.throws(() => compileJsonPathConditions({ '$.a': 'x', '$.b[': 'y' }, 'exact', 'match.json_path'), {
    message: /^match\.json_path\["\$\.b\["\]: the JSONPath is malformed: unclosed bracketed selection/,
  });
  t.throws(() => compileJsonPathConditions({ '$.a': { nope: 1 } }, 'exact', 'match.json_path'), { message: /^match\.json_path\["\$\.a"\]: must be exactly one of/ });
  t.throws(() => compileJsonPathConditions(['$.a'], 'exact', 'match.json_path'), { message: /^match\.json_path must map JSONPaths to conditions/ });
});

t.test('JSONPath conditions: a selected value satisfies it; {present: false}: nothing selected', async (t) => {
  const [role, vip, email, deleted, big] = compileJsonPathConditions(
    {
      '$.user.role': 'admin',
      "$.items[?@.tags[?@ == 'gift']]": { present: true },
      '$.user.email': { matches: '.*@example\\.com' },
      '$.deleted': { present: false },
      '$.items[*].qty': { equals: 9 },
    },
    'exact',
    'match.json_path',
  );
  for (const condition of [role, vip, email, deleted, big]) t.ok(jsonPathHolds(condition, ORDER), condition.path.source);
  const other = { user: { role: 'guest', email: 'x@example.org' }, items: [{ qty: 1 }], deleted: false };
  for (const condition of [role, vip, email, deleted, big]) t.notOk(jsonPathHolds(condition, other), `${condition.path.source} on another body`);
  t.notOk(jsonPathHolds(role, undefined), 'no JSON body: nothing selected');
  t.ok(jsonPathHolds(deleted, undefined), '{present: false} holds without a body');
});

/** Median time of `run` over alternating runs of each input, so that load slows both alike (never an absolute time). */
function slowdown(run, hostile, plain) {
  const times = { hostile: [], plain: [] };
  for (let i = 0; i < 7; i++) {
    for (const which of i % 2 === 0 ? ['hostile', 'plain'] : ['plain', 'hostile']) {
      const started = performance.now();
      run(which === 'hostile' ? hostile : plain);
      times[which].push(performance.now() - started);
    }
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return median(times.hostile) / median(times.plain);
}

/** A complete binary tree of arrays `depth` levels deep, every leaf 1: 2^(depth+1) - 1 values. */
const tree = (depth) => JSON.parse(JSON.stringify(Array.from({ length: depth }).reduce((v) => [v, v], 1)));
/** An array of [n] pairs: about as many values and bytes as tree(depth), nothing nested. */
const flat = (depth) => Array.from({ length: 2 ** depth }, (_, i) => [i]);

t.test('evaluation is bounded: linear in the document whatever the path', async (t) => {
  const depth = 13;
  const hostileTree = tree(depth);
  const plainFlat = flat(depth);
  t.ok(Math.abs(JSON.stringify(hostileTree).length - JSON.stringify(plainFlat).length) < JSON.stringify(plainFlat).length, 'inputs of comparable size');
  // what the meter stops: selectors repeated (4^13 nodes), filters and descendants nested (a power of the size)
  for (const source of ['$' + '[0,0,0,0]'.repeat(depth), '$..[?@..[?@..[?@..*]]]', '$..*..*..*..*', "$..[?@..[?match(@, '1')]]"]) {
    const path = compileJsonPath(source);
    t.throws(() => path.values(hostileTree), JsonPathLimitError, `${source}: stopped at the bound`);
    // a value no node has: every node is read (a presence test stops at the first one)
    const condition = compileJsonPathConditions({ [source]: { equals: 'never' } }, 'exact', 'w')[0];
    t.notOk(jsonPathHolds(condition, hostileTree), 'a condition past the bound does not hold');
    const plain = compileJsonPath('$..*');
    const ratio = slowdown((doc) => (doc === hostileTree ? jsonPathHolds(condition, doc) : plain.values(doc)), hostileTree, plainFlat);
    t.ok(ratio < 25, `${source} on a hostile body: ${ratio.toFixed(1)}x the time of reading a plain body of that size`);
  }
  const small = compileJsonPath('$' + '[0,0,0,0]'.repeat(8));
  t.throws(() => small.values(tree(8)), JsonPathLimitError, `${JSONPATH_BASE_STEPS} steps for a small document`);
  t.same(compileJsonPath('$[0,0][0,0]').values(tree(2)).length, 4, 'repeated selectors within the bound still select');
  // a descendant segment goes at most 64 levels deep
  const deep = JSON.parse(`${'['.repeat(100)}1${']'.repeat(100)}`);
  t.throws(() => compileJsonPath('$..*').values(deep), { name: 'JsonPathLimitError', message: /more than 64 levels deep/ });
});

t.test('match() and search() run in linear time, on patterns from the path or the document', async (t) => {
  const literal = compileJsonPath("$[?match(@, '(a+)+$')]");
  const fromDocument = compileJsonPath('$.values[?search(@, $.pattern)]');
  const hostile = [`${'a'.repeat(5000)}!`];
  const plain = [`${'a'.repeat(5001)}`];
  t.same(literal.values(hostile), []);
  t.same(literal.values(plain), plain);
  t.ok(slowdown((doc) => literal.values(doc), hostile, plain) < 10, 'a pattern that backtracks exponentially in RegExp');
  const doc = (values) => ({ pattern: '^(a|aa)+$', values });
  t.same(fromDocument.values(doc(hostile)), []);
  t.ok(slowdown((values) => fromDocument.values(doc(values)), hostile, plain) < 10, 'a pattern read from the body');
  t.same(compileJsonPath('$.v[?match(@, $.p)]').values({ p: '(?=a)', v: ['a'] }), [], 'a pattern the linear-time engine cannot run matches nothing');
  const dynamic = compileJsonPath('$.v[?match(@, $.p)]');
  const selected = Array.from({ length: 300 }, (_, i) => dynamic.values({ p: `x${i}`, v: [`x${i}`, 'y'] })[0]);
  t.same(selected, Array.from({ length: 300 }, (_, i) => `x${i}`), 'more distinct patterns from documents than the cache keeps');
  t.same(literal.values(plain), plain, 'a literal pattern still matches once others pushed it out of the cache');
});

// common/websocket: replay-script lines are checked one by one (every problem with its line and
// reason), captures are known to templates before they are set, and message conditions take
// regexes (linear time, named groups), JSONPaths and JSONPath conditions.
import t from 'tap';
import { compileMessageMatcher, parseScript, scriptText } from '../../dist/common/websocket/index.js';
import { compileCapturing } from '../../dist/common/patterns/index.js';

const problemsOf = (...lines) => parseScript(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')).problems;

t.test('every malformed line is reported with its number and reason, in line order', async (t) => {
  const problems = problemsOf(
    { ts: 0, dir: 'out', text: 'fine' },
    '{oops',
    { ts: -1, dir: 'out', text: 'x' },
    { ts: 0, dir: 'up', text: 'x' },
    { ts: 0, dir: 'out' },
    { ts: 0, dir: 'out', text: '!!', encoding: 'base64' },
    { ts: 0, dir: 'in', close: { code: 1000 } },
    { ts: 0, dir: 'out', close: { code: 1006 } },
    { ts: 0, dir: 'out', close: { reason: 'x'.repeat(124) } },
    { ts: 0, dir: 'in', waitFor: '(a)\\1' },
    { ts: 0, dir: 'in', waitFor: '$[' },
    { ts: 0, dir: 'out', text: '{{#if}}' },
    { ts: 0, dir: 'out', text: 'x', waitfor: 'typo' },
    { ts: 0, dir: 'in', capture: { '1bad': '$.x' } },
    '',
    '[1, 2]',
  );
  t.same(
    problems.map((p) => p.line),
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16],
    'blank lines are skipped, the rest reported',
  );
  const text = problems.map((p) => `${p.line}: ${p.message}`).join('\n');
  t.match(text, /2: is not JSON/);
  t.match(text, /3: ts must be milliseconds from the connection's opening, a number ≥ 0 \(got -1\)/);
  t.match(text, /4: dir must be "in" \(the client sends\) or "out" \(the mock sends\) \(got "up"\)/);
  t.match(text, /5: an "out" line needs text \(the message to send\) or close/);
  t.match(text, /6: text is not base64/);
  t.match(text, /7: close is for "out" lines/);
  t.match(text, /8: close\.code must be 1000 or 3000–4999/);
  t.match(text, /9: close\.reason is 124 bytes; a close frame holds at most 123/);
  t.match(text, /10: waitFor .*backreference/);
  t.match(text, /11: waitFor the JSONPath/);
  t.match(text, /12: text: /);
  t.match(text, /13: unknown field "waitfor"/);
  t.match(text, /14: waitFor \(capture name "1bad" must be letters/);
  t.match(text, /16: must be a JSON object/);
  t.same(parseScript('\n\n').problems, [{ line: 1, message: 'the script has no lines; write one JSON object per line, e.g. {"ts": 0, "dir": "out", "text": "hello"}' }]);
});

t.test('captures are declared for every line, so a template may use one before it is set', async (t) => {
  const { script, problems } = parseScript(
    [JSON.stringify({ ts: 0, dir: 'out', text: '{{order}} {{user}} {{message}}' }), JSON.stringify({ ts: 0, dir: 'in', waitFor: '^(?<user>\\w+)' }), JSON.stringify({ ts: 0, dir: 'in', capture: { order: '$.id' } })].join('\n'),
  );
  t.same(problems, []);
  t.same(script.vars.sort(), ['message', 'order', 'user']);
  t.equal(script.steps[1].dir, 'in');
  t.ok(script.steps[2].waitFor, 'an in line without waitFor waits for any message');
});

t.test('message conditions: regex with named groups, JSONPath, JSONPath conditions, captures', async (t) => {
  const regex = compileMessageMatcher('order (?<id>\\d+)');
  t.same(regex.test('new order 42 now'), { id: '42' }, 'any part of the text');
  t.equal(regex.test('no order'), undefined);
  const path = compileMessageMatcher('$.subscribe');
  t.same(path.test('{"subscribe":"news"}'), {});
  t.equal(path.test('{"other":1}'), undefined);
  t.equal(path.test('subscribe'), undefined, 'text that is not JSON selects nothing');
  const conditions = compileMessageMatcher({ '$.type': 'order', '$.qty': { matches: '^[0-9]+$' } }, { id: '$.id', all: '$' });
  t.same(conditions.test('{"type":"order","qty":3,"id":"o-1"}'), { id: 'o-1', all: '{"type":"order","qty":3,"id":"o-1"}' });
  t.equal(conditions.test('{"type":"order","qty":"x"}'), undefined);
  t.same(compileMessageMatcher('AQI=').test(new Uint8Array([1, 2])), {}, 'binary frames are tested as base64');
  t.throws(() => compileMessageMatcher(42), /must be a regex, a JSONPath starting with \$, or an object of JSONPath conditions/);
});

t.test('compileCapturing: named groups of the first match, empty for a group that took no part', async (t) => {
  const p = compileCapturing('(?<a>x)|(?<b>y)');
  t.same(p.names, ['a', 'b']);
  t.same(p.exec('zzy'), { a: '', b: 'y' });
  t.equal(p.exec('zzz'), undefined);
  t.throws(() => compileCapturing('(a+)+\\1'), /backreference/);
});

t.test('scriptText writes lines in the spec field order, one per line', async (t) => {
  t.equal(scriptText([{ dir: 'out', text: 'hi', ts: 5 }, { close: { code: 1000, reason: '' }, dir: 'out', ts: 9 }]), '{"ts":5,"dir":"out","text":"hi"}\n{"ts":9,"dir":"out","close":{"code":1000,"reason":""}}\n');
});

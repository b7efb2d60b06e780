// runtime/match: condition expressions (the conditional proxy's rules): the tokenizer, the parser
// with its positions, and what each kind of condition holds for.
import t from 'tap';
import { ExpressionError, MAX_EXPRESSION_DEPTH, compileExpression, parseExpression, tokenize } from '../../../dist/runtime/match/index.js';

/** A request as the Exchange shows it to an expression. */
const request = ({ headers = {}, query = {}, json } = {}) => ({ headers, query: new Map(Object.entries(query)), json });
const holds = (source, req) => compileExpression(source).holds(request(req));

t.test('tokens: a JSONPath stays whole across its filters, brackets and quotes', async (t) => {
  const kinds = tokenize(`AND($.items[?@.qty > 5 && @.name == 'a b)'].sku == "x", header['X-Y'] != '', query[v]>=2)`).map((token) => token.kind);
  t.same(kinds, ['word', '(', 'jsonpath', 'op', 'string', ',', 'header', 'op', 'string', ',', 'query', 'op', 'number', ')', 'end']);
  t.equal(tokenize(`$.items[?@.qty > 5 && @.name == 'a b)'].sku == 1`)[0].text, `$.items[?@.qty > 5 && @.name == 'a b)'].sku`);
  t.equal(tokenize(`'it\\'s'`)[0].value, "it's", 'a backslash escapes the quote');
  t.equal(tokenize('-2.5e1')[0].value, -25);
});

t.test('JSONPath comparisons on the JSON body', async (t) => {
  const json = { user: { role: 'admin', age: 41, tags: ['a', 'b'] }, items: [{ qty: 2 }, { qty: 9 }] };
  t.ok(holds("$.user.role == 'admin'", { json }));
  t.notOk(holds("$.user.role == 'viewer'", { json }));
  t.ok(holds("$.user.role != 'viewer'", { json }));
  t.ok(holds('$.user.age > 40', { json }));
  t.notOk(holds('$.user.age < 40', { json }));
  t.ok(holds('$.user.age >= 41', { json }) && holds('$.user.age <= 41', { json }));
  t.ok(holds("$.user.tags[*] == 'b'", { json }), 'any value a path selects');
  t.ok(holds('$.items[?@.qty > 5]', { json }), 'a path alone: it selects something');
  t.notOk(holds('$.items[?@.qty > 50]', { json }));
  t.ok(holds('$.user.age == "41"', { json }), 'a number equals its text');
  t.notOk(holds("$.user.role == 'admin'", {}), 'no JSON body: nothing is selected');
  t.notOk(holds("$.missing != 'x'", { json }), 'a comparison with a value the request lacks never holds');
  t.ok(holds('$.user.role', { json }) && !holds('$.nobody', { json }));
  t.ok(holds('$.flag == true', { json: { flag: true } }) && holds('$.none == null', { json: { none: null } }));
});

t.test('header and query checks', async (t) => {
  const req = { headers: { 'x-user-role': 'admin', 'x-empty': '' }, query: { version: ['2'], tag: ['a', 'b'] } };
  t.ok(holds("header[X-User-Role] == 'admin'", req), 'header names are case-insensitive');
  t.ok(holds("header[x-user-role] != ''", req));
  t.notOk(holds("header[x-empty] != ''", req), 'sent, but empty');
  t.notOk(holds("header[x-absent] != ''", req), 'not sent');
  t.ok(holds('header[x-user-role]', req) && !holds('header[x-absent]', req), 'a reference alone: present');
  t.ok(holds("query[version] == '2'", req));
  t.ok(holds('query[version] == 2', req), 'query values are text, equal to numbers of the same text');
  t.ok(holds('query[version] > 1', req), 'numeric text orders as a number');
  t.ok(holds("query[tag] == 'b'", req), 'a repeated parameter: any of its values');
  t.notOk(holds("query[nope] == ''", req));
  t.ok(holds("query['a b'] == 'c'", { query: { 'a b': ['c'] } }), 'a quoted name');
});

t.test('AND, OR, NOT, nested', async (t) => {
  const req = { headers: { 'x-beta': '1' }, query: { v: ['2'] }, json: { user: { role: 'admin' } } };
  t.ok(holds("AND($.user.role == 'admin', header[x-beta] != '')", req));
  t.notOk(holds("AND($.user.role == 'admin', header[x-beta] == '0')", req));
  t.ok(holds("OR($.user.role == 'viewer', query[v] == '2')", req));
  t.notOk(holds("OR($.user.role == 'viewer', query[v] == '3')", req));
  t.ok(holds("NOT($.user.role == 'viewer')", req));
  t.ok(holds("NOT(header[x-absent] == 'a')", req), 'NOT of a comparison with a missing value holds');
  t.ok(holds("and(NOT(or(query[v] == '1', query[v] == '3')), OR(header[x-beta] == '1', $.x))", req), 'nested, and in any case');
  t.ok(holds("AND($.user.role == 'admin')", req), 'one condition is enough');
});

t.test('a malformed expression is refused with the position of its mistake', async (t) => {
  const cases = [
    ["AND(header[x] == 'a' query[y] == 'b')", 22, /expected "," or "\)" in AND\(\.\.\.\), found query\[y\]/],
    ["$.user.role = 'admin'", 13, /expected a comparison \(==, !=, <, <=, >, >=\), found "="/],
    ["header[x] == 'abc", 14, /the string opened here is never closed/],
    ['$.items[?@.qty > 5', 8, /"\[" in the JSONPath is never closed/],
    ['$.a[', 4, /never closed/],
    ['$..[?length(@) > 1', 4, /never closed/],
    ['$.a.b. == 1', 1, /the JSONPath "\$\.a\.b\." is malformed/],
    ['NOT(header[a], header[b])', 14, /NOT takes one condition/],
    ['AND()', 5, /expected a condition inside AND/],
    ['OR(header[a]', 13, /found the end/],
    ["'admin'", 1, /a literal alone is no condition/],
    ["'a' == 'a'", 1, /compares two literals/],
    ['header[x] > true', 11, /> compares numbers or strings, not true/],
    ['header[] == 1', 8, /header\[\] needs a name/],
    ['header[x == 1', 14, /expected "\]" to close header\[/],
    ["role == 'admin'", 1, /unknown word "role"/],
    ['header[a] header[b]', 11, /expected the end of the condition/],
    ['header[a] == ', 14, /found the end/],
    ['header[a] == #', 14, /unexpected character "#"/],
    ['', 1, /found the end/],
  ];
  for (const [source, position, reason] of cases) {
    try {
      compileExpression(source);
      t.fail(`${source}: accepted`);
    } catch (e) {
      t.ok(e instanceof ExpressionError, `${source}: an ExpressionError`);
      t.equal(e.position, position, `${source}: position ${position}`);
      t.match(e.message, reason, source);
      t.match(e.message, new RegExp(`at position ${position}$`), 'the message ends with the position');
      t.notOk(e.message.includes('\n'), 'one line');
    }
  }
});

t.test('bounded: length and nesting', async (t) => {
  t.throws(() => parseExpression(`header[a] == '${'x'.repeat(5000)}'`), { message: /characters long; conditions may have at most 4096/ });
  const deep = `${'NOT('.repeat(MAX_EXPRESSION_DEPTH + 1)}header[a]${')'.repeat(MAX_EXPRESSION_DEPTH + 1)}`;
  t.throws(() => parseExpression(deep), { name: 'ExpressionError', message: /nest more than 32 deep/ });
  t.ok(compileExpression(`${'NOT('.repeat(MAX_EXPRESSION_DEPTH)}header[a]${')'.repeat(MAX_EXPRESSION_DEPTH)}`));
});

t.test('an evaluation stopped at its bound does not hold, NOT included', async (t) => {
  // 13 single-item arrays: each [0,0,0,0] selects the one item four times, 4^13 values in all
  let nested = 1;
  for (let i = 0; i < 13; i++) nested = [nested];
  const path = `$${'[0,0,0,0]'.repeat(13)}`;
  t.notOk(holds(`${path} == 2`, { json: nested }));
  t.notOk(holds(`NOT(${path} == 2)`, { json: nested }));
  t.ok(holds('$[0][0] == $[0][0]', { json: [[3]] }), 'two paths compare too');
});

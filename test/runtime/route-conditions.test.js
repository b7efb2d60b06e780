// runtime/match/route-conditions.ts: mock.yaml route conditions on query, headers and JSON body.
import t from 'tap';
import { compileRouteConditions, conditionsHold, containsPartial } from '../../dist/runtime/match/index.js';
import { parseQuery } from '../../dist/runtime/chain/exchange/query.js';

const route = (match) => compileRouteConditions(match);
const holds = (c, { query = '', headers = {}, body } = {}) => {
  let reads = 0;
  const result = conditionsHold(c, parseQuery(query), headers, () => (reads++, body));
  return { result, reads };
};

t.test('no conditions always hold and never read the body', (t) => {
  const c = route({});
  t.same(c, { query: [], headers: [], body: undefined, jsonPath: [], needsBody: false });
  t.same(holds(c), { result: true, reads: 0 });
  t.end();
});

t.test('exact query and header values', (t) => {
  const c = route({ query: { status: 'sold', page: '2' }, headers: { 'x-tenant': 'acme' } });
  t.equal(holds(c, { query: 'status=sold&page=2', headers: { 'x-tenant': 'acme' } }).result, true);
  t.equal(holds(c, { query: 'page=2&status=sold&extra=1', headers: { 'x-tenant': 'acme', other: 'x' } }).result, true, 'extra members do not matter');
  t.equal(holds(c, { query: 'status=sold', headers: { 'x-tenant': 'acme' } }).result, false, 'a missing query value');
  t.equal(holds(c, { query: 'status=Sold&page=2', headers: { 'x-tenant': 'acme' } }).result, false, 'case-sensitive values');
  t.equal(holds(c, { query: 'status=sold&page=2', headers: {} }).result, false, 'a missing header');
  t.equal(holds(c, { query: 'status=sold&status=x&page=2', headers: { 'x-tenant': 'acme' } }).result, true, 'the first occurrence counts');
  t.equal(holds(c, { query: 'status=x&status=sold&page=2', headers: { 'x-tenant': 'acme' } }).result, false);
  t.equal(holds(route({ query: { q: '' } }), { query: 'q' }).result, true, 'empty value');
  t.equal(holds(route({ query: { q: '' } }), {}).result, false, 'empty is not absent');
  t.equal(holds(route({ query: { q: 'a b' } }), { query: 'q=a+b' }).result, true, 'decoded query values');
  t.end();
});

t.test('/regex/ values are patterns', (t) => {
  const c = route({ query: { id: '/^[0-9]+$/' }, headers: { 'user-agent': '/curl/i' } });
  t.equal(holds(c, { query: 'id=123', headers: { 'user-agent': 'CURL/8.0' } }).result, true, 'flags apply');
  t.equal(holds(c, { query: 'id=12a', headers: { 'user-agent': 'curl' } }).result, false);
  t.equal(holds(c, { query: 'id=1', headers: {} }).result, false, 'absent never matches a pattern');
  t.equal(holds(route({ query: { q: '/.*/' } }), {}).result, false, 'not even .*');
  t.equal(holds(route({ query: { q: '/.*/' } }), { query: 'q=' }).result, true);
  t.equal(holds(route({ headers: { accept: '/json/' } }), { headers: { accept: 'application/json' } }).result, true, 'unanchored');
  t.equal(holds(route({ query: { p: '/a.b/' } }), { query: 'p=/a.b/' }).result, true, 'a value written /…/ is always a pattern');
  t.equal(holds(route({ query: { p: '//' } }), { query: 'p=//' }).result, true, '// is an exact value');
  t.equal(holds(route({ query: { p: '/x' } }), { query: 'p=/x' }).result, true, 'a leading slash alone is exact');
  t.end();
});

t.test('invalid patterns', (t) => {
  // compileRouteConditions runs when the server starts; a bad pattern in mock.yaml is not caught by `mock build`
  t.throws(() => route({ query: { q: '/[a-/' } }), { name: 'PatternError' }, 'unterminated class throws at serve time');
  t.throws(() => route({ query: { q: '/abc/z' } }), { name: 'PatternError', message: /flag "z"/ }, 'unknown flag throws at serve time');
  t.throws(() => route({ query: { q: '/(a)\\1/' } }), { name: 'PatternError', message: /backreference/ }, 'a construct without a linear-time form throws');
  t.end();
});

t.test('body conditions: partial deep match, read lazily', (t) => {
  const c = route({ query: { a: '1' }, body: { kind: 'cat', owner: { name: 'Ann' } } });
  t.equal(c.needsBody, true);
  t.same(holds(c, { query: 'a=2', body: { kind: 'cat', owner: { name: 'Ann' } } }), { result: false, reads: 0 }, 'query checked first, body not read');
  t.same(holds(c, { query: 'a=1', body: { kind: 'cat', age: 3, owner: { name: 'Ann', id: 1 } } }), { result: true, reads: 1 });
  t.equal(holds(c, { query: 'a=1', body: { kind: 'cat', owner: {} } }).result, false);
  t.equal(holds(c, { query: 'a=1', body: undefined }).result, false, 'no (or unparsable) body');
  t.equal(holds(route({ body: {} }), { body: { any: 1 } }).result, true, 'an empty object matches any object');
  t.equal(holds(route({ body: {} }), { body: 'text' }).result, false);
  t.equal(holds(route({ body: null }), { body: null }).result, true, 'null is a condition too');
  t.end();
});

t.test('containsPartial', (t) => {
  t.ok(containsPartial({ a: 1, b: 2 }, { a: 1 }));
  t.notOk(containsPartial({ a: 1 }, { a: 1, b: 2 }), 'expected members must be present');
  t.ok(containsPartial({ a: { b: { c: [1, 2] }, d: 1 } }, { a: { b: { c: [1, 2] } } }), 'nested');
  t.ok(containsPartial([{ id: 1, x: 1 }, { id: 2 }], [{ id: 1 }, { id: 2 }]), 'array elements match partially');
  t.notOk(containsPartial([1, 2, 3], [1, 2]), 'arrays must have the same length');
  t.notOk(containsPartial([2, 1], [1, 2]), 'in order');
  t.notOk(containsPartial({ 0: 1, length: 1 }, [1]), 'an array expects an array');
  t.ok(containsPartial([1], { 0: 1 }), 'an object condition reads arrays by index');
  t.ok(containsPartial(5, '5'), 'scalars compare as strings (conditions written in YAML)');
  t.ok(containsPartial('true', true));
  t.ok(containsPartial(null, null));
  t.notOk(containsPartial(undefined, 'undefined'), 'absent is not the string "undefined"');
  t.notOk(containsPartial(null, 'null'), 'null is not "null"');
  t.notOk(containsPartial({}, '[object Object]'), 'objects never equal a string');
  t.notOk(containsPartial(null, {}), 'null is not an object');
  t.notOk(containsPartial('x', { length: 1 }));
  t.end();
});

// common/coerce.ts: strings from URLs, headers and forms into their schema's types, per style.
import t from 'tap';
import { bracketPath, coerce, coerceShape, paramValue, setPath } from '../../dist/common/coerce.js';
import { parseQuery } from '../../dist/runtime/chain/exchange/query.js';

const param = (extra) => ({ name: 'p', in: 'query', required: false, kind: 'string', items: 'string', style: 'form', explode: true, ...extra });

t.test('coerce: integers', (t) => {
  t.equal(coerce('42', 'integer'), 42);
  t.equal(coerce('-7', 'integer'), -7);
  t.equal(coerce('007', 'integer'), 7);
  for (const s of ['1.5', '1e3', '', ' 1', '0x10', 'abc', '+1']) t.equal(coerce(s, 'integer'), s, `${JSON.stringify(s)} left for validation`);
  t.end();
});

t.test('coerce: numbers', (t) => {
  t.equal(coerce('1.5', 'number'), 1.5);
  t.equal(coerce('-2', 'number'), -2);
  t.equal(coerce('1e3', 'number'), 1000);
  for (const s of ['', '   ', 'abc', 'Infinity', '-Infinity', 'NaN', '1,5']) t.equal(coerce(s, 'number'), s, `${JSON.stringify(s)} left for validation`);
  // Number() also reads hex/binary/octal literals and pads: these are not decimal numbers in a URL
  t.equal(coerce('0x10', 'number'), '0x10', 'hex literal');
  t.equal(coerce(' 7 ', 'number'), ' 7 ', 'padded');
  t.end();
});

t.test('coerce: booleans, null and others', (t) => {
  t.equal(coerce('true', 'boolean'), true);
  t.equal(coerce('false', 'boolean'), false);
  for (const s of ['TRUE', '1', '0', 'yes', '']) t.equal(coerce(s, 'boolean'), s, `${JSON.stringify(s)} left for validation`);
  t.equal(coerce('', 'null'), null);
  t.equal(coerce('null', 'null'), null);
  t.equal(coerce('x', 'null'), 'x');
  for (const kind of ['string', 'any', 'object', 'array']) t.equal(coerce('12', kind), '12', kind);
  t.end();
});

t.test('form style, explode (the query default): one value per occurrence', (t) => {
  const p = param({ kind: 'array', items: 'integer' });
  t.same(paramValue(p, ['1', '2', 'x']), [1, 2, 'x']);
  t.same(paramValue(p, ['1,2']), ['1,2'], 'commas are data when exploded');
  t.same(paramValue(param({ kind: 'integer' }), ['5', '6']), 5, 'a scalar takes the first occurrence');
  t.same(paramValue(param({ kind: 'boolean' }), ['true']), true);
  t.same(paramValue(param(), ['a b']), 'a b');
  t.end();
});

t.test('form style, explode: false: comma-separated', (t) => {
  const p = param({ kind: 'array', items: 'number', explode: false });
  t.same(paramValue(p, ['1.5,2,x']), [1.5, 2, 'x']);
  t.same(paramValue(p, ['']), [], 'empty value: empty array');
  t.same(paramValue(p, ['1', '2']), [1], 'only the first occurrence is read');
  t.end();
});

t.test('spaceDelimited and pipeDelimited', (t) => {
  const query = parseQuery('s=1%202+3&p=a|b|c');
  t.same(paramValue(param({ kind: 'array', items: 'integer', style: 'spaceDelimited', explode: false }), query.get('s')), [1, 2, 3]);
  t.same(paramValue(param({ kind: 'array', items: 'string', style: 'pipeDelimited', explode: false }), query.get('p')), ['a', 'b', 'c']);
  t.same(paramValue(param({ kind: 'array', items: 'boolean', style: 'pipeDelimited', explode: false }), ['true|false']), [true, false]);
  t.end();
});

t.test('simple style (path and header)', (t) => {
  const path = param({ in: 'path', style: 'simple', explode: false, kind: 'array', items: 'integer' });
  t.same(paramValue(path, ['3,4,5']), [3, 4, 5]);
  t.same(paramValue({ ...path, kind: 'integer' }, ['12']), 12);
  const header = param({ in: 'header', style: 'simple', explode: false, kind: 'array', items: 'string' });
  t.same(paramValue(header, ['a,b']), ['a', 'b']);
  t.same(paramValue({ ...header, explode: true }, ['a,b']), ['a', 'b'], 'explode only matters for query form arrays');
  t.same(paramValue(param({ in: 'cookie', kind: 'array', items: 'integer' }), ['1,2']), [1, 2], 'cookie form arrays are comma-separated');
  t.end();
});

t.test('bracketPath and setPath: the bracket convention, bounded', (t) => {
  t.same(bracketPath('filter[status]'), ['filter', 'status']);
  t.same(bracketPath('items[0][price]'), ['items', '0', 'price']);
  t.same(bracketPath('expand[]'), ['expand', '']);
  for (const bad of ['plain', '[x]', 'a[b', 'a[b]c', 'a[b[c]]']) t.equal(bracketPath(bad), undefined, bad);
  const out = {};
  const where = 'query parameter';
  setPath(out, ['expand', ''], ['a'], where);
  setPath(out, ['expand', ''], ['b'], where);
  setPath(out, ['items', '0', 'price'], ['5'], where);
  setPath(out, ['tag'], ['x'], where);
  setPath(out, ['tag'], ['y'], where);
  for (const path of [['__proto__', 'polluted'], ['a', 'constructor', 'prototype', 'x'], ['a', 'prototype']]) {
    t.throws(() => setPath(out, path, ['1'], where), { name: 'ReservedKeyError', message: /^query parameter: "(__proto__|constructor|prototype)" is not accepted as a name/ }, path.join('.'));
  }
  setPath(out, 'a b c d e f g h i'.split(' '), ['deep'], where);
  setPath(out, ['m', 'hasOwnProperty', 'call'], ['1'], where);
  t.same(out, { expand: ['a', 'b'], items: { 0: { price: '5' } }, tag: ['x', 'y'], m: { hasOwnProperty: { call: '1' } } }, 'appends, nests, collects; no deeper than 8 levels; inherited names are keys of their own');
  t.equal({}.polluted, undefined);
  t.equal(typeof Object.prototype.hasOwnProperty.call, 'function', 'the inherited method is not walked into');
  t.end();
});

t.test('coerceShape: leaves, index-keyed arrays, alternatives in order', (t) => {
  t.same(coerceShape({ gt: '1', note: 'x' }, { object: { gt: 'integer' } }), { gt: 1, note: 'x' });
  t.same(coerceShape({ 1: '7', 0: '5' }, { array: 'integer' }), [5, 7], 'index keys in order');
  t.same(coerceShape('5', { array: 'integer' }), [5], 'a lone value where an array is declared');
  t.same(coerceShape({ gt: '1' }, { oneOf: [{ object: { gt: 'integer' } }, 'integer'] }), { gt: 1 });
  t.same(coerceShape('12', { oneOf: [{ object: {} }, 'integer'] }), 12);
  t.same(coerceShape('true', { oneOf: ['integer', 'boolean'] }), true, 'the first alternative that takes it');
  t.same(coerceShape('x', { oneOf: ['integer', 'boolean'] }), 'x', 'none does: left for validation');
  t.same(coerceShape({ a: { b: '2' } }, { object: {}, rest: { object: { b: 'number' } } }), { a: { b: 2 } }, 'additionalProperties');
  t.end();
});

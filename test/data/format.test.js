// The output formats of `mock data` (src/data/format.ts): json/yaml single value vs array, CSV flattening and quoting.
import t from 'tap';
import { parse as parseYaml } from 'yaml';
import { flattenRecord, formatValues } from '../../dist/src/data/format.js';
import { parseCsv } from './helpers.js';

t.test('json and yaml: one value alone, several as an array', async (t) => {
  t.equal(formatValues([{ a: 1 }], 'json'), '{\n  "a": 1\n}\n');
  t.same(JSON.parse(formatValues([1, 2], 'json')), [1, 2]);
  t.same(parseYaml(formatValues([{ a: 'x' }], 'yaml')), { a: 'x' });
  const shared = { k: 'v' };
  const yaml = formatValues([{ a: shared, b: shared }, { c: '123' }], 'yaml');
  t.notMatch(yaml, /[&*]a\d/, 'no anchors or aliases');
  t.same(parseYaml(yaml), [{ a: { k: 'v' }, b: { k: 'v' } }, { c: '123' }], 'strings that look like numbers stay strings');
});

t.test('flattenRecord: dotted columns, arrays as JSON text, empty objects, null, scalars', async (t) => {
  t.same([...flattenRecord({ a: 1, b: { c: true, d: { e: 'x' } }, f: [1, { g: 2 }], h: {}, i: null, j: 1.5 })], [
    ['a', '1'], ['b.c', 'true'], ['b.d.e', 'x'], ['f', '[1,{"g":2}]'], ['h', '{}'], ['i', ''], ['j', '1.5'],
  ]);
  t.same([...flattenRecord([1, 2])], [['value', '[1,2]']], 'a non-object value fills the column "value"');
  t.same([...flattenRecord('text')], [['value', 'text']]);
  t.same([...flattenRecord(null)], [['value', '']]);
});

t.test('csv: header is the union of keys in first-seen order; quoting survives commas, quotes and newlines', async (t) => {
  const text = formatValues([{ a: 'plain', b: { c: 'with, comma' } }, { d: 'say "hi"', a: 'line\nbreak' }, { b: { e: 1 } }], 'csv');
  const { header, rows } = parseCsv(text);
  t.same(header, ['a', 'b.c', 'd', 'b.e']);
  t.same(rows, [
    { a: 'plain', 'b.c': 'with, comma', d: '', 'b.e': '' },
    { a: 'line\nbreak', 'b.c': '', d: 'say "hi"', 'b.e': '' },
    { a: '', 'b.c': '', d: '', 'b.e': '1' },
  ]);
  t.match(text, /"with, comma"/);
  t.match(text, /"say ""hi"""/);
});

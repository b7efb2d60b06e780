// common/bounds: the ranges the configuration schema declares (x-bound), as the runtime reads them.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { BOUNDS, MAX_DELAY_MS, boundSchema, checkBound, withinBound } from '../../dist/common/bounds.js';

const schema = JSON.parse(readFileSync(new URL('../../src/config/schema.json', import.meta.url), 'utf8'));

t.test('the bounds are the schema definitions marked x-bound, nothing else', async (t) => {
  const marked = Object.entries(schema.definitions).filter(([, d]) => d['x-bound'] === true);
  t.same(Object.keys(BOUNDS), marked.map(([name]) => name));
  for (const [name, d] of marked) t.equal(BOUNDS[name].maximum, d.maximum, `${name}: maximum`);
  t.ok(MAX_DELAY_MS <= 2 ** 31 - 1, 'a delay at the bound is a timer Node can set');
  t.equal(MAX_DELAY_MS, 3_600_000, 'one hour');
});

t.test('checkBound: in range, or one sentence with the range and the value', async (t) => {
  t.equal(checkBound('delayMs', 0), undefined);
  t.equal(checkBound('delayMs', 3_600_000), undefined);
  t.equal(checkBound('delayMs', 1.5), undefined, 'a delay may have fractions');
  t.equal(checkBound('delayMs', 1.5, true), 'expected a whole number from 0 to 3600000, got 1.5');
  t.equal(checkBound('delayMs', 2 ** 31), 'expected a number from 0 to 3600000, got 2147483648');
  t.equal(checkBound('delayMs', -1), 'expected a number from 0 to 3600000, got -1');
  t.equal(checkBound('proxyTimeoutSeconds', 0), 'expected a number above 0 and at most 3600, got 0');
  t.equal(checkBound('requestsPerSecond', 1e-300), 'expected a number from 0.001 to 1000000, got 1e-300');
  t.equal(checkBound('burstSize', 2.5), 'expected a whole number from 0 to 1000000, got 2.5');
  for (const value of [NaN, Infinity, '5', null, undefined]) t.notOk(withinBound('delayMs', value), String(value));
});

t.test('boundSchema: the same range for Ajv', async (t) => {
  t.same(boundSchema('delayMs', true), { type: 'integer', minimum: 0, maximum: 3_600_000 });
  t.same(boundSchema('proxyTimeoutSeconds'), { type: 'number', exclusiveMinimum: 0, maximum: 3600 });
});

// common/json-depth: the nesting limit of admin input, and telling a stack overflow.
import t from 'tap';
import { MAX_JSON_DEPTH, isStackOverflow, nestsDeeperThan } from '../../dist/common/json-depth.js';

const nested = (levels) => JSON.parse('['.repeat(levels) + ']'.repeat(levels));

t.test('nestsDeeperThan counts arrays and objects, scalars are none', async (t) => {
  t.equal(MAX_JSON_DEPTH, 64);
  t.notOk(nestsDeeperThan(5, 0));
  t.ok(nestsDeeperThan([], 0));
  t.notOk(nestsDeeperThan(nested(64), 64));
  t.ok(nestsDeeperThan(nested(65), 64));
  t.ok(nestsDeeperThan({ a: [1, { b: { c: {} } }] }, 4), 'five levels');
  t.notOk(nestsDeeperThan({ a: [1, { b: { c: {} } }] }, 5));
  t.ok(nestsDeeperThan(nested(1_000_000), 64), 'a million levels: found without walking them (nor overflowing)');
});

t.test('isStackOverflow tells V8 stack overflows from other errors', async (t) => {
  let overflow;
  try {
    JSON.stringify(nested(1_000_000));
  } catch (e) {
    overflow = e;
  }
  t.ok(isStackOverflow(overflow));
  t.notOk(isStackOverflow(new RangeError('Invalid array length')));
  t.notOk(isStackOverflow(new Error('Maximum call stack size exceeded')));
});

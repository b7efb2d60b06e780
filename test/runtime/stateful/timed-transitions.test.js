// runtime/chain/stateful settle: timed transitions applied lazily, chained, cycles skipped whole.
import t from 'tap';
import { settle } from '../../../dist/runtime/chain/stateful/index.js';

const MIN = 60_000;
const timed = (entries) => new Map(entries.map(([from, to, ms]) => [from, { to, after: `${ms / MIN}m`, ms }]));
/** The transitions with a count of the lookups settle makes in them. */
function counting(transitions) {
  const counted = new Map(transitions);
  counted.lookups = 0;
  const get = counted.get.bind(counted);
  counted.get = (state) => {
    counted.lookups++;
    return get(state);
  };
  return counted;
}
const shop = timed([
  ['processing', 'shipped', 30 * MIN],
  ['shipped', 'delivered', 120 * MIN],
]);

t.test('nothing due: the same record', async (t) => {
  const record = { state: 'processing', enteredAt: 0 };
  t.equal(settle(record, 29 * MIN, shop), record);
  const still = { state: 'delivered', enteredAt: 0 };
  t.equal(settle(still, 1e12, shop), still, 'a state without a timed transition stays');
});

t.test('a due transition enters its state when the time ran out; several chain', async (t) => {
  t.same(settle({ state: 'processing', enteredAt: 0 }, 31 * MIN, shop), { state: 'shipped', enteredAt: 30 * MIN });
  t.same(settle({ state: 'processing', enteredAt: 0 }, 30 * MIN, shop), { state: 'shipped', enteredAt: 30 * MIN }, 'due exactly at the duration');
  t.same(settle({ state: 'processing', enteredAt: 0 }, 151 * MIN, shop), { state: 'delivered', enteredAt: 150 * MIN }, 'processing → shipped → delivered at once');
});

t.test('a cycle skips its whole rounds, so a long jump costs one round', async (t) => {
  // the transitions are looked up once per state the walk enters: the count is the cost
  const light = counting(
    timed([
      ['red', 'green', 10],
      ['green', 'red', 10],
    ]),
  );
  t.same(settle({ state: 'red', enteredAt: 0 }, 1005, light), { state: 'red', enteredAt: 1000 });
  t.same(settle({ state: 'red', enteredAt: 0 }, 1015, light), { state: 'green', enteredAt: 1010 });
  light.lookups = 0;
  t.same(settle({ state: 'red', enteredAt: 0 }, 25, light), { state: 'red', enteredAt: 20 });
  const twoRounds = light.lookups;
  light.lookups = 0;
  t.same(settle({ state: 'red', enteredAt: 0 }, 10 * 365 * 86_400_000 + 5, light), { state: 'red', enteredAt: 10 * 365 * 86_400_000 });
  t.ok(light.lookups <= twoRounds, `ten years of 10 ms lights cost what two rounds cost (${light.lookups} lookups, ${twoRounds} for two rounds)`);
  const zero = timed([
    ['a', 'b', 0],
    ['b', 'a', 0],
  ]);
  t.same(settle({ state: 'a', enteredAt: 0 }, 5, zero), { state: 'a', enteredAt: 0 }, 'a cycle of zero-length timers stays put');
});

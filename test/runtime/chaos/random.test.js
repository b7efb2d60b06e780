// runtime/chain/chaos random draws: seeded and repeatable, one draw per decision.
import t from 'tap';
import { chance, pickOne, seededRandom } from '../../../dist/runtime/chain/chaos/index.js';

const take = (random, n) => Array.from({ length: n }, () => random.next());

t.test('a seed fixes the sequence; none gives a random one', async (t) => {
  t.same(take(seededRandom(123), 50), take(seededRandom(123), 50));
  t.not(take(seededRandom(123), 5).join(), take(seededRandom(124), 5).join());
  t.not(take(seededRandom(), 5).join(), take(seededRandom(), 5).join());
  t.ok(take(seededRandom(5), 10_000).every((x) => x >= 0 && x < 1), 'uniform in [0, 1)');
});

t.test('chance: always one draw, so changing a probability does not shift later decisions', async (t) => {
  const a = seededRandom(8);
  const b = seededRandom(8);
  t.same([chance(a, 0), chance(a, 1), chance(a, -3), chance(a, 7)], [false, true, false, true]);
  take(b, 4);
  t.equal(a.next(), b.next(), 'four decisions, four draws');
});

t.test('pickOne: every entry, uniformly', async (t) => {
  const random = seededRandom(2);
  const counts = { 500: 0, 502: 0, 503: 0, 504: 0 };
  for (let i = 0; i < 4000; i++) counts[pickOne(random, [500, 502, 503, 504])]++;
  t.ok(Object.values(counts).every((c) => Math.abs(c - 1000) < 2.576 * Math.sqrt(4000 * 0.25 * 0.75)), JSON.stringify(counts));
  t.throws(() => pickOne(random, []), RangeError);
});

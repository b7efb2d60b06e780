// Subscriptions: fake events of the field's type every subscriptionIntervalMs, done after
// subscriptionMaxEvents, deterministic with a seed, and no timer left once a client stops.
import t from 'tap';
import { mockEngine } from './helpers.js';

const SDL = `
type Query { me: User }
type Subscription { userAdded(role: Role): User! ticks: Int! }
enum Role { ADMIN MEMBER }
type User { id: ID! name: String! role: Role! }
`;

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

async function collect(iterator) {
  const events = [];
  for await (const event of iterator) events.push({ at: performance.now(), event });
  return events;
}

t.test('N events at the interval, then done; each event differs; the same seed the same events', async (t) => {
  const engine = mockEngine(SDL, { subscriptionIntervalMs: 40, subscriptionMaxEvents: 4 });
  const prepared = engine.prepare('subscription ($role: Role) { userAdded(role: $role) { id name role } }');
  t.equal(prepared.operationType, 'subscription');
  const start = performance.now();
  const events = await collect(await prepared.subscribe({ role: 'ADMIN' }));
  t.equal(events.length, 4, 'subscriptionMaxEvents');
  events.forEach(({ at }, i) => t.ok(at - start >= 40 * (i + 1) - 5, `event ${i} after ${(40 * (i + 1))} ms (${(at - start).toFixed(0)})`));
  const payloads = events.map(({ event }) => event.data.userAdded);
  t.equal(new Set(payloads.map((p) => p.id)).size, 4, 'event n differs from event n+1');
  for (const p of payloads) t.match(p, { id: String, name: String, role: /^(ADMIN|MEMBER)$/ });
  const again = await collect(await mockEngine(SDL, { subscriptionIntervalMs: 10, subscriptionMaxEvents: 4 }).prepare('subscription ($role: Role) { userAdded(role: $role) { id name role } }').subscribe({ role: 'ADMIN' }));
  t.same(again.map(({ event }) => event.data.userAdded), payloads, 'deterministic with a seed');
  const other = await collect(await engine.prepare('subscription { userAdded(role: MEMBER) { id } }').subscribe({}));
  t.not(other[0].event.data.userAdded.id, payloads[0].id, 'arguments take part');
  t.equal(timers(), 0, 'no timer after completion');
});

t.test('return() stops the timer: no leak when a client leaves early, or never ends', async (t) => {
  const before = timers();
  const engine = mockEngine(SDL, { subscriptionIntervalMs: 30, subscriptionMaxEvents: 0 });
  const iterator = await engine.prepare('subscription { ticks }').subscribe({});
  const first = await iterator.next();
  t.type(first.value.data.ticks, 'number');
  const pending = iterator.next();
  t.equal(timers(), before + 1, 'one timer while waiting');
  await iterator.return();
  t.same(await pending, { done: true, value: undefined }, 'a pending next settles');
  t.equal(timers(), before, 'no timer left');
  t.same(await iterator.next(), { done: true, value: undefined });
});

t.test('bad variables: a result with errors, no iterator', async (t) => {
  const engine = mockEngine(SDL);
  const result = await engine.prepare('subscription ($role: Role!) { userAdded(role: $role) { id } }').subscribe({ role: 'NOPE' });
  t.equal(result.variablesRejected, true);
  t.match(result.errors, [{ message: /NOPE/, extensions: { code: 'BAD_USER_INPUT' } }]);
});

// runtime/chain/continuum: the ratio of a path by the spec's precedence (manual override, route
// rule, group override, time schedule, default), the schedule's curves on an injected clock, the
// continuum's scope and its seeded draws.
import t from 'tap';
import { CURVE_SHAPES, ContinuumState, checkContinuum, readSchedule, scheduleRatio } from '../../../dist/runtime/chain/continuum/index.js';

const START = Date.parse('2030-01-01T00:00:00Z');
const END = Date.parse('2030-01-02T00:00:00Z');
const schedule = { start_time: '2030-01-01T00:00:00Z', end_time: '2030-01-02T00:00:00Z', start_ratio: 0.2, end_ratio: 0.8, curve: 'linear' };

function state(config = {}, now = START + (END - START) / 2) {
  const clock = { now };
  const continuum = new ContinuumState({
    config: { enabled: true, default_ratio: 0.1, transition_mode: 'time_based', merge_strategy: 'field_level', time_schedule: schedule, ...config },
    seed: 1,
    clock: () => clock.now,
  });
  return { continuum, clock };
}

t.test('precedence, highest first: manual, route, group, schedule, default', async (t) => {
  const { continuum } = state({
    routes: [
      { pattern: '/api/users/*', ratio: 0.6, group: 'users' },
      { pattern: '/api/users/**', group: 'users' },
      { pattern: '/api/orders/**', group: 'orders' },
      { pattern: '/api/off/**', ratio: 0.9, enabled: false },
    ],
    groups: { users: 0.4 },
  });
  const at = (path) => continuum.ratioFor(path);
  t.same(at('/api/users/1'), { ratio: 0.6, level: 'route' }, 'a route rule with a ratio');
  t.same(at('/api/users/1/posts'), { ratio: 0.4, level: 'group' }, "a rule without a ratio takes its group's");
  t.same(at('/api/orders/1'), { ratio: 0.5, level: 'schedule' }, 'a group without a ratio: the schedule (half-way: 0.2 + 0.6 / 2)');
  continuum.setGroupRatio('orders', 0.3);
  t.same(at('/api/orders/1'), { ratio: 0.3, level: 'group' }, 'a group override set at run time');
  continuum.setPathRatio('/api/users/**', 0.05);
  t.same(at('/api/users/1'), { ratio: 0.05, level: 'manual' }, 'a manual override beats the route rule');
  continuum.setPathRatio('/api/users/1', 1);
  t.same(at('/api/users/1'), { ratio: 1, level: 'manual' }, 'the newest manual override wins');
  t.same(at('/api/users/2'), { ratio: 0.05, level: 'manual' });
  continuum.setPathRatio('/api/users/1', null);
  continuum.setPathRatio('/api/users/**', null);
  t.same(at('/api/users/1'), { ratio: 0.6, level: 'route' }, 'removed overrides give the level below back');
  t.notOk(continuum.covers('/api/off/1'), 'a disabled rule is skipped');
  const manual = state({ transition_mode: 'manual' }).continuum;
  t.same(manual.ratioFor('/x'), { ratio: 0.1, level: 'default' }, 'manual mode: the schedule is not read');
  t.equal(manual.advance(0.25), 0.35, 'advance steps the default ratio');
  t.equal(manual.advance(-1), 0, 'within 0..1');
});

t.test('the time schedule on the clock: time_based ramps, scheduled steps', async (t) => {
  const ramp = readSchedule(schedule);
  const steps = readSchedule({ ...schedule, curve: 'sigmoid' });
  t.equal(scheduleRatio(ramp, 'time_based', START - 1000), 0.2, 'before the start: start_ratio');
  t.equal(scheduleRatio(ramp, 'time_based', END + 1000), 0.8, 'after the end: end_ratio');
  t.ok(Math.abs(scheduleRatio(ramp, 'time_based', START + (END - START) / 4) - 0.35) < 1e-9, 'linear: a quarter of the way');
  t.equal(scheduleRatio(steps, 'scheduled', START - 1), undefined, 'scheduled, before start: the default ratio applies');
  t.equal(scheduleRatio(steps, 'scheduled', START), 0.2);
  t.equal(scheduleRatio(steps, 'scheduled', END - 1), 0.2, 'the curve is not used');
  t.equal(scheduleRatio(steps, 'scheduled', END), 0.8);
  t.equal(scheduleRatio(ramp, 'manual', START), undefined);
  for (const [curve, shape] of Object.entries(CURVE_SHAPES)) {
    t.ok(Math.abs(shape(0)) < 1e-12 && Math.abs(shape(1) - 1) < 1e-12, `${curve} runs from 0 to 1`);
    for (let p = 0; p < 1; p += 0.1) t.ok(shape(p + 0.1) >= shape(p), `${curve} never goes back`);
  }
  t.ok(CURVE_SHAPES.exponential(0.5) < 0.5 && Math.abs(CURVE_SHAPES.sigmoid(0.5) - 0.5) < 1e-12, 'exponential is slow first; sigmoid is half-way at half time');
  const { continuum, clock } = state();
  clock.now = START;
  t.equal(continuum.ratioFor('/x').ratio, 0.2, 'the state reads its clock on every request');
  clock.now = END;
  t.equal(continuum.ratioFor('/x').ratio, 0.8);
});

t.test('scope: every path without route rules; with them, their paths and the manual overrides', async (t) => {
  const everywhere = state().continuum;
  t.ok(everywhere.covers('/anything') && everywhere.mayApply({ path: '/v1/pets/{id}' }) && everywhere.mayApply(null));
  const { continuum } = state({ routes: [{ pattern: '/v1/users/**', ratio: 0.5 }] });
  t.ok(continuum.mayApply({ path: '/v1/users/{id}' }));
  t.notOk(continuum.mayApply({ path: '/v1/pets/{id}' }), 'a route no rule can reach: the stage is not there');
  t.ok(continuum.mayApply(null), 'unrouted requests may be the continuum’s');
  t.notOk(continuum.covers('/v1/pets/1'));
  let changes = 0;
  continuum.onChange(() => changes++);
  continuum.setPathRatio('/v1/pets/*', 0.5);
  t.ok(continuum.mayApply({ path: '/v1/pets/{id}' }) && continuum.covers('/v1/pets/1'), 'a manual override brings its paths in');
  continuum.setEnabled(false);
  t.notOk(continuum.mayApply({ path: '/v1/users/{id}' }), 'off: nowhere');
  t.equal(changes, 2, 'scope and on/off changes are announced');
});

t.test('the draws are seeded: the same seed, the same sequence', async (t) => {
  const sequence = (seed) => {
    const continuum = new ContinuumState({ config: { enabled: true, default_ratio: 0.3, transition_mode: 'manual', merge_strategy: 'weighted' }, seed, clock: () => 0 });
    return Array.from({ length: 50 }, () => continuum.draw());
  };
  t.same(sequence(7), sequence(7));
  t.not(JSON.stringify(sequence(7)), JSON.stringify(sequence(8)));
});

t.test('checks: an upstream when on, a schedule for the time-based modes, start before end, patterns', async (t) => {
  const base = { enabled: true, default_ratio: 0, transition_mode: 'manual', merge_strategy: 'field_level' };
  t.same(checkContinuum(base, 'reality_continuum', true), []);
  t.same(checkContinuum(base, 'reality_continuum', false), [
    'reality_continuum.enabled: the reality continuum needs an upstream: set proxy.upstream_url in mock.yaml (or MOCK_PROXY_UPSTREAM, or --proxy-target)',
  ]);
  t.match(checkContinuum({ ...base, transition_mode: 'time_based' }, 'reality_continuum', true), [/^reality_continuum\.transition_mode: time_based reads the ratio from time_schedule/]);
  t.match(checkContinuum({ ...base, time_schedule: { start_time: '2030-01-02T00:00:00Z', end_time: '2030-01-01T00:00:00Z' } }, 'rc', true), [/^rc\.time_schedule\.end_time: expected an instant after start_time/]);
  t.match(checkContinuum({ ...base, time_schedule: { start_time: '2030-01-02T00:00:00Z' } }, 'rc', true), [/^rc\.time_schedule\.end_time: required key is missing/]);
  t.match(checkContinuum({ ...base, routes: [{ pattern: `/${'a'.repeat(2000)}` }] }, 'rc', true), [/^rc\.routes\[0\]\.pattern: the glob is \d+ characters long/]);
});

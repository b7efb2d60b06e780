// runtime/chain/chaos: one check of a chaos profile document (mock.yaml's profiles, the Chaos API), and
// the caps on custom profiles (admin.limits.max_chaos_profiles, max_chaos_profile_bytes).
import t from 'tap';
import { BUILTIN_PROFILES, ChaosLimitError, ChaosSettingsError, ChaosState, checkProfile } from '../../../dist/runtime/chain/chaos/index.js';

const profile = (name, chaos_config = { latency: { enabled: true, fixed_delay_ms: 100 } }) => ({ name, description: '', tags: [], builtin: false, chaos_config });

t.test('the built-in profiles pass their own check', async (t) => {
  for (const builtin of BUILTIN_PROFILES) t.same(checkProfile(builtin, builtin.name), [], builtin.name);
});

t.test('bad documents: every problem, naming the key', async (t) => {
  t.same(checkProfile(profile('slow', { latency: { enabled: true, fixed_delay_ms: 1e10 } }), ''), ['chaos_config.latency.fixed_delay_ms: expected a number from 0 to 3600000, got 10000000000']);
  t.same(checkProfile(profile('slow', { fault_injection: { timeout_ms: 2 ** 31 } }), 'p'), ['p.chaos_config.fault_injection.timeout_ms: expected a whole number from 0 to 3600000, got 2147483648']);
  t.same(checkProfile(profile('slow', { rate_limit: { requests_per_second: 1e-300 } }), ''), ['chaos_config.rate_limit.requests_per_second: expected a number from 0.001 to 1000000, got 1e-300']);
  t.same(checkProfile({ name: 'a b', chaos_config: { bandwidth: 1 }, extra: 1 }, '').length, 3);
  t.same(checkProfile([], ''), ['the body: expected a chaos profile {"name": …, "chaos_config": {…}}, got []']);
});

t.test('custom profiles are capped in number and size; replacing one is not one more', async (t) => {
  const chaos = new ChaosState({ profileLimits: { count: 2, bytes: 1024 } });
  chaos.saveProfile(profile('a'));
  chaos.saveProfile(profile('b'));
  chaos.saveProfile(profile('b', { latency: { enabled: true, fixed_delay_ms: 5 } }));
  t.throws(() => chaos.saveProfile(profile('c')), { constructor: ChaosLimitError, limit: 'count', message: /admin\.limits\.max_chaos_profiles \(2\)/ });
  t.equal(chaos.profile('c'), undefined, 'not kept');
  chaos.deleteProfile('a');
  const large = { ...profile('c'), description: 'x'.repeat(1024) };
  t.throws(() => chaos.saveProfile(large), { constructor: ChaosLimitError, limit: 'size', message: /admin\.limits\.max_chaos_profile_bytes \(1024\)/ });
  t.throws(() => chaos.saveProfile(profile('c', { latency: { enabled: true, jitter_ms: -1 } })), { constructor: ChaosSettingsError, message: /jitter_ms: expected a number from 0 to 3600000/ });
  chaos.saveProfile(profile('c'));
  t.same(chaos.profiles().filter((p) => !p.builtin).map((p) => p.name), ['b', 'c']);
});

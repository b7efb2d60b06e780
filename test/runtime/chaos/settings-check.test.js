// runtime/chain/chaos checkChaosPatch: chaos settings checked by the definitions of mock.yaml's
// schema (the Chaos API's PUT chaos/config, a profile applied), then the rules across keys; every
// line names the key below `where`.
import t from 'tap';
import { checkChaosPatch, checkProfile, checkRouteChaos } from '../../../dist/runtime/chain/chaos/index.js';

const check = (patch) => checkChaosPatch(patch, 'chaos');

t.test('a patch: any block, any subset of its keys, enabled left out', async (t) => {
  t.same(check({}), []);
  t.same(check({ enabled: true, fault_injection: { http_error_probability: 0.5 } }), []);
  t.same(check({ traffic_shaping: { max_connections: 0 } }), [], 'max_connections 0 is the default, unlimited: what GET returns can be PUT back');
  t.same(check({ fault_injection: { error_pattern: { type: 'burst', count: 0, interval_ms: 0 } } }), [], 'a burst of 0 fails none');
});

t.test('each kind of value, said the same way', async (t) => {
  t.same(check({ enabled: 'yes' }), ['chaos.enabled: expected true or false, got "yes"']);
  t.same(check({ fault_injection: { http_error_probability: 2 } }), ['chaos.fault_injection.http_error_probability: expected a probability from 0.0 to 1.0, got 2']);
  t.same(check({ fault_injection: { connection_error_kind: 'rst' } }), ['chaos.fault_injection.connection_error_kind: expected one of http_503, tcp_reset, tcp_close, got "rst"']);
  t.same(check({ fault_injection: { http_errors: [503, 700] } }), ['chaos.fault_injection.http_errors[1]: expected an HTTP status (100-599), got 700']);
  t.same(check({ fault_injection: { timeout_ms: 1.5 } }), ['chaos.fault_injection.timeout_ms: expected a whole number from 0 to 3600000, got 1.5']);
  t.same(check({ rate_limit: { requests_per_second: 0 } }), ['chaos.rate_limit.requests_per_second: expected a number from 0.001 to 1000000, got 0']);
  t.same(check({ traffic_shaping: { packet_loss_percent: 101 } }), ['chaos.traffic_shaping.packet_loss_percent: expected a percentage from 0 to 100, got 101']);
  t.same(check({ circuit_breaker: { failure_threshold: 0 } }), ['chaos.circuit_breaker.failure_threshold: expected a whole number >= 1, got 0']);
  t.same(check({ bulkhead: { max_queue_size: -1 } }), ['chaos.bulkhead.max_queue_size: expected a whole number >= 0, got -1']);
  t.same(check({ bulkhead: 3 }), ['chaos.bulkhead: expected an object, got 3']);
  t.same(check([]), ['chaos: expected an object, got []']);
});

t.test('unknown keys: the key and the ones there are', async (t) => {
  t.same(check({ profile: 'slow_3g' }), ['chaos.profile: unknown setting (expected one of enabled, fault_injection, rate_limit, traffic_shaping, circuit_breaker, bulkhead)'], 'profiles have their own endpoints');
  t.same(check({ bulkhead: { max_queue: 1 } }), ['chaos.bulkhead.max_queue: unknown setting (expected one of enabled, max_concurrent_requests, max_queue_size)']);
  t.same(check(JSON.parse('{"rate_limit": {"__proto__": 1}}')), ['chaos.rate_limit.__proto__: unknown setting (expected one of enabled, requests_per_second, burst_size, per_ip, per_endpoint, headers)']);
});

t.test('what the schema cannot say: the rules across keys, patterns and CIDRs', async (t) => {
  t.same(check({ fault_injection: { error_pattern: { type: 'random' } } }), ['chaos.fault_injection.error_pattern.probability: random needs a probability from 0 to 1']);
  t.same(check({ fault_injection: { error_pattern: { type: 'burst', count: 2, interval_ms: 0 } } }), ['chaos.fault_injection.error_pattern.interval_ms: a burst needs interval_ms > 0 (count 2 in no time at all)']);
  t.match(check({ fault_injection: { request_matcher: { source_ips: ['10.0.0.0/33'] } } }), [/^chaos\.fault_injection\.request_matcher\.source_ips\[0\]: .*10\.0\.0\.0\/33/]);
});

t.test('profiles and route chaos: the same words', async (t) => {
  t.same(checkProfile({ name: 'a b', chaos_config: {} }, ''), ['name: expected a name of letters, digits, _ . - (at most 64), got "a b"']);
  t.same(checkProfile({ name: 'p', chaos_config: { latency: { fixed_delay_ms: 5 } } }, 'profile p'), ['profile p.chaos_config.latency.enabled: expected true or false']);
  t.same(checkProfile({ name: 'p', chaos_config: { fault_injection: { error_pattern: { type: 'random' } } } }, ''), ['chaos_config.fault_injection.error_pattern.probability: random needs a probability from 0 to 1']);
  t.same(checkRouteChaos({ fault_injection: { enabled: true, fault_types: [{ type: 'boom' }] } }, 'core.routes[0]'), ['core.routes[0].fault_injection.fault_types[0].type: expected one of http_error, timeout, connection_error, got "boom"']);
  t.same(checkRouteChaos({ fault_injection: { enabled: true, fault_types: [{ type: 'http_error' }] } }, ''), ['fault_injection.fault_types[0].status_code: expected an HTTP status (100-599)']);
  t.same(checkRouteChaos({ latency: { enabled: true, distribution: 'lognormal', p50_ms: 0, p99_ms: 5 } }, ''), ['latency.p50_ms: expected a number above 0 and at most 3600000, got 0']);
  t.same(checkRouteChaos({ latency: { enabled: true, distribution: 'lognormal', p50_ms: 10, p99_ms: 5 } }, '').length, 1, 'p99_ms below p50_ms: a rule across keys');
});

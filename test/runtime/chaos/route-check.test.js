// runtime/chain/chaos checkRouteChaos: one check of a route's chaos for core.routes[] and the route-chaos API.
import t from 'tap';
import { checkRouteChaos } from '../../../dist/runtime/chain/chaos/index.js';

t.test('what core.routes documents passes', async (t) => {
  t.same(
    checkRouteChaos(
      {
        latency: { enabled: true, probability: 0.5, distribution: 'lognormal', p50_ms: 80, p99_ms: 900, jitter_percent: 5 },
        fault_injection: { enabled: true, probability: 0.1, fault_types: [{ type: 'http_error', status_code: 503, message: 'busy' }, { type: 'timeout', duration_ms: 2000 }, { type: 'connection_error' }] },
      },
      'core.routes[0]',
    ),
    [],
  );
  t.same(checkRouteChaos({}, ''), [], 'nothing given, nothing wrong');
});

t.test('every delay is bounded, and every problem named', async (t) => {
  t.same(checkRouteChaos({ latency: { enabled: true, distribution: 'lognormal', p50_ms: 1, p99_ms: 1e308 } }, ''), ['latency.p99_ms: expected a number from 0 to 3600000, got 1e+308']);
  t.same(checkRouteChaos({ latency: { enabled: true, mean_ms: 10, std_dev_ms: 1e12 } }, 'core.routes[1]'), ['core.routes[1].latency.std_dev_ms: expected a number from 0 to 3600000, got 1000000000000'], 'even one its distribution does not read');
  t.same(checkRouteChaos({ fault_injection: { enabled: true, fault_types: [{ type: 'timeout', duration_ms: 2 ** 31 }] } }, ''), ['fault_injection.fault_types[0].duration_ms: expected a whole number from 0 to 3600000, got 2147483648']);
  t.same(checkRouteChaos({ fault_injection: { enabled: true, fault_types: [{ type: 'http_error', status_code: 99999 }] } }, ''), ['fault_injection.fault_types[0].status_code: expected an HTTP status (100-599), got 99999']);
  t.same(checkRouteChaos({ fault_injection: { enabled: 'yes', probability: 2, fault_types: [{ type: 'boom' }] } }, '').length, 3);
  t.same(checkRouteChaos({ latency: { enabled: true, distribution: 'normal', mean_ms: 5, sigma: 1 } }, ''), ['latency.sigma: unknown setting (expected one of enabled, probability, distribution, mean_ms, std_dev_ms, p50_ms, p99_ms, jitter_percent)']);
});

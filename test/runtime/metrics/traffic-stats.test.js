// runtime/control/metrics/traffic-stats.ts: counts per endpoint, error rates, percentiles, route rows, reset.
import t from 'tap';
import { TrafficStats } from '../../../dist/runtime/control/metrics/index.js';

const route = (method, path) => ({ key: `${method} ${path}`, method, path });
const listPets = route('GET', '/v1/pets');
const createPet = route('POST', '/v1/pets');
const getPet = route('GET', '/v1/pets/{petId}');

function fixedClock(start = Date.parse('2024-05-01T12:00:00.000Z')) {
  const clock = { ms: start, now: () => clock.ms };
  return clock;
}

t.test('counts requests and error rates per endpoint, unmatched requests in one bucket per method', async (t) => {
  const stats = new TrafficStats({ routes: [listPets, createPet, getPet] });
  for (const status of [200, 200, 200, 500]) stats.record(listPets, 'GET', status, 1, 'example');
  stats.record(createPet, 'POST', 201, 2, 'example');
  stats.record(createPet, 'POST', 400, 2, 'example');
  for (const path of ['/nope', '/nope/2', '/other']) stats.record(null, 'GET', 404, 0.1, 'example');
  stats.record(null, 'get', 404, 0.1, 'example');
  stats.record(null, 'DELETE', 405, 0.1, 'example');

  t.equal(stats.totalRequests, 11);
  t.same(stats.requestsByEndpoint(), {
    'GET /v1/pets': 4,
    'POST /v1/pets': 2,
    'GET <unmatched>': 4,
    'DELETE <unmatched>': 1,
  });
  t.same(stats.errorRateByEndpoint(), {
    'GET /v1/pets': 0.25,
    'POST /v1/pets': 0.5,
    'GET <unmatched>': 1,
    'DELETE <unmatched>': 1,
  });
});

t.test('memory stays bounded whatever methods arrive for unmatched requests', async (t) => {
  const stats = new TrafficStats({ routes: [] });
  for (let i = 0; i < 500; i++) stats.record(null, `FUZZ${i}`, 404, 0.1, 'example');
  stats.record(null, 'PATCH', 404, 0.1, 'example');
  t.same(stats.requestsByEndpoint(), { 'OTHER <unmatched>': 500, 'PATCH <unmatched>': 1 });
});

t.test('RouteRefs with the same key share counters (new build after a restart)', async (t) => {
  const stats = new TrafficStats({ routes: [listPets] });
  stats.record(listPets, 'GET', 200, 1, 'example');
  const rebuilt = route('GET', '/v1/pets');
  stats.setRoutes([rebuilt]);
  stats.record(rebuilt, 'GET', 200, 3, 'example');
  t.same(stats.requestsByEndpoint(), { 'GET /v1/pets': 2 });
  t.equal(stats.routeSummary(rebuilt).request_count, 2);
  t.equal(stats.routeSummary(listPets).request_count, 2, 'an old ref still finds its route by key');
});

t.test('routes that share a key (an operation, a mock.yaml route, runtime mocks) each count what they answered; the endpoint counts all', async (t) => {
  const operation = { ...listPets, id: 'description GET /v1/pets' };
  const custom = { ...listPets, id: 'custom_route GET /v1/pets {"query":{"kind":"cat"}}' };
  const mock = { ...listPets, id: 'mock GET /v1/pets' };
  const stats = new TrafficStats({ routes: [operation, custom] });
  for (let i = 0; i < 3; i++) stats.record(operation, 'GET', 200, 1, 'example');
  stats.record(custom, 'GET', 500, 1, 'custom_route');
  stats.record(mock, 'GET', 200, 1, 'runtime_mock');
  t.equal(stats.routeSummary(operation).request_count, 3, 'the operation: its own three');
  t.same([stats.routeSummary(custom).request_count, stats.routeSummary(custom).error_count, stats.routeSummary(custom).response_codes], [1, 1, { 500: 1 }], 'the custom route: its one, an error');
  t.equal(stats.routeSummary(mock).request_count, 1, 'the mock: its one');
  t.same(stats.requestsByEndpoint(), { 'GET /v1/pets': 5 }, 'the endpoint: all five');
  t.equal(stats.coverage().routes['/v1/pets'].methods.GET.request_count, 5);
  // a restart makes new RouteRefs: each finds its own numbers by id
  stats.setRoutes([{ ...operation }, { ...custom }]);
  t.equal(stats.routeSummary({ ...custom }).request_count, 1, 'kept across a restart');
  stats.record({ ...operation }, 'GET', 200, 1, 'example');
  t.equal(stats.routeSummary({ ...operation }).request_count, 4);
  t.same(stats.requestsByEndpoint(), { 'GET /v1/pets': 6 });
  stats.record(mock, 'GET', 200, 1, 'runtime_mock');
  t.equal(stats.routeSummary(mock).request_count, 2, 'a runtime mock outlives a restart, and so do its numbers');
  stats.forget(mock);
  t.equal(stats.routeSummary({ ...mock }).request_count, 0, 'a forgotten mock leaves nothing: a new one of the key starts at 0');
  t.same(stats.requestsByEndpoint(), { 'GET /v1/pets': 7 }, 'the documented endpoint keeps its counts');
  stats.reset();
  t.equal(stats.routeSummary({ ...operation }).request_count, 0, 'reset clears them too');
});

t.test('a key counted by one route until another counts there: the first keeps what it counted, the second starts from 0', async (t) => {
  const operation = { ...listPets, id: 'description GET /v1/pets' };
  const mock = { ...listPets, id: 'mock GET /v1/pets' };
  const stats = new TrafficStats({ routes: [operation] });
  stats.record(operation, 'GET', 200, 1, 'example');
  stats.record(operation, 'GET', 404, 3, 'example');
  t.equal(stats.routeSummary(operation).request_count, 2);
  t.equal(stats.routeSummary(mock).request_count, 0, 'a route of the key that answered nothing shows nothing');
  stats.record(mock, 'GET', 200, 1, 'runtime_mock');
  t.same(stats.routeSummary(operation), { request_count: 2, error_count: 1, last_request: stats.routeSummary(operation).last_request, latency_ms: 2, response_codes: { 200: 1, 404: 1 } }, 'the first route keeps its numbers');
  t.same([stats.routeSummary(mock).request_count, stats.routeSummary(mock).response_codes], [1, { 200: 1 }], 'the second has its own');
  stats.record(operation, 'GET', 200, 1, 'example');
  t.equal(stats.routeSummary(operation).request_count, 3, 'a ref that found the key before the split finds its own tally');
  t.same(stats.requestsByEndpoint(), { 'GET /v1/pets': 4 });

  // the sole route of a documented key goes: the key keeps its counts, the next route starts from 0
  const other = new TrafficStats({ routes: [operation] });
  other.record(mock, 'GET', 200, 1, 'runtime_mock');
  other.forget(mock);
  other.record(operation, 'GET', 200, 1, 'example');
  t.equal(other.routeSummary(operation).request_count, 1, 'not the forgotten mock\'s');
  t.same(other.requestsByEndpoint(), { 'GET /v1/pets': 2 });
});

t.test('percentiles come from every response time, in milliseconds', async (t) => {
  const stats = new TrafficStats({ routes: [listPets] });
  t.same(stats.percentiles(), { p50: 0, p95: 0, p99: 0 }, 'zero before any request');
  // 1..100 ms, shuffled so order does not matter.
  const values = Array.from({ length: 100 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
  for (const ms of values) stats.record(listPets, 'GET', 200, ms, 'example');
  const { p50, p95, p99 } = stats.percentiles();
  // Three significant digits: within 0.1 % of the exact value.
  t.ok(Math.abs(p50 - 50) <= 0.05, `p50 ${p50}`);
  t.ok(Math.abs(p95 - 95) <= 0.1, `p95 ${p95}`);
  t.ok(Math.abs(p99 - 99) <= 0.1, `p99 ${p99}`);

  const fast = new TrafficStats({ routes: [] });
  for (let i = 0; i < 99; i++) fast.record(null, 'GET', 404, 0.25, 'example');
  fast.record(null, 'GET', 404, 40, 'example');
  t.ok(Math.abs(fast.percentiles().p50 - 0.25) <= 0.001, 'sub-millisecond times keep microsecond resolution');
  t.ok(Math.abs(fast.percentiles().p99 - 0.25) <= 0.001);

  const odd = new TrafficStats({ routes: [] });
  for (const ms of [Number.NaN, -5, Infinity, 1e12]) odd.record(null, 'GET', 200, ms, 'example');
  t.equal(odd.totalRequests, 4, 'odd durations are counted, not thrown on');
  t.ok(Math.abs(odd.percentiles().p99 - 3_600_000) <= 3600, 'beyond an hour counts as an hour');
});

t.test('route summaries for the dashboard rows', async (t) => {
  const clock = fixedClock();
  const stats = new TrafficStats({ routes: [listPets, getPet], now: clock.now });
  t.same(stats.routeSummary(getPet), { request_count: 0, error_count: 0, last_request: null, latency_ms: 0, response_codes: {} });
  stats.record(getPet, 'GET', 200, 1, 'example');
  stats.record(getPet, 'GET', 404, 2, 'example');
  clock.ms += 1500;
  stats.record(getPet, 'GET', 200, 1.333, 'example');
  t.same(stats.routeSummary(getPet), {
    request_count: 3,
    error_count: 1,
    last_request: '2024-05-01T12:00:01.500Z',
    latency_ms: 1.44,
    response_codes: { 200: 2, 404: 1 },
  });
});

t.test('reset clears the counts and keeps the routes', async (t) => {
  const stats = new TrafficStats({ routes: [listPets] });
  stats.record(listPets, 'GET', 200, 5, 'example');
  stats.record(null, 'GET', 404, 5, 'example');
  stats.reset();
  t.equal(stats.totalRequests, 0);
  t.same(stats.requestsByEndpoint(), {});
  t.same(stats.errorRateByEndpoint(), {});
  t.same(stats.percentiles(), { p50: 0, p95: 0, p99: 0 });
  t.same(stats.routeSummary(listPets), { request_count: 0, error_count: 0, last_request: null, latency_ms: 0, response_codes: {} });
  t.same(Object.keys(stats.coverage().routes), ['/v1/pets']);
  stats.record(listPets, 'GET', 201, 1, 'example');
  t.same(stats.coverage().routes['/v1/pets'].methods.GET.response_codes, { 201: 1 }, 'old status codes are gone');
});

t.test('the default clock stamps the last request with the time of the current event-loop turn', async (t) => {
  const stats = new TrafficStats({ routes: [listPets] });
  // The clock is read once per turn, and earlier tests ran in this one.
  await new Promise((resolve) => setImmediate(resolve));
  const before = Date.now();
  stats.record(listPets, 'GET', 200, 1, 'example');
  const last = Date.parse(stats.routeSummary(listPets).last_request);
  t.ok(last >= before && last <= Date.now(), stats.routeSummary(listPets).last_request);
  await new Promise((resolve) => setTimeout(resolve, 20));
  stats.record(listPets, 'GET', 200, 1, 'example');
  t.ok(Date.parse(stats.routeSummary(listPets).last_request) >= last + 15, 'a later turn reads the clock again');
});

t.test('forget: a deleted runtime route leaves nothing behind, a documented one stays', async (t) => {
  const stats = new TrafficStats({ routes: [listPets] });
  const mocked = route('GET', '/m/1');
  const shadow = route('GET', '/v1/pets');
  stats.record(listPets, 'GET', 200, 1, 'example');
  stats.record(mocked, 'GET', 200, 1, 'example');
  stats.record(shadow, 'GET', 200, 1, 'example');
  t.same(Object.keys(stats.requestsByEndpoint()).sort(), ['GET /m/1', 'GET /v1/pets']);
  stats.forget(mocked);
  stats.forget(shadow);
  t.same(stats.requestsByEndpoint(), { 'GET /v1/pets': 2 }, 'a mock on a documented key keeps its counts');
  t.same(Object.keys(stats.coverage().routes), ['/v1/pets']);
  stats.record(mocked, 'GET', 200, 1, 'example');
  t.same(Object.keys(stats.requestsByEndpoint()), ['GET /v1/pets'], 'a late answer of the deleted mock does not bring it back');
  t.equal(stats.totalRequests, 4, 'but counts in the totals');
  const again = route('GET', '/m/1');
  stats.record(again, 'GET', 201, 1, 'example');
  t.same(stats.requestsByEndpoint()['GET /m/1'], 1, 'a new mock on the key starts from zero');
});

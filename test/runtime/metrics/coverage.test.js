// runtime/control/metrics/coverage.ts through TrafficStats.coverage(): the spec's CoverageReport.
import t from 'tap';
import { TrafficStats } from '../../../dist/runtime/control/metrics/index.js';

const route = (method, path) => ({ key: `${method} ${path}`, method, path });
const listPets = route('GET', '/v1/pets');
const createPet = route('POST', '/v1/pets');
const getPet = route('GET', '/v1/pets/{petId}');
const deletePet = route('DELETE', '/v1/pets/{petId}');
const health = route('GET', '/v1/health');
const documented = [listPets, createPet, getPet, deletePet, health];
const T0 = Date.parse('2024-05-01T12:00:00.000Z');

t.test('no traffic: every documented route and method, all zero', async (t) => {
  const report = new TrafficStats({ routes: documented }).coverage();
  t.same(report, {
    routes: {
      '/v1/pets': {
        method: 'GET, POST',
        path: '/v1/pets',
        methods: {
          GET: { request_count: 0, response_codes: {}, last_request: null },
          POST: { request_count: 0, response_codes: {}, last_request: null },
        },
        total_requests: 0,
        covered_methods: 0,
      },
      '/v1/pets/{petId}': {
        method: 'GET, DELETE',
        path: '/v1/pets/{petId}',
        methods: {
          GET: { request_count: 0, response_codes: {}, last_request: null },
          DELETE: { request_count: 0, response_codes: {}, last_request: null },
        },
        total_requests: 0,
        covered_methods: 0,
      },
      '/v1/health': {
        method: 'GET',
        path: '/v1/health',
        methods: { GET: { request_count: 0, response_codes: {}, last_request: null } },
        total_requests: 0,
        covered_methods: 0,
      },
    },
    total_routes: 3,
    covered_routes: 0,
    coverage_percentage: 0,
  });
});

t.test('traffic: counts, status codes and times per method; paths covered', async (t) => {
  let now = T0;
  const stats = new TrafficStats({ routes: documented, now: () => now });
  stats.record(listPets, 'GET', 200, 1, 'example');
  stats.record(listPets, 'GET', 200, 1, 'example');
  now += 2000;
  stats.record(listPets, 'GET', 500, 1, 'example');
  stats.record(getPet, 'GET', 404, 1, 'example');
  // Unmatched requests are not routes: they change nothing here.
  stats.record(null, 'GET', 404, 1, 'example');
  stats.record(null, 'POST', 405, 1, 'example');

  const report = stats.coverage();
  t.equal(report.total_routes, 3);
  t.equal(report.covered_routes, 2);
  t.equal(report.coverage_percentage, 66.67);
  t.same(report.routes['/v1/pets'], {
    method: 'GET, POST',
    path: '/v1/pets',
    methods: {
      GET: { request_count: 3, response_codes: { 200: 2, 500: 1 }, last_request: '2024-05-01T12:00:02.000Z' },
      POST: { request_count: 0, response_codes: {}, last_request: null },
    },
    total_requests: 3,
    covered_methods: 1,
  });
  t.same(report.routes['/v1/pets/{petId}'].methods.GET, { request_count: 1, response_codes: { 404: 1 }, last_request: '2024-05-01T12:00:02.000Z' });
  t.equal(report.routes['/v1/pets/{petId}'].covered_methods, 1);
  t.equal(report.routes['/v1/health'].total_requests, 0);
  t.notOk(Object.keys(report.routes).some((path) => path.includes('unmatched')));
  t.same(JSON.parse(JSON.stringify(report)), report, 'plain JSON');
});

t.test('runtime routes with traffic are listed without changing the totals', async (t) => {
  const stats = new TrafficStats({ routes: [listPets, health], now: () => T0 });
  const mockOnNewPath = route('GET', '/v1/mocked');
  const mockOnDocumentedPath = route('PUT', '/v1/pets');
  stats.record(mockOnNewPath, 'GET', 200, 1, 'example');
  stats.record(mockOnDocumentedPath, 'PUT', 200, 1, 'example');
  stats.record(route('GET', '/v1/unused-mock'), 'GET', 200, 1, 'example');
  stats.setRoutes([listPets, health]);

  const report = stats.coverage();
  t.same(report.routes['/v1/mocked'], {
    method: 'GET',
    path: '/v1/mocked',
    methods: { GET: { request_count: 1, response_codes: { 200: 1 }, last_request: '2024-05-01T12:00:00.000Z' } },
    total_requests: 1,
    covered_methods: 1,
  });
  t.equal(report.routes['/v1/pets'].method, 'GET, PUT');
  t.equal(report.routes['/v1/pets'].covered_methods, 1);
  t.equal(report.total_routes, 2);
  t.equal(report.covered_routes, 0, 'traffic on an undocumented method covers nothing');
  t.equal(report.coverage_percentage, 0);

  stats.record(health, 'GET', 200, 1, 'example');
  t.equal(stats.coverage().coverage_percentage, 50);
});

t.test('no documented routes: 0 %', async (t) => {
  const report = new TrafficStats({ routes: [] }).coverage();
  t.same(report, { routes: {}, total_routes: 0, covered_routes: 0, coverage_percentage: 0 });
});

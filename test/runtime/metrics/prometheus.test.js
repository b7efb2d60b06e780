// runtime/control/metrics/prometheus.ts: the Prometheus text exposition fed by TrafficStats.
import t from 'tap';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { createPrometheusMetrics, TrafficStats } from '../../../dist/runtime/control/metrics/index.js';

const route = (method, path) => ({ key: `${method} ${path}`, method, path });
const listPets = route('GET', '/v1/pets');
const getPet = route('GET', '/v1/pets/{petId}');

async function scrape(prometheus) {
  const families = parsePrometheusTextFormat(await prometheus.render());
  return Object.fromEntries(families.map((family) => [family.name, family]));
}

/**
 * One series of the duration histogram, parsed. The parser flattens every series of a labelled
 * histogram into one (and drops _sum and _count), so this keeps the lines of one label set and
 * takes those labels off before parsing; it returns null when the series is absent.
 */
function durationSeries(text, method, route) {
  const labels = `method="${method}",route="${route}"`;
  const lines = text.split('\n').filter((line) => line.startsWith('mock_http_request_duration_seconds') && line.includes(`{${labels}`));
  if (lines.length === 0) return null;
  const unlabelled = lines.map((line) => line.replace(`{${labels}}`, '').replace(`{${labels},`, '{'));
  const [family] = parsePrometheusTextFormat(`# TYPE mock_http_request_duration_seconds histogram\n${unlabelled.join('\n')}\n`);
  const [series] = family.metrics;
  return { count: Number(series.count), sum: Number(series.sum), buckets: Object.fromEntries(Object.entries(series.buckets).map(([le, n]) => [le, Number(n)])) };
}

/** The value of the sample whose labels are exactly `labels`, as a number; undefined when absent. */
function sample(family, labels) {
  const found = family.metrics.find((m) => JSON.stringify(Object.entries(m.labels ?? {}).sort()) === JSON.stringify(Object.entries(labels).sort()));
  return found === undefined ? undefined : Number(found.value);
}

t.test('request counters, errors and the duration histogram per route', async (t) => {
  const prometheus = await createPrometheusMetrics();
  const stats = new TrafficStats({ routes: [listPets, getPet], prometheus });
  t.match(prometheus.contentType, /^text\/plain; version=0\.0\.4/);

  stats.record(listPets, 'GET', 200, 0.2, 'example');
  stats.record(listPets, 'GET', 200, 3, 'example');
  stats.record(listPets, 'GET', 500, 700, 'example');
  stats.record(getPet, 'GET', 404, 1, 'example');
  stats.record(null, 'POST', 405, 0.1, 'example');

  const m = await scrape(prometheus);
  const requests = m.mock_http_requests_total;
  t.equal(requests.type, 'COUNTER');
  t.equal(sample(requests, { method: 'GET', route: '/v1/pets', status: '200', source: 'example' }), 2);
  t.equal(sample(requests, { method: 'GET', route: '/v1/pets', status: '500', source: 'example' }), 1);
  t.equal(sample(requests, { method: 'GET', route: '/v1/pets/{petId}', status: '404', source: 'example' }), 1);
  t.equal(sample(requests, { method: 'POST', route: '<unmatched>', status: '405', source: 'example' }), 1);
  t.equal(requests.metrics.length, 4);

  const errors = m.mock_http_request_errors_total;
  t.equal(errors.type, 'COUNTER');
  t.equal(errors.metrics.length, 3, 'only statuses of 400 and more');
  t.equal(sample(errors, { method: 'GET', route: '/v1/pets', status: '500', source: 'example' }), 1);
  t.equal(sample(errors, { method: 'POST', route: '<unmatched>', status: '405', source: 'example' }), 1);
  t.equal(sample(errors, { method: 'GET', route: '/v1/pets', status: '200', source: 'example' }), undefined);

  t.equal(m.mock_http_request_duration_seconds.type, 'HISTOGRAM');
  const text = await prometheus.render();
  const pets = durationSeries(text, 'GET', '/v1/pets');
  t.equal(pets.count, 3);
  t.ok(Math.abs(pets.sum - 0.7032) < 1e-9, `sum ${pets.sum} s`);
  t.same(pets.buckets, { '0.0005': 1, '0.001': 1, '0.0025': 1, '0.005': 2, '0.01': 2, '0.025': 2, '0.05': 2, '0.1': 2, '0.25': 2, '0.5': 2, '1': 3, '2.5': 3, '5': 3, '+Inf': 3 }, 'cumulative, 0.5 ms to 5 s');
  t.equal(durationSeries(text, 'GET', '/v1/pets/{petId}').count, 1);
  t.equal(durationSeries(text, 'POST', '<unmatched>').count, 1);
  t.equal(durationSeries(text, 'GET', '<unmatched>'), null);
  t.equal(text.split('\n').filter((line) => line.startsWith('mock_http_request_duration_seconds_count')).length, 3);
});

t.test('rate-limit violations per scope, from zero', async (t) => {
  const prometheus = await createPrometheusMetrics();
  let violations = (await scrape(prometheus)).chaos_rate_limit_violations_total;
  t.equal(violations.type, 'COUNTER');
  for (const scope of ['global', 'per_ip', 'per_endpoint']) t.equal(sample(violations, { scope }), 0, scope);
  prometheus.rateLimitViolation('per_ip');
  violations = (await scrape(prometheus)).chaos_rate_limit_violations_total;
  t.equal(sample(violations, { scope: 'per_ip' }), 1);
  t.equal(sample(violations, { scope: 'global' }), 0);
  t.equal(sample(violations, { scope: 'per_endpoint' }), 0);
});

t.test('default process metrics with the mock_ prefix', async (t) => {
  const m = await scrape(await createPrometheusMetrics());
  for (const name of ['mock_process_cpu_user_seconds_total', 'mock_process_resident_memory_bytes', 'mock_nodejs_heap_size_used_bytes', 'mock_nodejs_eventloop_lag_seconds']) {
    t.ok(m[name], name);
  }
  t.ok(Number(m.mock_process_resident_memory_bytes.metrics[0].value) > 0);
});

t.test('clearing the statistics does not make Prometheus counters go backwards', async (t) => {
  const prometheus = await createPrometheusMetrics();
  const stats = new TrafficStats({ routes: [listPets] });
  stats.record(listPets, 'GET', 200, 1, 'example');
  stats.attach(prometheus); // attaching later still exposes the counts so far
  stats.record(listPets, 'GET', 200, 1, 'example');
  stats.reset();
  stats.record(listPets, 'GET', 200, 1, 'example');
  stats.record(listPets, 'GET', 503, 1, 'example');
  t.equal(stats.totalRequests, 2);
  const m = await scrape(prometheus);
  t.equal(sample(m.mock_http_requests_total, { method: 'GET', route: '/v1/pets', status: '200', source: 'example' }), 3);
  t.equal(sample(m.mock_http_requests_total, { method: 'GET', route: '/v1/pets', status: '503', source: 'example' }), 1);
  t.equal(durationSeries(await prometheus.render(), 'GET', '/v1/pets').count, 3, 'observed since attaching');
  const again = await scrape(prometheus);
  t.equal(sample(again.mock_http_requests_total, { method: 'GET', route: '/v1/pets', status: '200', source: 'example' }), 3, 'a scrape changes nothing');
});

t.test('two instances in one process keep their own registries', async (t) => {
  const a = await createPrometheusMetrics();
  const b = await createPrometheusMetrics();
  const statsA = new TrafficStats({ routes: [listPets], prometheus: a });
  new TrafficStats({ routes: [listPets], prometheus: b });
  statsA.record(listPets, 'GET', 200, 1, 'example');
  a.rateLimitViolation('global');
  const [ma, mb] = [await scrape(a), await scrape(b)];
  t.equal(sample(ma.mock_http_requests_total, { method: 'GET', route: '/v1/pets', status: '200', source: 'example' }), 1);
  t.equal(mb.mock_http_requests_total.metrics.length, 0);
  t.equal(sample(ma.chaos_rate_limit_violations_total, { scope: 'global' }), 1);
  t.equal(sample(mb.chaos_rate_limit_violations_total, { scope: 'global' }), 0);
  t.ok(mb.mock_process_resident_memory_bytes, 'default metrics in both');
  t.not(a.registry, b.registry);
});

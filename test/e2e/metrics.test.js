// The Prometheus endpoint of `mock serve --metrics` (docs/admin.md "Prometheus metrics"): the text
// format, request counters, error counters and the duration histogram after real traffic, the rate
// limit violation counter, process metrics, other paths, mock.yaml settings and a taken port.
import t from 'tap';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { root, startMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples/petstore.yaml');
const out = tmpdir();
const server = await startMock(['--spec', petstore, '--out', out, '--metrics', '--metrics-port', '0']);
t.teardown(() => server.stop());

const scrape = async (base = server.metricsUrl) => {
  const res = await fetch(`${base}/metrics`);
  return { res, text: await res.text() };
};
const families = (text) => Object.fromEntries(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
/** The samples of a counter family as `{ 'GET /v1/pets 200': value }` (labels method, route, status). */
const counts = (family) => Object.fromEntries((family?.metrics ?? []).map((m) => [`${m.labels.method} ${m.labels.route} ${m.labels.status}`, Number(m.value)]));
/**
 * `_count` of a labelled histogram, read from the text itself (the parser drops it for labelled
 * histograms). Label order as the server writes it: method, route.
 */
const histogramLine = (text, suffix, method, route) => {
  const line = text.split('\n').find((l) => l.startsWith(`mock_http_request_duration_seconds_${suffix}{method="${method}",route="${route}"}`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};
const buckets = (text, method, route) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`mock_http_request_duration_seconds_bucket{method="${method}",route="${route}",`))
    .map((l) => ({ le: /le="([^"]+)"/.exec(l)[1], value: Number(l.slice(l.lastIndexOf(' ') + 1)) }));

const send = async (method, p, { headers = {}, body } = {}) => {
  const res = await fetch(`${server.url}${p}`, { method, headers, body });
  await res.arrayBuffer();
  return res.status;
};
const json = { 'content-type': 'application/json' };

t.test('the metrics URL is printed and answers Prometheus text before any traffic', async (t) => {
  t.ok(server.metricsUrl, `"metrics on" line printed:\n${server.stdout}`);
  t.not(new URL(server.metricsUrl).port, new URL(server.url).port, 'a port of its own');
  t.not(new URL(server.metricsUrl).port, '9090', 'port 0 picked a free one');
  const { res, text } = await scrape();
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const f = families(text);
  t.same(counts(f.mock_http_requests_total), {}, 'no requests counted yet');
  t.match(text, /# TYPE mock_http_requests_total counter/);
  t.match(text, /# TYPE mock_http_request_errors_total counter/);
  t.match(text, /# TYPE mock_http_request_duration_seconds histogram/);
});

t.test('after real traffic: request counters, error counters and the duration histogram', async (t) => {
  const plan = [
    ...Array(3).fill(['GET', '/v1/pets', {}, 200]),
    ...Array(2).fill(['GET', '/v1/pets/1', {}, 200]),
    ['GET', '/v1/pets/1', { headers: { prefer: 'code=404' } }, 404],
    ['POST', '/v1/pets', { headers: json, body: JSON.stringify({ name: 'Kit', kind: 'cat' }) }, 201],
    ['POST', '/v1/pets', { headers: json, body: JSON.stringify({ kind: 'cat' }) }, 400],
    ['DELETE', '/v1/pets/7', {}, 204],
    ['GET', '/nowhere', {}, 404],
    ['PATCH', '/v1/pets', {}, 405],
  ];
  for (const [method, p, init, status] of plan) t.equal(await send(method, p, init), status, `${method} ${p} → ${status}`);
  // the management router is not mock traffic
  t.equal((await fetch(`${server.url}/__mock/stats`)).status, 200);

  const { text } = await scrape();
  const f = families(text);
  t.equal(f.mock_http_requests_total.type, 'COUNTER');
  const requests = counts(f.mock_http_requests_total);
  t.same(
    requests,
    {
      'GET /v1/pets 200': 3,
      'GET /v1/pets/{petId} 200': 2,
      'GET /v1/pets/{petId} 404': 1,
      'POST /v1/pets 201': 1,
      'POST /v1/pets 400': 1,
      'DELETE /v1/pets/{petId} 204': 1,
      'GET <unmatched> 404': 1,
      'PATCH <unmatched> 405': 1,
    },
    'mock_http_requests_total: method, route pattern and status, exact counts',
  );
  t.notOk(Object.keys(requests).some((k) => k.includes('/__mock')), 'management requests are not counted');
  t.same(
    counts(f.mock_http_request_errors_total),
    { 'GET /v1/pets/{petId} 404': 1, 'POST /v1/pets 400': 1, 'GET <unmatched> 404': 1, 'PATCH <unmatched> 405': 1 },
    'mock_http_request_errors_total: statuses >= 400 only',
  );

  t.equal(f.mock_http_request_duration_seconds?.type, 'HISTOGRAM');
  const perRoute = { 'GET /v1/pets': 3, 'GET /v1/pets/{petId}': 3, 'POST /v1/pets': 2, 'DELETE /v1/pets/{petId}': 1, 'GET <unmatched>': 1, 'PATCH <unmatched>': 1 };
  for (const [key, expected] of Object.entries(perRoute)) {
    const [method, route] = key.split(' ');
    t.equal(histogramLine(text, 'count', method, route), expected, `${key}: _count is the requests on the route`);
    const sum = histogramLine(text, 'sum', method, route);
    t.ok(sum > 0 && sum < expected * 5, `${key}: _sum ${sum} s is positive and plausible`);
    const b = buckets(text, method, route);
    t.ok(b.length >= 10, `${key}: ${b.length} buckets`);
    t.equal(b.at(-1).le, '+Inf');
    t.equal(b.at(-1).value, expected, '+Inf bucket = count');
    for (let i = 1; i < b.length; i++) t.ok(b[i].value >= b[i - 1].value, `${key}: buckets are cumulative`);
    t.ok(Number(b[0].le) <= 0.0005 && Number(b.at(-2).le) >= 5, `${key}: buckets span 0.5 ms … 5 s`);
  }
  const histogramSeries = new Set(text.split('\n').filter((l) => l.startsWith('mock_http_request_duration_seconds_count{')).map((l) => /route="([^"]+)"/.exec(l)[1]));
  t.same([...histogramSeries].sort(), ['/v1/pets', '/v1/pets/{petId}', '<unmatched>'], 'histogram labels are method and route pattern');
});

t.test('each scrape reflects new requests; scrapes themselves are not counted', async (t) => {
  const before = counts(families((await scrape()).text).mock_http_requests_total);
  await scrape();
  t.equal(await send('GET', '/v1/health'), 200);
  const { text } = await scrape();
  const after = counts(families(text).mock_http_requests_total);
  t.equal(after['GET /v1/health 200'], 1, 'the new request is counted once');
  t.same({ ...after, 'GET /v1/health 200': undefined }, { ...before, 'GET /v1/health 200': undefined }, 'nothing else changed');
  t.equal(histogramLine(text, 'count', 'GET', '/v1/health'), 1);
});

t.test('chaos_rate_limit_violations_total per scope, at 0', async (t) => {
  const f = families((await scrape()).text);
  const family = f.chaos_rate_limit_violations_total;
  t.ok(family, 'the family is exposed');
  t.equal(family.type, 'COUNTER');
  t.same(Object.fromEntries(family.metrics.map((m) => [m.labels.scope, Number(m.value)])), { global: 0, per_ip: 0, per_endpoint: 0 });
});

t.test('process metrics carry the mock_ prefix', async (t) => {
  const { text } = await scrape();
  const f = families(text);
  for (const name of ['mock_process_cpu_user_seconds_total', 'mock_process_cpu_system_seconds_total', 'mock_process_start_time_seconds', 'mock_nodejs_heap_size_total_bytes', 'mock_nodejs_eventloop_lag_seconds']) {
    t.ok(f[name], `${name} is exposed`);
  }
  const resident = f.mock_process_resident_memory_bytes;
  if (resident) t.ok(Number(resident.metrics[0].value) > 1e6, 'resident memory in bytes');
  const start = Number(f.mock_process_start_time_seconds.metrics[0].value);
  t.ok(Math.abs(start - Date.now() / 1000) < 600, 'process start time is recent, in seconds');
  for (const name of Object.keys(f)) t.match(name, /^(mock_|chaos_)/, `${name}: own prefix`);
  t.notOk(f.process_cpu_user_seconds_total, 'no unprefixed default metrics');
});

t.test('only /metrics answers on the metrics port', async (t) => {
  for (const p of ['/', '/metricsx', '/v1/pets', '/__mock/health']) {
    const res = await fetch(`${server.metricsUrl}${p}`);
    t.equal(res.status, 404, `${p} → 404`);
    t.match(await res.text(), /\/metrics/, 'names where the metrics are');
  }
  const trailing = await fetch(`${server.metricsUrl}/metrics/`);
  t.equal(trailing.status, 200, '/metrics/ too');
  await trailing.text();
  const postRes = await fetch(`${server.metricsUrl}/metrics`, { method: 'POST', body: 'x' });
  t.equal(postRes.status, 405);
  t.equal(postRes.headers.get('allow'), 'GET, HEAD');
  const head = await fetch(`${server.metricsUrl}/metrics`, { method: 'HEAD' });
  t.equal(head.status, 200);
});

t.test('mock.yaml settings, and a taken port (started side by side)', async (t) => {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    // builds into <dir>/generated, so the main server's build stays up to date for the taken-port case
    [`specs:`, `  - ${JSON.stringify(petstore)}`, `metrics:`, `  enabled: true`, `  port: 0`, ''].join('\n'),
  );
  const takenPort = new URL(server.metricsUrl).port;
  const [fromYaml, taken] = await Promise.allSettled([
    startMock([], { cwd: dir }),
    startMock(['--spec', petstore, '--out', out, '--metrics', '--metrics-port', takenPort]),
  ]);
  for (const started of [fromYaml, taken]) if (started.status === 'fulfilled') t.teardown(() => started.value.stop());

  t.test('metrics.enabled: true and metrics.port: 0 in mock.yaml start the endpoint', async (t) => {
    t.equal(fromYaml.status, 'fulfilled', String(fromYaml.reason ?? ''));
    const s = fromYaml.value;
    t.ok(s.metricsUrl, `"metrics on" printed:\n${s.stdout}`);
    t.not(new URL(s.metricsUrl).port, '9090');
    t.equal(await fetch(`${s.url}/v1/pets/1`).then((r) => r.status), 200);
    const res = await fetch(`${s.metricsUrl}/metrics`);
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    t.same(counts(families(await res.text()).mock_http_requests_total), { 'GET /v1/pets/{petId} 200': 1 }, 'its own counters');
  });

  t.test('a taken metrics port: one-line error naming the port and --metrics-port, non-zero exit', async (t) => {
    t.equal(taken.status, 'rejected', 'the second server does not start');
    if (taken.status !== 'rejected') return;
    const e = taken.reason;
    t.not(e.code, 0, `exit code ${e.code}`);
    t.not(e.code, null);
    const lines = e.stderr.trim().split('\n');
    t.equal(lines.length, 1, `one line: ${e.stderr}`);
    t.match(lines[0], `port ${takenPort}`);
    t.match(lines[0], '--metrics-port');
    t.notMatch(e.stdout, /serving on/, 'it did not report serving');
  });
});

t.test('the HTTP port does not serve the exposition', async (t) => {
  // /metrics is an ordinary (unmatched) mock path there
  const res = await fetch(`${server.url}/metrics`);
  t.equal(res.status, 404);
  t.notMatch(res.headers.get('content-type') ?? '', /version=0\.0\.4/);
});

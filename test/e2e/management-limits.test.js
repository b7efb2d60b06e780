// What the management router on the mock port (and the admin API) keeps, through the real CLI:
// admin.limits caps runtime mocks, their size and override rules; deleted mocks leave nothing in
// the statistics or the Prometheus series; a mock port reachable from other machines warns.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';
import { envelope, failure, post } from '../helpers/admin.js';

const dir = tmpdir();
writeFileSync(
  path.join(dir, 'api.json'),
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Small', version: '1' },
    paths: { '/ping': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { example: { ok: true } } } } } } } },
  }),
);
const config = path.join(dir, 'mock.yaml');
writeFileSync(config, 'specs: [api.json]\nadmin:\n  limits: { max_mocks: 5, max_mock_bytes: 2048, max_override_rules: 3 }\n');

// one after the other: the first builds the project, the second finds the build up to date (two at once
// would build into one folder together, and the second could find the first's build half written)
const server = await startMock(['-c', config, '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'], { cwd: dir });
// every interface: the management router is reachable from other machines (the test talks to loopback only)
const exposed = await startMock(['--spec', path.join(dir, 'api.json'), '--http-port', '0', '--host', '0.0.0.0'], { cwd: dir });
t.teardown(() => Promise.all([server.stop(), exposed.stop()]));

const mocks = `${server.url}/__mock/mocks`;
const mock = (i, extra = {}) => ({ id: `m${i}`, method: 'GET', path: `/m/${i}`, response: { body: { i } }, ...extra });

t.test('runtime mocks are capped in number and size (admin.limits), before a body is parsed', async (t) => {
  for (let i = 0; i < 5; i++) await envelope(t, await post(mocks, mock(i)), 201);
  await failure(t, await post(mocks, mock(5)), 409, /already 5 runtime mocks.*admin\.limits\.max_mocks.*DELETE \/__mock\/api\/mocks\/\{id\}.*raise admin\.limits\.max_mocks/);
  await envelope(t, await fetch(`${mocks}/m0`, { method: 'DELETE' }));
  await envelope(t, await post(mocks, mock(5)), 201); // a deleted mock frees its place

  const big = mock(1, { response: { body: 'x'.repeat(3000) } });
  await failure(t, await post(mocks, big, { method: 'PUT' }), 413, /3\d{3} bytes of JSON, more than admin\.limits\.max_mock_bytes \(2048\).*raise admin\.limits\.max_mock_bytes/);
  await failure(t, await post(`${mocks}/m1`, big, { method: 'PUT' }), 413, /admin\.limits\.max_mock_bytes/);
  t.same((await (await fetch(`${server.url}/m/1`)).json()), { i: 1 }, 'the refused replacement changed nothing');
  await envelope(t, await fetch(`${mocks}/m1`, { method: 'DELETE' }));
  // 5 MB that is not even JSON: refused for its size, so it was never parsed
  await failure(t, await post(mocks, `{"method": "GET", ${'x'.repeat(5 * 1024 * 1024)}`), 413, /admin\.limits\.max_mock_bytes/);
  t.equal((await envelope(t, await fetch(mocks))).length, 4, 'nothing was stored');
  await envelope(t, await fetch(mocks, { method: 'DELETE' }));
});

t.test('override rules are capped (admin.limits.max_override_rules): over the API and at start', async (t) => {
  const rule = (i) => ({ name: `r${i}`, match: { path: `/r/${i}` }, status: 418 });
  const overrides = `${server.adminUrl}/__mock/overrides`;
  await envelope(t, await post(overrides, [rule(1), rule(2), rule(3)], { method: 'PUT' }));
  await failure(t, await post(overrides, { rules: [1, 2, 3, 4].map(rule) }, { method: 'PUT' }), 413, /4 override rules are more than admin\.limits\.max_override_rules \(3\).*raise admin\.limits\.max_override_rules.*the previous 3 rules stay/);
  t.equal((await envelope(t, await fetch(overrides))).length, 3);
  await envelope(t, await post(overrides, [], { method: 'PUT' }));

  const refused = await startMock(['-c', config], { cwd: dir, env: { MOCK_HTTP_OVERRIDES: JSON.stringify([1, 2, 3, 4].map(rule)) } }).then(
    (s) => s.stop().then(() => undefined),
    (e) => e,
  );
  t.ok(refused, 'mock serve does not start');
  t.match(refused?.stderr, /MOCK_HTTP_OVERRIDES: 4 override rules are more than admin\.limits\.max_override_rules \(3\)/, 'naming the variable and the setting');
});

t.test('1,000 create/delete cycles leave the statistics and /metrics as they were after the first few', async (t) => {
  const sizes = async () => {
    const metrics = await envelope(t, await fetch(`${server.adminUrl}/__mock/metrics`));
    const coverage = await envelope(t, await fetch(`${server.url}/__mock/coverage`));
    const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
    return {
      endpoints: Object.keys(metrics.requests_by_endpoint).length,
      coverage: Object.keys(coverage.routes).length,
      series: text.split('\n').filter((line) => line.startsWith('mock_http_')).length,
    };
  };
  let failed = 0;
  const cycle = async (i) => {
    // a mock of its own path each time: every one is a new route key
    const created = (await post(mocks, mock(i))).status === 201;
    const answered = (await fetch(`${server.url}/m/${i}`).then((r) => r.json())).i === i;
    const deleted = (await fetch(`${mocks}/m${i}`, { method: 'DELETE' })).status === 200;
    if (!(created && answered && deleted)) failed++;
  };
  t.equal((await fetch(`${server.url}/ping`)).status, 200);
  for (let i = 0; i < 5; i++) await cycle(i);
  const early = await sizes();
  for (let i = 5; i < 1000; i++) await cycle(i);
  const late = await sizes();
  t.equal(failed, 0, 'every cycle created, answered and deleted its mock');
  t.same(late, early, `as after 5 cycles: ${JSON.stringify(early)}`);
  t.ok(early.series > 0, 'the description\'s route keeps its series');
});

t.test('a mock port reachable from other machines warns at start that its management router is', async (t) => {
  const log = exposed.stdout + exposed.stderr;
  t.match(log, /WARN: the management router at http:\/\/0\.0\.0\.0:\d+\/__mock is reachable from other machines: --host 127\.0\.0\.1 keeps it local \(docs\/admin\.md#reachable-from-other-machines\)\n/);
  const line = log.split('\n').find((l) => l.includes('management router'));
  t.ok(line.length < 200, `one short line, not a paragraph: ${line.length} characters`);
  t.equal(log.split('is reachable from other machines').length - 1, 1, 'one line');
  t.notMatch(server.stdout + server.stderr, /reachable from other machines/, 'a mock on 127.0.0.1 is not');
});

// Bounded values, whichever way they are set (issue 20, item 10): every delay and timeout is at
// most one hour (a Node timer above 2^31-1 ms fires at once), Retry-After is a bounded whole
// number of seconds, POST /__mock/env checks an upstream as POST /__mock/config/proxy does, and
// custom chaos profiles are capped by admin.limits. Through the CLI and real HTTP requests.
import t from 'tap';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { envelope, failure, post } from '../helpers/admin.js';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
const TOO_LONG = 2 ** 31; // fired at once by setTimeout before the bound
const dir = tmpdir();
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `specs: [${JSON.stringify(petstore)}]
admin:
  limits: { max_chaos_profiles: 2, max_chaos_profile_bytes: 1024 }
observability:
  chaos: { enabled: true }
`,
);
const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--admin-embed']);
t.teardown(() => server.stop());
const api = (endpoint) => `${server.url}/__mock/api/${endpoint}`;
const put = (endpoint, body) => post(api(endpoint), body, { method: 'PUT' });
const get = async (endpoint) => (await (await fetch(api(endpoint))).json()).data;
/** The live settings of GET config: its `time` is the clock's reading, which moves by itself. */
const settings = async () => {
  const { time, ...rest } = await get('config');
  return rest;
};

t.test('a delay above one hour is refused by every admin endpoint, naming the value and the bound; nothing changes', async (t) => {
  const config = await settings();
  const chaos = await get('chaos/config');
  await failure(t, await post(api('config/latency'), { base_ms: TOO_LONG }), 400, /base_ms must be <= 3600000/);
  await failure(t, await post(api('config/latency'), { tag_overrides: { pets: TOO_LONG } }), 400, /tag_overrides\.pets must be <= 3600000/);
  await failure(t, await post(api('mocks'), { method: 'GET', path: '/slow', response: {}, latency_ms: TOO_LONG }), 400, /latency_ms.*3600000/);
  await failure(t, await put('overrides', [{ name: 'slow', delay_ms: TOO_LONG }]), 400, /delay_ms.*3600000/);
  await failure(t, await put('chaos/config', { fault_injection: { timeout_ms: TOO_LONG } }), 400, /chaos\.fault_injection\.timeout_ms: expected a whole number from 0 to 3600000, got 2147483648/);
  await failure(t, await put('chaos/config', { traffic_shaping: { connection_timeout_ms: TOO_LONG } }), 400, /connection_timeout_ms: expected a whole number from 0 to 3600000/);
  await failure(t, await put('chaos/config', { circuit_breaker: { timeout_ms: TOO_LONG } }), 400, /circuit_breaker\.timeout_ms: expected a whole number from 0 to 3600000/);
  await failure(t, await put('chaos/config/faults', { timeout_ms: 1e300 }), 400, /timeout_ms: expected a whole number from 0 to 3600000/);
  await failure(t, await put('chaos/config', { fault_injection: { error_pattern: { type: 'burst', count: 1, interval_ms: TOO_LONG } } }), 400, /interval_ms.*from 0 to 3600000/);
  const route = 'GET /v1/pets/{petId}';
  await failure(t, await put('route-chaos', { route, latency: { enabled: true, distribution: 'fixed', mean_ms: TOO_LONG } }), 400, /latency\.mean_ms: expected a number from 0 to 3600000/);
  await failure(t, await put('route-chaos', { route, fault_injection: { enabled: true, fault_types: [{ type: 'timeout', duration_ms: TOO_LONG }] } }), 400, /fault_types\[0\]\.duration_ms: expected a whole number from 0 to 3600000/);
  await failure(t, await post(api('chaos/profiles'), { name: 'glacial', chaos_config: { latency: { enabled: true, fixed_delay_ms: 1e10 } } }), 400, /chaos_config\.latency\.fixed_delay_ms: expected a number from 0 to 3600000/);
  t.same(await settings(), config, 'the live settings are as they were');
  t.same(await get('chaos/config'), chaos, 'so are the chaos settings');
  t.same(await get('route-chaos'), [], 'and the routes');
  t.same(await get('overrides'), [], 'and the override rules');
  t.equal((await get('mocks')).length, 0, 'and the mocks');

  const hour = await envelope(t, await post(api('mocks'), { method: 'GET', path: '/slow', response: {}, latency_ms: 3_600_000 }), 201);
  t.equal(hour.latency_ms, 3_600_000, 'the bound itself is fine');
  await envelope(t, await fetch(api(`mocks/${hour.id}`), { method: 'DELETE' }));
});

t.test('a lognormal p99_ms of 1e308 is refused, so the latency statistics stay numbers', async (t) => {
  await failure(t, await put('route-chaos', { route: 'GET /v1/pets', latency: { enabled: true, distribution: 'lognormal', p50_ms: 1, p99_ms: 1e308 } }), 400, /latency\.p99_ms: expected a number from 0 to 3600000, got 1e\+308/);
  await envelope(t, await put('route-chaos', { route: 'GET /v1/pets', latency: { enabled: true, distribution: 'lognormal', p50_ms: 1, p99_ms: 20 } }));
  for (let i = 0; i < 20; i++) t.equal((await fetch(`${server.url}/v1/pets`)).status, 200);
  const stats = await get('chaos/metrics/latency/stats');
  for (const [name, value] of Object.entries(stats)) t.ok(Number.isFinite(value) && value <= 3_600_000, `${name}: ${value}`);
  await envelope(t, await fetch(`${api('route-chaos')}?route=${encodeURIComponent('GET /v1/pets')}`, { method: 'DELETE' }));
});

t.test('Retry-After is a bounded whole number of seconds', async (t) => {
  t.teardown(async () => {
    await post(api('chaos/config/reset'), {});
    await post(api('config/faults'), { enabled: false });
  });
  await failure(t, await put('chaos/config', { rate_limit: { enabled: true, requests_per_second: 1e-300 } }), 400, /requests_per_second: expected a number from 0\.001 to 1000000, got 1e-300/);
  await failure(t, await put('chaos/config', { rate_limit: { burst_size: 1e300 } }), 400, /burst_size: expected a whole number from 0 to 1000000/);

  await envelope(t, await put('chaos/config', { rate_limit: { enabled: true, requests_per_second: 0.001, burst_size: 0, headers: true } }));
  t.equal((await fetch(`${server.url}/v1/pets`)).status, 200, 'the one token');
  const limited = await fetch(`${server.url}/v1/pets`);
  t.equal(limited.status, 429);
  t.match(limited.headers.get('retry-after'), /^\d+$/, `Retry-After: ${limited.headers.get('retry-after')}`);
  t.ok(Number(limited.headers.get('retry-after')) <= 1000, 'at most 1000 s at the lowest rate');
  t.match(limited.headers.get('x-mock-retry-after-ms'), /^\d+$/);
  t.match(limited.headers.get('ratelimit-policy'), /^"mock";q=1;w=\d+$/, 'the IETF fields are whole numbers too');

  await post(api('chaos/config/reset'), {});
  await envelope(t, await put('chaos/config', { circuit_breaker: { enabled: true, failure_threshold: 1, timeout_ms: 3_600_000 } }));
  await envelope(t, await post(api('config/faults'), { failure_rate: 1, status_codes: [500] }));
  t.equal((await fetch(`${server.url}/v1/pets`)).status, 500, 'a failure opens the breaker');
  const open = await fetch(`${server.url}/v1/pets`);
  t.equal(open.status, 503);
  t.equal(open.headers.get('retry-after'), '3600', 'the breaker at its longest timeout: one hour');
});

t.test('POST /__mock/env checks MOCK_PROXY_UPSTREAM as POST /__mock/config/proxy does; no later request answers 500', async (t) => {
  const upstream = http.createServer((req, res) => res.end(JSON.stringify({ upstream: true })));
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    await post(api('config/proxy'), { enabled: false, upstream_url: null });
    upstream.close();
  });
  const good = `http://127.0.0.1:${upstream.address().port}`;
  await envelope(t, await post(api('config/proxy'), { enabled: true, upstream_url: good, timeout_seconds: 5 }));
  t.equal((await fetch(`${server.url}/v1/pets`)).status, 200, 'proxied');
  // file: and ftp: used to get the schema's "must be null"; every refusal says what is allowed
  for (const bad of ['http://[::1', 'http://localhost:99999', 'http://localhost:1/x?key=1', 'file:///etc/passwd', 'ftp://files.example/']) {
    await failure(t, await post(api('env'), { key: 'MOCK_PROXY_UPSTREAM', value: bad }), 400, /^MOCK_PROXY_UPSTREAM: upstream_url expected an http\(s\) URL/);
    await failure(t, await post(api('config/proxy'), { upstream_url: bad }), 400, /^proxy: upstream_url expected an http\(s\) URL/);
    t.equal((await get('config')).proxy.upstream_url, good, `${bad}: refused, nothing changed`);
    t.not((await get('env')).MOCK_PROXY_UPSTREAM, bad, 'not stored either');
    const after = await fetch(`${server.url}/v1/pets`);
    t.equal(after.status, 200, 'the next request is still proxied, no 500');
  }
  await failure(t, await post(api('config/proxy'), { timeout_seconds: 1e9 }), 400, /timeout_seconds must be <= 3600/);
  const applied = await envelope(t, await post(api('env'), { key: 'MOCK_PROXY_UPSTREAM', value: `${good}/base` }));
  t.match(applied.message, /applied now/);
  t.equal((await get('config')).proxy.upstream_url, `${good}/base`, 'a good value applies at once');
});

t.test('custom chaos profiles are capped by admin.limits: 409 past the count, 413 past the size', async (t) => {
  const profile = (name, extra = {}) => ({ name, chaos_config: { latency: { enabled: true, fixed_delay_ms: 10 } }, ...extra });
  await envelope(t, await post(api('chaos/profiles'), profile('one')), 201);
  await envelope(t, await post(api('chaos/profiles'), profile('two')), 201);
  await failure(t, await post(api('chaos/profiles'), profile('three')), 409, /admin\.limits\.max_chaos_profiles \(2\)/);
  await failure(t, await post(api('chaos/profiles/import'), profile('three')), 409, /admin\.limits\.max_chaos_profiles/);
  await envelope(t, await post(api('chaos/profiles/import'), profile('two', { description: 'replaced' })), 201);
  t.same((await get('chaos/profiles')).filter((p) => !p.builtin).map((p) => p.name), ['one', 'two'], 'replacing one is not one more');

  const file = path.join(dir, 'three.chaos.json');
  writeFileSync(file, JSON.stringify(profile('three')));
  const cli = await runMock(['chaos', 'profile', 'import', file, '--admin-url', server.url]);
  t.equal(cli.code, 1, 'mock chaos profile import fails');
  t.match(cli.stderr, /admin\.limits\.max_chaos_profiles/, 'naming the setting');

  await envelope(t, await fetch(api('chaos/profiles/one'), { method: 'DELETE' }));
  await failure(t, await post(api('chaos/profiles'), profile('big', { description: 'x'.repeat(2000) })), 413, /admin\.limits\.max_chaos_profile_bytes \(1024\)/);
  await envelope(t, await post(api('chaos/profiles'), profile('three')), 201);
});

t.test('out-of-range values in a file, a flag or a variable stop mock serve with one line naming them', async (t) => {
  const config = (name, text) => {
    const file = path.join(dir, name);
    writeFileSync(file, `specs: [${JSON.stringify(petstore)}]\n${text}`);
    return file;
  };
  const cases = [
    [['-c', config('timeout.yaml', 'observability:\n  chaos:\n    fault_injection: { enabled: true, timeout_ms: 2147483648 }\n')], {}, /^timeout\.yaml: observability\.chaos\.fault_injection\.timeout_ms: expected number <= 3600000, got 2147483648$/],
    [['-c', config('profile.yaml', 'observability:\n  chaos:\n    profiles: [{ name: slow, chaos_config: { latency: { enabled: true, fixed_delay_ms: 1e10 } } }]\n')], {}, /^profile\.yaml: observability\.chaos\.profiles\[0\]\.chaos_config\.latency\.fixed_delay_ms: expected number <= 3600000/],
    [['--spec', petstore, '--chaos-latency-range', '0-99999999'], {}, /^--chaos-latency-range: expected number <= 3600000, got 99999999$/],
    [['--spec', petstore, '--chaos-rate-limit', '0.0000001'], {}, /^--chaos-rate-limit: expected number >= 0\.001, got 1e-7$/],
    [['--spec', petstore], { MOCK_PROXY_UPSTREAM: 'http://[::1' }, /^MOCK_PROXY_UPSTREAM: expected an http\(s\) URL such as http:\/\/localhost:8080, got "http:\/\/\[::1"$/],
  ];
  const runs = await Promise.all(cases.map(([args, env]) => runMock(['serve', '--http-port', '0', '--out', path.join(dir, 'never'), ...args], { cwd: dir, env })));
  for (const [i, { code, stderr }] of runs.entries()) {
    t.equal(code, 1, `${cases[i][0].join(' ')}: exit 1`);
    t.match(stderr.trim(), cases[i][2], stderr.trim());
    t.equal(stderr.trim().split('\n').length, 1, 'one line');
  }
});

t.test('a chaos setting named like what objects inherit is unknown, not a setting without checks', async (t) => {
  const chaos = await get('chaos/config');
  await failure(t, await put('chaos/config', { constructor: { keys: 1 } }), 400, /chaos\.constructor: unknown setting/);
  await failure(t, await put('chaos/config', { rate_limit: { toString: 1 } }), 400, /chaos\.rate_limit\.toString: unknown setting/);
  await failure(t, await put('chaos/config', JSON.parse('{"fault_injection": {"__proto__": {"timeout_ms": 2147483648}}}')), 400, /chaos\.fault_injection\.__proto__: unknown setting/);
  t.same(await get('chaos/config'), chaos, 'the chaos settings are as they were');
});

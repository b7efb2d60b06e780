// Chaos set on the command line, observed from outside: --seed makes the injected fault sequence
// repeat run to run; a TCP reset reaches curl as exit 56 (the default backend switches to
// node:http for it, since uWebSockets.js cannot send one); the --chaos-* flags take effect.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, curl, needsCurl, root, startMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
// built first: every server of this file serves this build (chaos is a run-time setting), some side by side
const out = await buildOnce(petstore);

async function statuses(url, count) {
  const seen = [];
  for (let i = 0; i < count; i++) seen.push((await fetch(`${url}/v1/pets`)).status);
  return seen;
}

t.test('--seed: the same faults in the same order, run to run', async (t) => {
  const flags = ['--spec', petstore, '--out', out, '--seed', '11', '--chaos-http-errors', '500,503', '--chaos-http-error-probability', '0.5'];
  // two runs side by side: each server draws from its own seeded generator
  const runs = await Promise.all(
    [0, 1].map(async () => {
      const server = await startMock(flags);
      const seen = await statuses(server.url, 30);
      await server.stop();
      return seen;
    }),
  );
  t.same(runs[0], runs[1], runs[0].join(' '));
  const failed = runs[0].filter((s) => s !== 200).length;
  t.ok(failed > 3 && failed < 27, `${failed} of 30 failed at probability 0.5`);
  t.ok(runs[0].every((s) => [200, 500, 503].includes(s)), 'statuses only from --chaos-http-errors');
});

t.test('--seed: the admin API\'s faults repeat run to run too', async (t) => {
  const flags = ['--spec', petstore, '--out', out, '--seed', '23', '--admin', '--admin-port', '0'];
  const runs = await Promise.all(
    [0, 1].map(async () => {
      const server = await startMock(flags);
      const set = await fetch(`${server.adminUrl}/__mock/config/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ config_type: 'faults', data: { failure_rate: 0.5, status_codes: [500, 502, 503] } }) });
      t.equal(set.status, 200, await set.text());
      const seen = await statuses(server.url, 30);
      await server.stop();
      return seen;
    }),
  );
  t.same(runs[0], runs[1], runs[0].join(' '));
  const failed = runs[0].filter((s) => s !== 200).length;
  t.ok(failed > 3 && failed < 27, `${failed} of 30 failed at failure_rate 0.5`);
  t.ok(runs[0].every((s) => [200, 500, 502, 503].includes(s)), 'statuses only from status_codes');
});

t.test('tcp_reset: curl sees "Connection reset by peer" (exit 56)', { skip: needsCurl }, async (t) => {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    `specs: [${JSON.stringify(petstore)}]
observability:
  chaos:
    fault_injection:
      enabled: true
      connection_errors: true
      connection_error_probability: 1
      connection_error_kind: tcp_reset
      request_matcher: { headers: [{ name: x-reset }] }
`,
  );
  const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', out], { env: { MOCK_LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());
  t.match(server.stdout, /node:http: chaos connection_error_kind tcp_reset/, 'serve says why it picked node:http');
  const reset = await curl(`${server.url}/v1/pets`, ['X-Reset: 1']);
  t.equal(reset.code, 56, reset.stderr);
  t.match(reset.stderr, /reset by peer/i);
  t.equal((await curl(`${server.url}/v1/pets`)).code, 0, 'requests the matcher does not select are answered');
});

t.test('--chaos-rate-limit, --chaos-packet-loss, --chaos-profile, --latency-enabled', async (t) => {
  const limited = await startMock(['--spec', petstore, '--out', out, '--chaos-rate-limit', '1', '--metrics', '--metrics-port', '0']);
  const sending = Date.now();
  const seen = await statuses(limited.url, 2200);
  const seconds = Math.ceil((Date.now() - sending) / 1000);
  const refusals = seen.filter((s) => s === 429).length;
  const exposition = await (await fetch(`${limited.metricsUrl}/metrics`)).text();
  t.match(exposition, new RegExp(`chaos_rate_limit_violations_total\\{scope="global"\\} ${refusals}\\n`), 'every 429 counted under its scope');
  await limited.stop();
  // DEFAULT_RATE_LIMIT_BURST 2000 tokens, plus what 1 rps refills meanwhile (the sending took `seconds`)
  const admitted = seen.filter((s) => s === 200).length;
  t.ok(admitted >= 2000 && admitted <= 2000 + seconds + 1, `${admitted} admitted of 2200 in ${seconds} s`);
  const afterFirstRefusal = seen.slice(seen.indexOf(429));
  t.ok(afterFirstRefusal.filter((s) => s === 200).length <= 3, 'then refused, but for the token a second refills');

  // the other three start side by side once the rate-limited run is over
  const [lossy, profiled, slow] = await Promise.all([
    startMock(['--spec', petstore, '--out', out, '--chaos-packet-loss', '100', '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0']),
    startMock(['--spec', petstore, '--out', out, '--chaos-profile', 'high_latency', '--admin-embed']),
    startMock(['--spec', petstore, '--out', out, '--latency-enabled', '--chaos-latency-range', '50-60']),
  ]);
  t.equal((await fetch(`${lossy.url}/v1/pets`)).status, 408);
  const stats = await (await fetch(`${lossy.adminUrl}/api/chaos/stats`)).json();
  t.equal(stats.data.by_type.packet_loss, 1, 'the spec\'s /api/chaos paths on the admin port');
  const metrics = await (await fetch(`${lossy.metricsUrl}/metrics`)).text();
  t.match(metrics, /chaos_faults_injected_total\{kind="packet_loss"\} 1/);
  const [entry] = (await (await fetch(`${lossy.adminUrl}/__mock/api/logs?limit=1`)).json()).data;
  t.same(entry.chaos, { fault: 'packet_loss', latency_ms: null }, 'the request log says what chaos did');
  await lossy.stop();

  const started = performance.now();
  const response = await fetch(`${profiled.url}/v1/pets`);
  t.ok(performance.now() - started >= 590, 'high_latency holds the answer 600-700 ms');
  t.ok(Number(response.headers.get('x-mock-injected-latency-ms')) >= 600);
  const config = await (await fetch(`${profiled.url}/__mock/api/chaos/config`)).json();
  t.equal(config.data.active_profile, 'high_latency');
  await profiled.stop();

  const delayed = await fetch(`${slow.url}/v1/pets`);
  const ms = Number(delayed.headers.get('x-mock-injected-latency-ms'));
  t.ok(ms >= 50 && ms <= 60, `${ms} ms in 50-60`);
  await slow.stop();
});

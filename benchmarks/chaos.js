#!/usr/bin/env node
// Chaos benchmark (`npm run bench:chaos`), three figures measured from the client side:
//
// 1. What configured chaos costs a route it does not touch: `mock serve` on examples/petstore.yaml
//    with chaos off against the same server with fault injection (a request matcher that selects
//    nothing here) and per-route chaos on another route; wrk
//    on GET /v1/pets/1, interleaved rounds, medians. Target: within 3% of chaos off.
// 2. Latency accuracy under load: a route with a fixed 20 ms delay, 50 connections of wrk;
//    target: p99 at the client within 5 ms of 20 ms.
// 3. Bandwidth: a 512 KiB answer paced at 128 KiB/s, downloaded by one client; the goodput error
//    against the limit (target ±5% for bodies of 256 KiB and more).
//
// The load generator is wrk when installed (`apt-get install wrk`), pinned to core 1 with the
// servers on core 0; otherwise autocannon, labelled. BENCH_DURATION (default 10), BENCH_ROUNDS
// (default 4). Writes benchmarks/results/chaos-latest.json. Exits 0 whatever the numbers.
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { positiveEnv } from './lib/env.js';
import { chooseGenerator } from './lib/generator.js';
import { checkStatus } from './lib/load.js';
import { startServer } from './lib/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = new URL('./results/', import.meta.url);
const duration = positiveEnv('BENCH_DURATION', 10);
const rounds = positiveEnv('BENCH_ROUNDS', 4);
const generator = chooseGenerator();
const load = { connections: 50, duration, warmup: 2 };

const scratch = await mkdtemp(`${tmpdir()}/mock-bench-chaos-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
const petstore = `${root}examples/petstore.yaml`;

const UNTOUCHED = `specs: [${JSON.stringify(petstore)}]
core:
  routes:
    - path: /v1/health
      fault_injection: { enabled: true, probability: 0.5, fault_types: [{ type: http_error, status_code: 503 }] }
      latency: { enabled: true, distribution: normal, mean_ms: 50, std_dev_ms: 10 }
observability:
  chaos:
    fault_injection:
      enabled: true
      http_error_probability: 1
      request_matcher: { headers: [{ name: x-chaos-bench }] }
`;
const DELAYED = `specs: [${JSON.stringify(petstore)}]
core:
  routes:
    - path: /v1/pets/{petId}
      method: GET
      latency: { enabled: true, distribution: fixed, mean_ms: 20 }
`;
const PACED = `specs: [${JSON.stringify(petstore)}]
observability:
  chaos:
    traffic_shaping: { enabled: true, bandwidth_limit_bps: 131072 }
`;

async function mock(name, yaml) {
  const dir = `${scratch}/${name}`;
  await mkdir(dir, { recursive: true });
  const args = [`${root}bin/run.js`, 'serve', '--out', `${scratch}/build-${name}`, '--host', '127.0.0.1', '--http-port', '0', '--admin-embed'];
  if (yaml === undefined) args.push('--spec', petstore);
  else {
    await writeFile(`${dir}/mock.yaml`, yaml);
    args.push('-c', `${dir}/mock.yaml`);
  }
  return startServer(name, args, { cwd: dir, env: cleanEnv, cpu: generator.serverCpu });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const measured = { generator: generator.name, loadavg_before: loadavg() };
const started = [];
console.log(`bench:chaos: ${generator.note}`);
try {
  const scenario = { path: '/v1/pets/1', status: 200 };
  const off = await mock('off');
  const untouched = await mock('untouched', UNTOUCHED);
  const delayed = await mock('delayed', DELAYED);
  const paced = await mock('paced', PACED);
  started.push(off, untouched, delayed, paced);
  for (const server of [off, untouched, delayed]) await checkStatus(server.url, scenario);

  // 1. the untouched route, chaos off and on, interleaved
  const samples = { off: [], untouched: [] };
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const [name, server] of [['off', off], ['untouched', untouched]]) {
      const result = await generator.measure(server.url, scenario, { ...load, warmup: round === 1 ? load.warmup : 0 });
      samples[name].push(result.reqPerSec);
      console.log(`  chaos ${name === 'off' ? 'off' : 'configured, route untouched'}: ${Math.round(result.reqPerSec).toLocaleString('en-US')} req/s`);
    }
  }
  const ratio = median(samples.untouched) / median(samples.off);
  measured.untouched = { off_req_per_sec: median(samples.off), configured_req_per_sec: median(samples.untouched), ratio };

  // 2. a fixed 20 ms delay at the client, under load
  const p99s = [];
  for (let round = 1; round <= Math.min(rounds, 3); round++) {
    const result = await generator.measure(delayed.url, scenario, { ...load, warmup: round === 1 ? 1 : 0 });
    p99s.push(result.p99 ?? Number.NaN);
    console.log(`  fixed 20 ms delay: ${Math.round(result.reqPerSec)} req/s, client p50 ${result.p50?.toFixed(2)} ms, p99 ${result.p99?.toFixed(2)} ms`);
  }
  measured.latency = { configured_ms: 20, client_p99_ms: median(p99s), error_ms: median(p99s) - 20 };

  // 3. bandwidth goodput of a 512 KiB answer
  const size = 512 * 1024;
  const created = await fetch(`${paced.url}/__mock/api/mocks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'GET', path: '/big', response: { body: { blob: 'x'.repeat(size - 12) } } }),
  });
  if (created.status !== 201) throw new Error(`creating the large runtime mock: ${created.status}`);
  const rates = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const response = await fetch(`${paced.url}/big`);
    const firstByte = performance.now() - t0;
    const bytes = (await response.arrayBuffer()).byteLength;
    const seconds = (performance.now() - t0) / 1000;
    rates.push(bytes / seconds);
    console.log(`  ${bytes} bytes at a limit of 131072 B/s: ${Math.round(bytes / seconds)} B/s, first byte after ${firstByte.toFixed(1)} ms`);
  }
  measured.bandwidth = { limit_bps: 131072, goodput_bps: median(rates), error_percent: ((median(rates) - 131072) / 131072) * 100 };
} catch (e) {
  console.error(`\nbench:chaos failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(started.map((server) => server.stop()));
}

if (process.exitCode !== 1) {
  const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
  const { untouched, latency, bandwidth } = measured;
  console.log(`\nload generator: ${generator.name}`);
  console.log(`untouched route with chaos configured: ${untouched.ratio.toFixed(3)}x of chaos off (target >= 0.97) ${verdict(untouched.ratio >= 0.97)}`);
  console.log(`fixed 20 ms delay under load: client p99 ${latency.client_p99_ms.toFixed(2)} ms, ${latency.error_ms.toFixed(2)} ms off (target within 5 ms) ${verdict(Math.abs(latency.error_ms) <= 5)}`);
  console.log(`bandwidth 128 KiB/s, 512 KiB body: goodput ${bandwidth.error_percent.toFixed(2)}% off the limit (target within 5%) ${verdict(Math.abs(bandwidth.error_percent) <= 5)}`);
  measured.loadavg_after = loadavg();
  await mkdir(resultsDir, { recursive: true });
  await writeFile(new URL('chaos-latest.json', resultsDir), `${JSON.stringify(measured, null, 2)}\n`);
}

#!/usr/bin/env node
// Plugin benchmark (`npm run bench:plugins`), two figures in one run:
//
// 1. A template-function plugin's call as the server makes it (synchronously, through its sandbox:
//    the shared buffer and Atomics.wait): the example upper plugin, BENCH_CALLS calls (default
//    20,000) after 2,000 of warm-up; p50, p99 and calls/s. Target: p50 at most 20 µs.
// 2. What the call costs a route: `mock serve` with two routes whose templates differ only by the
//    plugin token (`{{plugin:upper:upper(hello)}}` against the literal HELLO, both with {{uuid}}),
//    wrk on each, interleaved rounds, medians; the ratio with/without and the cost per request it
//    implies at saturation.
//
// The load generator is wrk when installed, pinned to core 1 with the server on core 0; otherwise
// autocannon, labelled. BENCH_DURATION (default 5), BENCH_ROUNDS (default 3). Writes
// benchmarks/results/plugins-latest.json. Exits 0 whatever the numbers.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { positiveEnv } from './lib/env.js';
import { chooseGenerator } from './lib/generator.js';
import { checkStatus } from './lib/load.js';
import { startServer } from './lib/servers.js';
import { Sandbox, checkModule } from '../dist/runtime/plugins/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = new URL('./results/', import.meta.url);
const duration = positiveEnv('BENCH_DURATION', 5);
const rounds = positiveEnv('BENCH_ROUNDS', 3);
const calls = positiveEnv('BENCH_CALLS', 20_000);
const generator = chooseGenerator();
const load = { connections: 50, duration, warmup: 1 };
const upper = `${root}plugins/examples/template-function/upper.wasm`;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const measured = { generator: generator.name, loadavg_before: loadavg() };
console.log(`bench:plugins: ${generator.note}`);

// 1. the call itself
{
  const bytes = readFileSync(upper);
  const { manifest } = checkModule(bytes);
  const sandbox = new Sandbox(bytes, Object.keys(manifest.actions), { max_memory_mb: 50, max_execution_ms: 1000, allowed_paths: [] }, false);
  sandbox.start();
  const input = '["hello"]';
  for (let i = 0; i < 2000; i++) sandbox.call('upper', input);
  const times = new Float64Array(calls);
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const result = sandbox.call('upper', input);
    times[i] = performance.now() - t0;
    if (!result.ok) throw new Error(`upper failed: ${result.reason}`);
  }
  const seconds = (performance.now() - started) / 1000;
  sandbox.stop();
  times.sort();
  const us = (q) => times[Math.min(calls - 1, Math.floor(calls * q))] * 1000;
  measured.call = { calls, calls_per_second: calls / seconds, p50_us: us(0.5), p99_us: us(0.99) };
  console.log(`  upper(["hello"]) through its sandbox: ${Math.round(calls / seconds).toLocaleString('en-US')} calls/s, p50 ${us(0.5).toFixed(1)} µs, p99 ${us(0.99).toFixed(1)} µs`);
}

// 2. the route with and without it
const scratch = await mkdtemp(`${tmpdir()}/mock-bench-plugins-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
const example = (shout) => ({ 200: { description: 'ok', content: { 'application/json': { example: { shout, id: '{{uuid}}' } } } } });
await writeFile(
  `${scratch}/api.json`,
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'plugins', version: '1' },
    paths: { '/plain': { get: { responses: example('HELLO') } }, '/plugin': { get: { responses: example('{{plugin:upper:upper(hello)}}') } } },
  }),
);
await writeFile(`${scratch}/mock.yaml`, 'specs: [{path: api.json}]\nresponse_template_expand: true\n');
execFileSync(process.execPath, [`${root}bin/run.js`, 'plugin', 'install', upper], { cwd: scratch, env: cleanEnv, stdio: 'ignore' });
const server = await startServer('plugins', [`${root}bin/run.js`, 'serve', '--host', '127.0.0.1', '--http-port', '0'], { cwd: scratch, env: cleanEnv, cpu: generator.serverCpu });
try {
  const routes = { plain: { path: '/plain', status: 200 }, plugin: { path: '/plugin', status: 200 } };
  for (const scenario of Object.values(routes)) await checkStatus(server.url, scenario);
  const shout = (await (await fetch(`${server.url}/plugin`)).json()).shout;
  if (shout !== 'HELLO') throw new Error(`the plugin route answered shout ${JSON.stringify(shout)}`);
  const samples = { plain: [], plugin: [] };
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const name of ['plain', 'plugin']) {
      const result = await generator.measure(server.url, routes[name], { ...load, warmup: round === 1 ? load.warmup : 0 });
      samples[name].push(result.reqPerSec);
      console.log(`  ${name === 'plain' ? 'without the plugin' : 'with the plugin   '}: ${Math.round(result.reqPerSec).toLocaleString('en-US')} req/s`);
    }
  }
  const plain = median(samples.plain);
  const plugin = median(samples.plugin);
  measured.route = { without_req_per_sec: plain, with_req_per_sec: plugin, ratio: plugin / plain, cost_per_request_us: (1 / plugin - 1 / plain) * 1e6 };
} catch (e) {
  console.error(`\nbench:plugins failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await server.stop();
}

if (process.exitCode !== 1) {
  const { call, route } = measured;
  console.log(`\nload generator: ${generator.name}`);
  console.log(
    `template-function call: p50 ${call.p50_us.toFixed(1)} µs (target <= 20) ${call.p50_us <= 20 ? 'PASS' : 'FAIL'}; p99 ${call.p99_us.toFixed(1)} µs; ${Math.round(call.calls_per_second).toLocaleString('en-US')} calls/s`,
  );
  console.log(
    `route with the plugin: ${route.ratio.toFixed(3)}x of the same route without it (${Math.round(route.with_req_per_sec)} vs ${Math.round(route.without_req_per_sec)} req/s; ${route.cost_per_request_us.toFixed(1)} µs a request at saturation)`,
  );
  measured.loadavg_after = loadavg();
  await mkdir(resultsDir, { recursive: true });
  await writeFile(new URL('plugins-latest.json', resultsDir), `${JSON.stringify(measured, null, 2)}\n`);
}

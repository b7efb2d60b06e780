#!/usr/bin/env node
// Load generator benchmark (`npm run bench:loadgen`): how fast `mock bench` drives a server,
// against autocannon with the same number of connections, in the same run. The server is the raw
// uWebSockets.js hello-world (benchmarks/baselines/uws-hello.js) in a child process; `mock bench`
// loads a one-operation description (GET /) with --vus = the connections, one worker thread by
// default. Target: mock bench reaches at least the request rate autocannon reaches (ratio ≥ 1.0).
// Both rates are responses / seconds of sending.
//
// BENCH_DURATION=<seconds> (default 10), BENCH_CONNECTIONS (default 50), BENCH_WORKERS (default
// 1: on a 2-core machine the server takes the other core), BENCH_RUNS (default 2: the two tools
// alternate and each keeps its best run, so one noisy stretch does not decide). Writes
// benchmarks/results/loadgen-latest.json. Exits 0 whatever the numbers; 1 when a run fails.
import { spawn } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServer } from './lib/servers.js';
import { positiveEnv } from './lib/env.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = new URL('./results/', import.meta.url);

const duration = positiveEnv('BENCH_DURATION', 10);
const connections = positiveEnv('BENCH_CONNECTIONS', 50);
const workers = positiveEnv('BENCH_WORKERS', 1);
const runs = positiveEnv('BENCH_RUNS', 2);
const warmup = 2;

const scratch = await mkdtemp(`${tmpdir()}/mock-loadgen-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const spec = `${scratch}/hello.yaml`;
await writeFile(
  spec,
  `openapi: 3.0.3
info: { title: hello, version: '1' }
paths:
  /:
    get:
      operationId: hello
      responses:
        '200': { description: hello, content: { text/plain: { schema: { type: string } } } }
`,
);

async function runAutocannon(url, seconds) {
  const result = await autocannon({ url, connections, pipelining: 1, duration: seconds });
  return {
    reqPerSec: result.requests.total / seconds,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function runMockBench(url, seconds) {
  const args = [`${root}bin/run.js`, 'bench', '--spec', spec, '--target', url, '--vus', String(connections), '--duration', String(seconds), '--workers', String(workers), '--json'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`mock bench exited with ${code}\n${stderr}`));
      const target = JSON.parse(stdout).targets[0];
      resolve({ reqPerSec: target.reqPerSec, requests: target.requests, p50: target.latencyMs.p50, p99: target.latencyMs.p99, errors: target.errors });
    });
  });
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const loadBefore = loadavg();
console.log(`bench:loadgen: ${connections} connections, ${warmup} s warm-up, ${runs} × ${duration} s per tool, mock bench --workers ${workers}\n`);
const server = await startServer('raw uWS', [`${root}benchmarks/baselines/uws-hello.js`]);
const tools = [
  ['autocannon', runAutocannon],
  ['mock bench', runMockBench],
];
const all = Object.fromEntries(tools.map(([tool]) => [tool, []]));
try {
  await autocannon({ url: server.url, connections, duration: warmup });
  for (let run = 1; run <= runs; run++) {
    for (const [tool, measure] of tools) {
      process.stdout.write(`  run ${run}: ${tool.padEnd(10)} … `);
      const result = await measure(server.url, duration);
      if (result.errors > 0) throw new Error(`${tool}: ${result.errors} errors against the hello-world server`);
      console.log(`${fmt(result.reqPerSec)} req/s (p50 ${result.p50} ms, p99 ${result.p99} ms)`);
      all[tool].push(result);
    }
  }
} catch (e) {
  console.error(`\nbench:loadgen failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await server.stop();
}

if (process.exitCode !== 1) {
  const best = Object.fromEntries(Object.entries(all).map(([tool, results]) => [tool, results.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a))]));
  const ratio = best['mock bench'].reqPerSec / best.autocannon.reqPerSec;
  const pass = ratio >= 1.0;
  console.log(`\nbest of ${runs}:`);
  console.log(`  autocannon  ${fmt(best.autocannon.reqPerSec)} req/s`);
  console.log(`  mock bench  ${fmt(best['mock bench'].reqPerSec)} req/s`);
  console.log(`  ratio       ${ratio.toFixed(2)}×  (target ≥ 1.00×: ${pass ? 'PASS' : 'FAIL'})`);
  await mkdir(resultsDir, { recursive: true });
  const file = new URL('loadgen-latest.json', resultsDir);
  const environment = { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, cpu: cpus()[0]?.model, loadavgBefore: loadBefore, loadavgAfter: loadavg() };
  const json = { date: new Date().toISOString(), environment, load: { connections, duration, warmup, runs, workers }, runs: all, best, ratio, target: { minRatio: 1.0, pass } };
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nwrote ${fileURLToPath(file).slice(root.length)}`);
}

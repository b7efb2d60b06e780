#!/usr/bin/env node
// Admin overhead benchmark (`npm run bench:admin`): `mock serve` on examples/petstore.yaml with the
// admin server off (the baseline), with the admin server on and nobody calling it, and with the
// admin server and the Prometheus endpoint on. Same process settings, loopback, autocannon; the
// three configurations are measured in turn, twice (ABCABC), and each keeps its better round so
// that drift of a busy machine does not pick the winner. BENCH_DURATION=<seconds> (default 8).
// Target: admin on stays within 10% of admin off (≥ 0.90×). Exits 0 whatever the numbers; 1 if
// a server fails to start or answers with the wrong status.
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { checkStatus, measure } from './lib/load.js';
import { checkTargets, printReport, withRatios } from './lib/report.js';
import { startServer } from './lib/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = new URL('./results/', import.meta.url);
const duration = Number(process.env.BENCH_DURATION ?? 8);
if (!(duration > 0)) throw new Error(`BENCH_DURATION must be a positive number of seconds, not ${process.env.BENCH_DURATION}`);
const load = { connections: 50, pipelining: 1, duration, warmup: 2 };
const ROUNDS = 2;

// a documented example (the cheapest answer, so fixed per-request costs show the most) and a generated body
const scenarios = [
  ['static', { path: '/v1/pets/1', status: 200 }],
  ['generated', { path: '/v1/pets?limit=5', status: 200 }],
];
const BASELINE = 'admin off static';
const configurations = [
  { name: 'admin off', args: [] },
  { name: 'admin on', args: ['--admin', '--admin-port', '0'] },
  { name: 'admin + metrics on', args: ['--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'] },
];
const targets = [
  { target: 'admin on static', minReqPerSecRatio: 0.9 },
  { target: 'admin + metrics on static', minReqPerSecRatio: 0.9 },
];

const scratch = await mkdtemp(`${tmpdir()}/mock-bench-admin-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
env.MOCK_LOG_LEVEL = 'warn';
const baseArgs = [`${root}bin/run.js`, 'serve', '--spec', `${root}examples/petstore.yaml`, '--out', `${scratch}/out`, '--host', '127.0.0.1', '--http-port', '0'];

const loadBefore = loadavg();
console.log(`bench:admin: ${load.connections} connections, ${load.warmup} s warm-up + ${duration} s per target, ${ROUNDS} rounds\n`);
const best = new Map();
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const configuration of configurations) {
      const server = await startServer(configuration.name, [...baseArgs, ...configuration.args], { cwd: scratch, env });
      try {
        for (const [, scenario] of scenarios) await checkStatus(server.url, scenario);
        for (const [label, scenario] of scenarios) {
          const target = `${configuration.name} ${label}`;
          process.stdout.write(`  round ${round}: ${target} … `);
          const result = await measure(server.url, scenario, load);
          console.log(`${Math.round(result.reqPerSec)} req/s`);
          const row = { target, method: 'GET', path: scenario.path, ...result };
          if (!best.has(target) || best.get(target).reqPerSec < row.reqPerSec) best.set(target, row);
        }
      } finally {
        await server.stop();
      }
    }
  }
} catch (e) {
  console.error(`\nbench:admin failed: ${e.message}`);
  process.exitCode = 1;
}

if (process.exitCode !== 1) {
  const rows = [...best.values()];
  const measured = withRatios(rows, best.get(BASELINE));
  const checks = checkTargets(measured, targets);
  console.log('');
  printReport(measured, checks, BASELINE);
  await mkdir(resultsDir, { recursive: true });
  const file = new URL('admin-overhead-latest.json', resultsDir);
  const environment = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, loadavgBefore: loadBefore, loadavgAfter: loadavg() };
  await writeFile(file, `${JSON.stringify({ date: new Date().toISOString(), environment, load, rounds: ROUNDS, baseline: BASELINE, results: measured, targets: checks }, null, 2)}\n`);
  console.log(`\nwrote ${fileURLToPath(file).slice(root.length)}`);
}

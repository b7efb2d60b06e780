#!/usr/bin/env node
// HTTP benchmark (`npm run bench:http`): `mock serve` on examples/petstore.yaml against raw
// uWebSockets.js and node:http hello-world servers, all measured in this run, on loopback, with
// the same autocannon settings, one target at a time. BENCH_DURATION=<seconds> (default 10).
// Prints a table and the throughput targets; writes benchmarks/results/http-latest.json.
// Exits 0 whatever the numbers (a benchmark, not a test); 1 if a server fails to start or a
// scenario answers with the wrong status.
import { cpus, loadavg, tmpdir } from 'node:os';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { checkStatus, measure } from './lib/load.js';
import { checkTargets, printReport, withRatios } from './lib/report.js';
import { startServer } from './lib/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = new URL('./results/', import.meta.url);

const duration = Number(process.env.BENCH_DURATION ?? 10);
if (!(duration > 0)) throw new Error(`BENCH_DURATION must be a positive number of seconds, not ${process.env.BENCH_DURATION}`);
const load = { connections: 50, pipelining: 1, duration, warmup: 2 };

const hello = { path: '/', status: 200 };
const scenarios = {
  // a documented example: the response body is serialised once, at build time
  static: { path: '/v1/pets/1', status: 200 },
  // no example: the body is generated from the schema on every request
  generated: { path: '/v1/pets?limit=5', status: 200 },
  // the body is validated against the schema before the 201 is generated
  validated: {
    path: '/v1/pets',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Kitty', kind: 'cat' }),
    status: 201,
  },
};

const BASELINE = 'raw uWS';
// Each server is started, measured on its scenarios, and stopped before the next one starts.
const servers = [
  { name: BASELINE, args: [`${root}benchmarks/baselines/uws-hello.js`], runs: [[BASELINE, hello]] },
  { name: 'raw node:http', args: [`${root}benchmarks/baselines/node-hello.js`], runs: [['raw node:http', hello]] },
  {
    name: 'mock serve',
    mock: true,
    runs: [
      ['mock static', scenarios.static],
      ['mock generated', scenarios.generated],
      ['mock validated POST', scenarios.validated],
    ],
  },
];
const targets = [
  { target: 'mock static', minReqPerSecRatio: 0.7 },
  { target: 'mock generated', minReqPerSecRatio: 0.5 },
  { target: 'mock validated POST', minReqPerSecRatio: 0.5 },
];

// The mock runs from a scratch directory with MOCK_* settings stripped (except the log level), so
// neither a mock.yaml nor the caller's environment changes what is measured.
const scratch = await mkdtemp(`${tmpdir()}/mock-bench-`);
// on 'exit' rather than in a finally, so that it also goes on SIGINT (see lib/servers.js)
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const mockEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
mockEnv.MOCK_LOG_LEVEL = 'warn';
const mockArgs = [
  `${root}bin/run.js`, 'serve',
  '--spec', `${root}examples/petstore.yaml`,
  '--out', `${scratch}/out`,
  '--host', '127.0.0.1',
  '--http-port', '0',
  '--validation', 'enforce',
];

// other work on the machine moves the numbers; the load averages in the JSON make that visible
const loadBefore = loadavg();
console.log(`bench:http: ${load.connections} connections, pipelining ${load.pipelining}, ${load.warmup} s warm-up + ${duration} s per target\n`);
const rows = [];
try {
  for (const server of servers) {
    const started = server.mock
      ? await startServer(server.name, mockArgs, { cwd: scratch, env: mockEnv })
      : await startServer(server.name, server.args);
    try {
      // all statuses first, so a wrong one fails before any time is spent measuring
      for (const [, scenario] of server.runs) await checkStatus(started.url, scenario);
      for (const [target, scenario] of server.runs) {
        process.stdout.write(`  ${target} … `);
        const result = await measure(started.url, scenario, load);
        console.log(`${Math.round(result.reqPerSec)} req/s`);
        rows.push({ target, method: scenario.method ?? 'GET', path: scenario.path, ...result });
      }
    } finally {
      await started.stop();
    }
  }
} catch (e) {
  console.error(`\nbench:http failed: ${e.message}`);
  process.exitCode = 1;
}

if (process.exitCode !== 1) {
  const measured = withRatios(rows, rows.find((row) => row.target === BASELINE));
  const checks = checkTargets(measured, targets);
  console.log('');
  printReport(measured, checks, BASELINE);

  await mkdir(resultsDir, { recursive: true });
  const file = new URL('http-latest.json', resultsDir);
  const environment = {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    loadavgBefore: loadBefore,
    loadavgAfter: loadavg(),
  };
  const json = { date: new Date().toISOString(), environment, load, baseline: BASELINE, results: measured, targets: checks };
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nwrote ${fileURLToPath(file).slice(root.length)}`);
}

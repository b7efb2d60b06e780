#!/usr/bin/env node
// Workers benchmark (`npm run bench:workers`): `mock serve --workers N` on examples/petstore.yaml
// for N = 1, 2, 4, 8, 16 (as many as the machine's cores allow), each against one worker, for a
// documented example, a generated body and a validated POST on uWebSockets.js, and the example
// on node:http (where Node 24 and 26 serve, having no uWS build). Default settings otherwise.
//
// The load generator is wrk (required: autocannon cannot load several cores), with as many threads
// as workers up to the cores it has and 50 connections per worker. Two placements:
// - pinned: wrk on the last quarter of the cores (at least one), the workers on the others with
//   taskset. On a 2-core machine that is one core for all the workers: what workers cost, not what
//   they bring.
// - shared: nothing pinned, wrk and the workers on every core (on 2 cores, wrk takes much of the
//   second core: what a small machine can show).
// Every configuration runs at once; each round measures every one in turn (interleaved); medians.
// Last, two workers with --admin-embed without and with a client of a live stream open: the
// dashboards' WebSocket stream (/__mock/ws, subscribed to the log: each worker forwards at most the
// 1,000 entries a second the client takes), and GET /__mock/logs/sse (every entry, from every
// worker): what the admin API's aggregation costs while a dashboard watches, and the firehose.
//
// BENCH_DURATION=<seconds per measurement> (default 5), BENCH_ROUNDS (default 3). Writes
// benchmarks/results/workers-latest.json. Exits 0 whatever the numbers (a benchmark, not a test).
import http from 'node:http';
import WebSocket from 'ws';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { positiveEnv } from './lib/env.js';
import { tasksetAvailable } from './lib/generator.js';
import { checkStatus } from './lib/load.js';
import { median, printTable, writeResults } from './lib/report.js';
import { startServer } from './lib/servers.js';
import { runWrk, wrkAvailable } from './lib/wrk.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const duration = positiveEnv('BENCH_DURATION', 5);
const rounds = positiveEnv('BENCH_ROUNDS', 3);
const WARMUP = 2;
const CONNECTIONS_PER_WORKER = 50;

if (!wrkAvailable()) {
  console.error('bench:workers needs wrk (apt-get install wrk): autocannon runs in one Node thread and cannot load several workers');
  process.exit(1);
}

const cores = availableParallelism();
const pinnable = tasksetAvailable() && cores >= 2;
const loadCount = Math.max(1, Math.floor(cores / 4));
const range = (from, to) => (to - from === 1 ? String(from) : `${from}-${to - 1}`);
const placements = [
  ...(pinnable ? [{ name: 'pinned', serverCpu: range(0, cores - loadCount), loadCpu: range(cores - loadCount, cores), serverCores: cores - loadCount, loadCores: loadCount }] : []),
  { name: 'shared', serverCpu: undefined, loadCpu: undefined, serverCores: cores, loadCores: cores },
];
// at least 2, so that a 2-core machine compares two workers with one
const counts = [1, 2, 4, 8, 16].filter((n) => n <= Math.max(2, cores));

const scenarios = [
  { name: 'static', backend: 'uws', path: '/v1/pets/1', status: 200 },
  { name: 'generated', backend: 'uws', path: '/v1/pets?limit=5', status: 200 },
  { name: 'validated POST', backend: 'uws', path: '/v1/pets', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Kitty', kind: 'cat' }), status: 201 },
  { name: 'static', backend: 'node', path: '/v1/pets/1', status: 200 },
];

/** A dashboard's client of /__mock/ws subscribed to the log, counting the entries it is sent, until closed. */
function openDashboardStream(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/__mock/ws`);
    let entries = 0;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', logs: true })));
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'hello') resolve({ entries: () => entries, close: () => ws.terminate() });
      if (message.type === 'logs') entries += message.entries.length;
    });
    ws.on('error', reject);
  });
}

/** A client of GET /__mock/logs/sse that reads and counts what it is sent, until closed. */
function openLiveStream(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/__mock/logs/sse`, { agent: false }, (res) => {
      let entries = 0;
      res.on('data', (chunk) => {
        for (let i = chunk.indexOf('event: log'); i !== -1; i = chunk.indexOf('event: log', i + 1)) entries++;
      });
      resolve({ entries: () => entries, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

const scratch = await mkdtemp(join(tmpdir(), 'mock-bench-workers-'));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
const scriptFile = join(scratch, 'wrk.lua');
const loadBefore = loadavg();
const started = [];
const samples = new Map();
const label = (placement, scenario, count) => `${placement.name}: ${scenario.backend} ${scenario.name} ×${count}`;

console.log(`bench:workers: wrk, ${CONNECTIONS_PER_WORKER} connections per worker; ${cores} core(s); ${rounds} interleaved rounds of ${duration} s, medians`);
for (const placement of placements) {
  console.log(`  ${placement.name}: ${placement.serverCpu === undefined ? 'nothing pinned' : `workers on cores ${placement.serverCpu}, wrk on ${placement.loadCpu}`}`);
}
try {
  const runs = [];
  for (const placement of placements) {
    for (const backend of ['uws', 'node']) {
      for (const count of counts) {
        const name = `${placement.name}-${backend}-${count}`;
        const args = [
          `${root}bin/run.js`,
          'serve',
          '--spec',
          `${root}examples/petstore.yaml`,
          '--out',
          join(scratch, 'out'),
          '--host',
          '127.0.0.1',
          '--http-port',
          '0',
          '--workers',
          String(count),
          '--http-backend',
          backend,
        ];
        const server = await startServer(name, args, { cwd: scratch, env: cleanEnv, cpu: placement.serverCpu });
        started.push(server);
        for (const scenario of scenarios.filter((s) => s.backend === backend)) {
          await checkStatus(server.url, scenario);
          runs.push({ target: label(placement, scenario, count), url: server.url, scenario, placement, count });
        }
      }
    }
  }
  // what the admin API's aggregation costs: the same two workers without a client of the live
  // stream (nothing is forwarded) and with one (every entry goes to the primary, then to the stream)
  const streamPlacement = placements[0];
  const embedded = await startServer(
    'admin-embed',
    [`${root}bin/run.js`, 'serve', '--spec', `${root}examples/petstore.yaml`, '--out', join(scratch, 'out'), '--host', '127.0.0.1', '--http-port', '0', '--workers', '2', '--admin-embed'],
    { cwd: scratch, env: cleanEnv, cpu: streamPlacement.serverCpu },
  );
  started.push(embedded);
  const staticScenario = scenarios[0];
  const quiet = `${streamPlacement.name}: uws static ×2, --admin-embed`;
  runs.push({ target: quiet, url: embedded.url, scenario: staticScenario, placement: streamPlacement, count: 2, against: quiet });
  runs.push({ target: `${quiet}, a dashboard stream open`, url: embedded.url, scenario: staticScenario, placement: streamPlacement, count: 2, against: quiet, stream: openDashboardStream });
  runs.push({ target: `${quiet}, an SSE log stream open`, url: embedded.url, scenario: staticScenario, placement: streamPlacement, count: 2, against: quiet, stream: openLiveStream });
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const { target, url, scenario, placement, count, stream } of runs) {
      process.stdout.write(`  ${target} … `);
      const load = { connections: CONNECTIONS_PER_WORKER * count, cpu: placement.loadCpu, scriptFile, threads: Math.min(count, placement.loadCores) };
      const client = stream === undefined ? undefined : await stream(url);
      if (round === 1) await runWrk(url, scenario, { ...load, duration: WARMUP });
      const result = await runWrk(url, scenario, { ...load, duration });
      const read = client?.entries();
      client?.close();
      console.log(`${Math.round(result.reqPerSec).toLocaleString('en-US')} req/s${read === undefined ? '' : `; the stream read ${read.toLocaleString('en-US')} entries`}`);
      samples.set(target, [...(samples.get(target) ?? []), result.reqPerSec]);
    }
  }
  const rows = runs.map(({ target, scenario, placement, count, against }) => {
    const reqPerSec = median(samples.get(target));
    const base = median(samples.get(against ?? label(placement, scenario, 1)));
    return { target, workers: count, reqPerSec, against: against ?? label(placement, scenario, 1), ratio: base > 0 ? reqPerSec / base : null };
  });
  console.log('');
  printTable([
    ['target', 'req/s (median)', 'vs ×1 (or against)'],
    ...rows.map((row) => [row.target, Math.round(row.reqPerSec).toLocaleString('en-US'), row.ratio === null ? '–' : `${row.ratio.toFixed(2)}×`]),
  ]);
  await writeResults('workers', { generator: 'wrk', cores, placements, rounds, duration, results: rows, samples: Object.fromEntries(samples) }, loadBefore);
} catch (e) {
  console.error(`\nbench:workers failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(started.map((server) => server.stop()));
  await rm(scratch, { recursive: true, force: true });
}

#!/usr/bin/env node
// WebSocket benchmark (`npm run bench:ws`): echo messages per second and latency of `mock serve`'s
// WebSocket server (--ws-port; by default it echoes every message on any path) against a raw
// uWebSockets.js echo server, the baseline, and an echo server on the `ws` package (what the mock
// runs on where uWebSockets.js has no build), all measured in this run on loopback.
//
// The load is benchmarks/lib/ws-client.js, in child processes (lib/ws-load.js): neither wrk nor
// autocannon speaks WebSocket, and a general-purpose client would be slower than the servers. Every
// connection keeps a window of small text messages in flight (pre-encoded masked frames, refilled
// in one write per read); latency is reply time − send time per message. Servers are pinned with
// taskset to core 0, the load to core 1 (cores 1… with several load processes). All servers run
// at once; each round measures every target in turn (interleaved), and the report gives medians.
// The CPU the server and the load used over each measurement says whether the load saturated the
// server (the raw uWS server should run near 100 % of its core) or was the limit itself.
//
// BENCH_DURATION=<seconds per measurement> (default 10), BENCH_ROUNDS (default 4),
// BENCH_WS_CONNECTIONS (default 32), BENCH_WS_WINDOW (messages in flight per connection, a power
// of two, default 64), BENCH_WS_CLIENTS (load processes, default 1; more only help with more than
// two cores), BENCH_WS_MOCK=0 leaves the mock out (the baselines alone). Prints a table, the
// target (mock ≥ 0.7× raw uWS) and the saturation; writes benchmarks/results/websocket-latest.json.
// Exits 0 whatever the numbers (a benchmark, not a test); 1 if a server fails to start or to
// upgrade, or an echo comes back wrong (checked before measuring, and on a sample of the replies).
import { spawn } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as hdr from 'hdr-histogram-js';
import { positiveEnv } from './lib/env.js';
import { tasksetAvailable } from './lib/generator.js';
import { median, printTable } from './lib/report.js';
import { startServer } from './lib/servers.js';
import { checkEcho, createHistogram } from './lib/ws-client.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = new URL('./results/', import.meta.url);

const duration = positiveEnv('BENCH_DURATION', 10);
const rounds = positiveEnv('BENCH_ROUNDS', 4);
const load = {
  connections: positiveEnv('BENCH_WS_CONNECTIONS', 32),
  window: positiveEnv('BENCH_WS_WINDOW', 64),
  payloadSize: 32,
  clients: positiveEnv('BENCH_WS_CLIENTS', 1),
  path: '/bench/echo',
  duration,
  // every measurement is a fresh load process (its JIT warms up again); the servers' first one is longer
  warmup: 1,
  firstWarmup: 2,
};
if (!Number.isInteger(Math.log2(load.window))) throw new Error(`BENCH_WS_WINDOW must be a power of two, not ${load.window}`);
// a load process has at least one connection
load.clients = Math.min(load.clients, load.connections);
const withMock = process.env.BENCH_WS_MOCK !== '0';
const HOST = '127.0.0.1';
/** The raw uWS server must use at least this share of its core for the load to count as saturating it. */
const SATURATED = 0.9;

const pinned = cpus().length >= 2 && tasksetAvailable();
const serverCpu = pinned ? 0 : undefined;
const loadCpus = pinned ? Array.from({ length: cpus().length - 1 }, (_, i) => i + 1) : undefined;
const loadCpu = (i) => (loadCpus === undefined ? undefined : loadCpus[i % loadCpus.length]);
const generatorNote =
  `benchmarks/lib/ws-client.js, ${load.clients} process${load.clients > 1 ? 'es' : ''}` +
  `${pinned ? ` on core${loadCpus.length > 1 && load.clients > 1 ? 's' : ''} ${[...new Set(Array.from({ length: load.clients }, (_, i) => loadCpu(i)))].join(',')}; servers on core 0` : ' (not pinned: taskset or a second core is missing)'}`;

// The mock runs from a scratch directory with MOCK_* settings stripped, so neither a mock.yaml nor
// the caller's environment changes what is measured: default settings.
const scratch = await mkdtemp(`${tmpdir()}/mock-bench-ws-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));

const BASELINE = 'raw uWS echo';
const WS_PACKAGE = 'ws package echo';
const MOCK = 'mock serve echo';
const targets = [{ target: MOCK, minRatio: 0.7 }];

/** A port nothing listens on now (the mock takes --ws-port as a number; 0 is not documented to pick one). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks the echo of a text and a binary message on `/` and on the measured path, waiting up to
 * `waitMs` for the port to accept connections (the mock's WebSocket server may listen after its
 * HTTP readiness line); a refused upgrade or a wrong echo fails at once.
 */
async function expectEcho(name, port, waitMs = 0) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      for (const path of ['/', load.path]) await checkEcho(HOST, port, path);
      return;
    } catch (e) {
      if (/ECONNREFUSED/.test(e.message) && Date.now() < deadline) {
        await sleep(100);
        continue;
      }
      const hint = /ECONNREFUSED/.test(e.message) && waitMs > 0 ? ` (nothing listens on ${port} after ${waitMs / 1000} s: has this build a WebSocket server? BENCH_WS_MOCK=0 measures the baselines alone)` : '';
      throw new Error(`${name}: ${e.message}${hint}`);
    }
  }
}

/** One load process, pinned: resolves with { ready, result } promises and its stdin. */
function startLoad(i, options) {
  const args = [`${root}benchmarks/lib/ws-load.js`, JSON.stringify(options)];
  const cpu = loadCpu(i);
  const [command, argv] = cpu === undefined ? [process.execPath, args] : ['taskset', ['-c', String(cpu), process.execPath, ...args]];
  const child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const messages = [];
  const waiting = [];
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    if (waiting.length > 0) waiting.shift().resolve(message);
    else messages.push(message);
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  const next = () =>
    messages.length > 0
      ? Promise.resolve(messages.shift())
      : new Promise((resolve, reject) => {
          waiting.push({ resolve });
          exited.then((code) => reject(new Error(`load process ${i} exited with ${code}: ${stderr.trim()}`)));
        });
  return { next, go: () => child.stdin.end('go\n'), kill: () => child.kill('SIGKILL') };
}

/** One measurement of the server on `port` (process `pid`): every load process, merged. */
async function measure(port, pid, warmup) {
  const share = Math.floor(load.connections / load.clients);
  const processes = Array.from({ length: load.clients }, (_, i) =>
    startLoad(i, {
      host: HOST,
      port,
      path: load.path,
      connections: i < load.connections % load.clients ? share + 1 : share,
      window: load.window,
      payloadSize: load.payloadSize,
      warmup,
      duration,
      serverPid: pid,
    }),
  );
  try {
    await Promise.all(processes.map((p) => p.next()));
    for (const p of processes) p.go();
    const results = await Promise.all(processes.map((p) => p.next()));
    const histogram = createHistogram();
    for (const r of results) histogram.add(hdr.decodeFromCompressedBase64(r.histogram));
    const ms = (us) => us / 1000;
    return {
      msgsPerSec: results.reduce((sum, r) => sum + r.messages / r.seconds, 0),
      p50: ms(histogram.getValueAtPercentile(50)),
      p99: ms(histogram.getValueAtPercentile(99)),
      messages: results.reduce((sum, r) => sum + r.messages, 0),
      wrong: results.reduce((sum, r) => sum + r.wrong, 0),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
      problems: results.flatMap((r) => r.problems).slice(0, 5),
      serverCpu: results[0].serverCpu,
      clientCpu: results.map((r) => r.clientCpu),
    };
  } finally {
    for (const p of processes) p.kill();
  }
}

const percent = (share) => (share === null || share === undefined ? '–' : `${Math.round(share * 100)} %`);
const times = (value) => (value === null ? '–' : `${value.toFixed(2)}×`);
const millis = (value) => (value === null ? '–' : value < 10 ? value.toFixed(2) : value.toFixed(1));

const servers = [
  { name: BASELINE, args: [`${root}benchmarks/baselines/uws-echo.js`] },
  { name: WS_PACKAGE, args: [`${root}benchmarks/baselines/ws-echo.js`] },
  ...(withMock
    ? [
        {
          name: MOCK,
          // the WebSocket port is picked when the mock starts, so no baseline started before can take it
          args: (wsPort) => [`${root}bin/run.js`, 'serve', '--spec', `${root}examples/petstore.yaml`, '--out', `${scratch}/mock`, '--host', HOST, '--http-port', '0', '--ws-port', String(wsPort)],
          env: cleanEnv,
          waitMs: 10_000,
        },
      ]
    : []),
];

// other work on the machine moves the numbers; the load averages in the JSON make that visible
const loadBefore = loadavg();
console.log(`bench:ws: ${generatorNote}`);
console.log(
  `${load.connections} connections × ${load.window} messages in flight, ${load.payloadSize}-byte text frames; ` +
    `${load.firstWarmup} s warm-up (then ${load.warmup} s per measurement), ${rounds} interleaved rounds of ${duration} s, medians` +
    `${withMock ? '' : '\nBENCH_WS_MOCK=0: the mock is left out'}\n`,
);
const started = [];
const samples = new Map();
let wrongEchoes = false;
try {
  for (const server of servers) {
    const wsPort = typeof server.args === 'function' ? await freePort() : undefined;
    const args = wsPort === undefined ? server.args : server.args(wsPort);
    const running = await startServer(server.name, args, { cwd: scratch, env: server.env, cpu: serverCpu });
    // the baselines echo on the port of their readiness line
    const port = wsPort ?? Number(new URL(running.url).port);
    started.push({ ...running, port });
    // every echo first, so a wrong one fails before any time is spent measuring
    await expectEcho(server.name, port, server.waitMs);
  }
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const { name, port, pid } of started) {
      process.stdout.write(`  ${name} … `);
      const result = await measure(port, pid, round === 1 ? load.firstWarmup : load.warmup);
      console.log(`${Math.round(result.msgsPerSec).toLocaleString('en-US')} msgs/s, p99 ${millis(result.p99)} ms, server ${percent(result.serverCpu)} of its core, load ${result.clientCpu.map(percent).join(' + ')}`);
      samples.set(name, [...(samples.get(name) ?? []), result]);
      if (result.wrong > 0) wrongEchoes = true;
    }
  }
} catch (e) {
  console.error(`\nbench:ws failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(started.map((server) => server.stop()));
}

if (process.exitCode !== 1) {
  const rows = [...samples].map(([target, list]) => {
    const rates = list.map((s) => s.msgsPerSec);
    return {
      target,
      msgsPerSec: median(rates),
      msgsPerSecMin: Math.min(...rates),
      msgsPerSecMax: Math.max(...rates),
      p50: median(list.map((s) => s.p50)),
      p99: median(list.map((s) => s.p99)),
      serverCpu: median(list.map((s) => s.serverCpu)),
      clientCpu: median(list.map((s) => s.clientCpu.reduce((a, b) => a + b, 0) / s.clientCpu.length)),
      messages: list.reduce((sum, s) => sum + s.messages, 0),
      wrong: list.reduce((sum, s) => sum + s.wrong, 0),
      errors: list.reduce((sum, s) => sum + s.errors, 0),
      problems: list.flatMap((s) => s.problems).slice(0, 5),
    };
  });
  const base = rows.find((row) => row.target === BASELINE);
  const ratio = (value, of) => (of > 0 && value !== null ? value / of : null);
  const results = rows.map((row) => ({ ...row, vsBaseline: { msgsPerSec: ratio(row.msgsPerSec, base.msgsPerSec), p50: ratio(row.p50, base.p50), p99: ratio(row.p99, base.p99) } }));
  const checks = targets.map(({ target, minRatio }) => {
    const measured = results.find((row) => row.target === target)?.vsBaseline.msgsPerSec ?? null;
    return { target, against: BASELINE, minMsgsPerSecRatio: minRatio, measured, pass: measured !== null && measured >= minRatio };
  });

  // Saturation, from the raw uWS rounds: the server near a full core means the load kept up with
  // the fastest server; otherwise, a full load core means the load was the limit.
  const serverShare = base.serverCpu;
  const clientShare = base.clientCpu;
  const saturated = serverShare === null ? null : serverShare >= SATURATED;
  const machine = `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
  // CPU per message does not depend on how much of its core a process got: a load that costs less
  // per message than the server can drive the server's full core from a full core of its own
  const costs =
    serverShare > 0 && clientShare > 0
      ? `; per message the load spent ${((clientShare / base.msgsPerSec) * 1e6).toFixed(2)} µs of CPU and ${BASELINE} ${((serverShare / base.msgsPerSec) * 1e6).toFixed(2)} µs, so the load has about ${(serverShare / clientShare).toFixed(1)}× the server's throughput in it`
      : '';
  const verdict =
    serverShare === null
      ? `unknown (no /proc to read the server's CPU time; the load used ${percent(clientShare)} of its core)`
      : saturated
        ? `yes: ${BASELINE} used ${percent(serverShare)} of core ${serverCpu ?? '(unpinned)'}, the load ${percent(clientShare)} of its core${costs}`
        : clientShare >= SATURATED
          ? `NO: the load used ${percent(clientShare)} of its core and ${BASELINE} only ${percent(serverShare)}: the load was the limit, ratios to it are understated (BENCH_WS_CLIENTS=2 with a third core, or a larger BENCH_WS_WINDOW)`
          : `NO: ${BASELINE} used ${percent(serverShare)} of its core and the load ${percent(clientShare)} of its own: other work took the cores (${machine}), the numbers are not reliable${costs}`;

  console.log('');
  printTable([
    ['target', 'msgs/s (median)', 'min–max', 'p50 ms', 'p99 ms', `msgs/s vs ${BASELINE}`, 'p50 vs', 'p99 vs', 'server core', 'load core'],
    ...results.map((row) => [
      row.target,
      Math.round(row.msgsPerSec).toLocaleString('en-US'),
      `${Math.round(row.msgsPerSecMin / 1000)}k–${Math.round(row.msgsPerSecMax / 1000)}k`,
      millis(row.p50),
      millis(row.p99),
      times(row.vsBaseline.msgsPerSec),
      times(row.vsBaseline.p50),
      times(row.vsBaseline.p99),
      percent(row.serverCpu),
      percent(row.clientCpu),
    ]),
  ]);
  console.log(`\ntargets (median msgs/s relative to ${BASELINE}; load by ${generatorNote}):`);
  if (!withMock) console.log(`  (none measured: BENCH_WS_MOCK=0)`);
  else printTable(checks.map((check) => [check.pass ? 'PASS' : 'FAIL', check.target, `≥ ${check.minMsgsPerSecRatio.toFixed(2)}× ${check.against}`, `measured ${times(check.measured)}`]));
  console.log(`\nthe load saturated ${BASELINE}: ${verdict}`);
  for (const row of results.filter((r) => r.wrong || r.errors)) {
    console.log(`${row.wrong ? 'error' : 'warning'}: ${row.target}: ${row.wrong} wrong echoes, ${row.errors} connection problems${row.problems.length ? `: ${row.problems.join('; ')}` : ''}`);
  }

  await mkdir(resultsDir, { recursive: true });
  const file = new URL('websocket-latest.json', resultsDir);
  const environment = { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, cpu: cpus()[0]?.model, loadavgBefore: loadBefore, loadavgAfter: loadavg() };
  const json = {
    date: new Date().toISOString(),
    generator: generatorNote,
    saturation: { saturated, serverCpu: serverShare, clientCpu: clientShare, threshold: SATURATED, verdict },
    environment,
    load,
    rounds,
    baseline: BASELINE,
    results,
    samples: Object.fromEntries(samples),
    targets: checks,
  };
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nwrote ${fileURLToPath(file).slice(root.length)}`);
  if (wrongEchoes) {
    console.error('\nbench:ws: some echoes came back wrong (see above)');
    process.exitCode = 1;
  }
}

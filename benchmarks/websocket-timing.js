#!/usr/bin/env node
// WebSocket script timing (`npm run bench:ws-timing`): how late `mock serve` sends the `out` lines
// of a replay script. A route plays 1,000 lines due every 5 ms (BENCH_WS_TIMING_LINES,
// BENCH_WS_TIMING_STEP_MS); one client (the ws package; the server pinned to core 0) records when
// each arrives, and the report gives how late each was: (arrival − ts) less the smallest such
// difference of the connection, the transit of the most punctual line (the client cannot see
// when the server opened the connection): p50, p99, max, over BENCH_ROUNDS connections in turn. The target: p99 within
// 5 ms on an idle machine. Exits 0 whatever the numbers; 1 if the mock fails to start or a line is
// missing or out of order.
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { positiveEnv } from './lib/env.js';
import { tasksetAvailable } from './lib/generator.js';
import { median } from './lib/report.js';
import { startServer } from './lib/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const lines = positiveEnv('BENCH_WS_TIMING_LINES', 1000);
const step = positiveEnv('BENCH_WS_TIMING_STEP_MS', 5);
const rounds = positiveEnv('BENCH_ROUNDS', 3);
const pinned = cpus().length >= 2 && tasksetAvailable();

const dir = mkdtempSync(path.join(tmpdir(), 'mock-bench-ws-timing-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const script = Array.from({ length: lines }, (_, i) => JSON.stringify({ ts: i * step, dir: 'out', text: String(i) })).join('\n');
writeFileSync(path.join(dir, 'timing.jsonl'), `${script}\n`);
writeFileSync(path.join(dir, 'mock.yaml'), `websocket:\n  routes: [{ path: /timing, script: timing.jsonl }]\n`);

const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
const server = await startServer('mock serve', [`${root}bin/run.js`, 'serve', '--spec', `${root}examples/petstore.yaml`, '--out', path.join(dir, 'out'), '--host', '127.0.0.1', '--http-port', '0', '--ws-port', '0'], {
  cwd: dir,
  env: { ...env, MOCK_LOG_LEVEL: 'warn' },
  cpu: pinned ? 0 : undefined,
});
// serve prints every address in one write, so the readiness output holds the WebSocket one
const wsUrl = /WebSocket on (ws:\/\/\S+)/.exec(server.output)?.[1];
if (wsUrl === undefined) {
  console.error(`bench: mock serve printed no WebSocket address:\n${server.output}`);
  process.exit(1);
}

/** Lateness in ms of every line of one connection. */
function play() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsUrl}/timing`, { perMessageDeflate: false });
    const late = [];
    ws.on('message', (data) => {
      const i = Number(data.toString());
      if (i !== late.length) reject(new Error(`line ${late.length} expected, ${i} arrived`));
      late.push(performance.now() - i * step);
      if (late.length === lines) {
        ws.close();
        const transit = Math.min(...late);
        resolve(late.map((t) => t - transit));
      }
    });
    ws.on('error', reject);
  });
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const results = [];
try {
  for (let r = 0; r < rounds; r++) {
    const late = (await play()).sort((a, b) => a - b);
    results.push({ p50: pct(late, 50), p99: pct(late, 99), max: late.at(-1) });
  }
} catch (e) {
  console.error(`bench: ${e.message}`);
  process.exit(1);
} finally {
  await server.stop();
}
const m = (key) => median(results.map((r) => r[key]));
console.log(`WebSocket script timing: ${lines} out lines every ${step} ms, ${rounds} connection(s) in turn; client: ws package in this process${pinned ? ' (mock pinned to core 0)' : ''}; load average ${loadavg()[0].toFixed(2)}`);
console.log(`how late a line arrives after its ts (median of rounds): p50 ${m('p50').toFixed(2)} ms, p99 ${m('p99').toFixed(2)} ms, max ${m('max').toFixed(2)} ms`);
console.log(`target: p99 within 5 ms on an idle machine: ${m('p99') <= 5 ? 'met' : 'NOT met'}`);

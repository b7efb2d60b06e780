// `npm run bench:sse`: an SSE stream of `mock serve` holding many open clients (default 10,000)
// with bounded memory. The server (the OpenAPI 3.2 example, examples/streaming/events-3.2.yaml,
// GET /events: itemSchema events, endless, one a second per client) runs pinned to core 0; the
// clients are plain node:net sockets in this process on core 1, each sending one GET and counting
// the events it reads (no parsing beyond the blank line that ends an event). Reported per backend:
// the server's RSS idle, with every client open (first, peak and last sample of the hold: memory
// that does not grow while the streams run), per client (peak over idle),
// and after the clients left; the events delivered per second against the rate asked for.
// Bounded in time: connecting, BENCH_SSE_HOLD seconds (default 45: long enough to see the heap's
// sawtooth level off), closing. 127.0.0.1 only.
import net from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/servers.js';
import { positiveEnv } from './lib/env.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'run.js');
const spec = path.join(root, 'examples', 'streaming', 'events-3.2.yaml');
const CLIENTS = positiveEnv('BENCH_SSE_CLIENTS', 10_000);
const HOLD_S = positiveEnv('BENCH_SSE_HOLD', 45);
const INTERVAL_MS = positiveEnv('BENCH_SSE_INTERVAL_MS', 1000);
const BATCH = 500;
const backends = (process.env.BENCH_SSE_BACKENDS ?? 'uws,node').split(',');
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-sse-'));

try {
  execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  console.error('bench: taskset missing: the clients are not pinned');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The node process serving (taskset execs it, so the pid is the server's own). */
async function serve(backend) {
  const env = { ...process.env, MOCK_LOG_LEVEL: 'warn' };
  return startServer(`mock (${backend})`, [bin, 'serve', '--spec', spec, '--out', out, '--http-port', '0', '--host', '127.0.0.1', '--http-backend', backend, '--disable-admin-api'], {
    cwd: root,
    env,
    cpu: 0,
  });
}

/** One client: GET the endless stream, count its events. */
function client(port, counts, index) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET /events?__stream_items=forever&__stream_interval=${INTERVAL_MS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`),
    );
    let tail = '';
    socket.setEncoding('latin1');
    socket.on('data', (text) => {
      const joined = tail + text;
      let at = joined.indexOf('\n\n');
      let n = 0;
      let last = 0;
      while (at !== -1) {
        n++;
        last = at + 2;
        at = joined.indexOf('\n\n', last);
      }
      tail = joined.slice(last).slice(-2);
      // the head ends with CRLF CRLF, not counted; the first event resolves the connection
      if (n > 0 && counts[index]++ === 0) resolve(socket);
      counts[index] += n - 1;
    });
    socket.once('error', reject);
  });
}

async function run(backend) {
  const server = await serve(backend);
  const port = Number(new URL(server.url).port);
  await fetch(`${server.url}/events?__stream_items=1&__stream_interval=0`).then((r) => r.text());
  await sleep(1000);
  const idle = rssOf(server.pid);
  const counts = new Uint32Array(CLIENTS);
  const sockets = [];
  const opening = Date.now();
  for (let i = 0; i < CLIENTS; i += BATCH) {
    const batch = [];
    for (let j = i; j < Math.min(CLIENTS, i + BATCH); j++) batch.push(client(port, counts, j));
    sockets.push(...(await Promise.all(batch)));
  }
  const openMs = Date.now() - opening;
  const before = counts.reduce((a, b) => a + b, 0);
  let peak = 0;
  let last = 0;
  let first = 0;
  const samples = [];
  const started = Date.now();
  while (Date.now() - started < HOLD_S * 1000) {
    await sleep(1000);
    last = rssOf(server.pid);
    samples.push(last);
    first ||= last;
    peak = Math.max(peak, last);
  }
  const events = counts.reduce((a, b) => a + b, 0) - before;
  const rate = events / ((Date.now() - started) / 1000);
  for (const socket of sockets) socket.destroy();
  await sleep(3000);
  const after = rssOf(server.pid);
  const still = await fetch(`${server.url}/events?__stream_items=1&__stream_interval=0`).then((r) => r.status);
  await server.stop();
  return { backend, samples, idle, first, peak, last, after, openMs, rate, asked: (CLIENTS * 1000) / INTERVAL_MS, still };
}

const rows = [];
for (const backend of backends) rows.push(await run(backend));
console.log(`\nSSE: ${CLIENTS} clients open on GET /events (one event each per ${INTERVAL_MS} ms), held ${HOLD_S} s; server on core 0, clients on core 1\n`);
console.log('backend  idle RSS   open (first)  open (peak)  open (last)  per client  after close  events/s (asked)  open in  answers after');
for (const r of rows) {
  console.error(`${r.backend}: RSS each second of the hold (MB): ${r.samples.map((b) => Math.round(b / 1024 / 1024)).join(' ')}`);
  console.log(
    `${r.backend.padEnd(8)} ${mb(r.idle).padStart(9)}  ${mb(r.first).padStart(12)}  ${mb(r.peak).padStart(11)}  ${mb(r.last).padStart(11)}  ${`${((r.peak - r.idle) / CLIENTS / 1024).toFixed(1)} KB`.padStart(10)}  ${mb(r.after).padStart(11)}  ${`${Math.round(r.rate)} (${Math.round(r.asked)})`.padStart(16)}  ${`${(r.openMs / 1000).toFixed(1)} s`.padStart(7)}  ${r.still}`,
  );
}

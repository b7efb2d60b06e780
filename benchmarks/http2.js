#!/usr/bin/env node
// HTTP/2 benchmark (`npm run bench:http2`): `mock serve` on examples/petstore.yaml, one documented
// example (/v1/pets/1), served by the HTTP/2 adapter (--http-version 2: node:http2, h2c) beside
// uWebSockets.js and node:http (HTTP/1.1), in one run. h2load (nghttp2-client) is the load for all
// three, so one generator measures them: HTTP/1.1 with --h1 (50 connections, one request each at a
// time), h2c with 50 connections of one stream each (the same concurrency) and 10 connections of 10
// streams (what HTTP/2 is for). Servers on core 0, h2load on core 1; interleaved rounds, the
// servers not measured stopped (SIGSTOP); medians. BENCH_DURATION (s, default 5), BENCH_ROUNDS (5).
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { positiveEnv } from './lib/env.js';
import { h2loadAvailable, runH2load } from './lib/h2load.js';
import { startServer } from './lib/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const duration = positiveEnv('BENCH_DURATION', 5);
const rounds = positiveEnv('BENCH_ROUNDS', 5);
const ROUTE = '/v1/pets/1';
if (!h2loadAvailable()) {
  console.error('bench:http2 needs h2load (apt-get install -y nghttp2-client; brew install nghttp2)');
  process.exit(1);
}
const [serverCpu, loadCpu] = availableParallelism() >= 2 ? [0, 1] : [undefined, undefined];
const scratch = await mkdtemp(path.join(tmpdir(), 'mock-bench-http2-'));
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_'))), MOCK_LOG_LEVEL: 'warn' };
const serve = [`${root}bin/run.js`, 'serve', '--spec', `${root}examples/petstore.yaml`, '--out', `${scratch}/out`, '--host', '127.0.0.1', '--http-port', '0'];

/** Each row: a server and how h2load loads it. */
const ROWS = [
  { name: 'uWS HTTP/1.1', server: 'uws', load: { connections: 50, streams: 1, h1: true } },
  { name: 'node:http HTTP/1.1', server: 'node', load: { connections: 50, streams: 1, h1: true } },
  { name: 'node:http2 h2c 50x1', server: 'http2', load: { connections: 50, streams: 1 } },
  { name: 'node:http2 h2c 10x10', server: 'http2', load: { connections: 10, streams: 10 } },
];
const ARGS = { uws: ['--http-backend', 'uws'], node: ['--http-backend', 'node'], http2: ['--http-version', '2'] };
const servers = {};
try {
  for (const [name, args] of Object.entries(ARGS)) servers[name] = await startServer(name, [...serve, ...args], { cwd: scratch, env, cpu: serverCpu });
  console.log(`bench:http2: h2load 1 thread on core ${loadCpu ?? 'any'}, servers on core ${serverCpu ?? 'any'}; ${rounds} rounds of ${duration} s (generator: h2load for every row)\n`);
  const rates = Object.fromEntries(ROWS.map((row) => [row.name, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? ROWS : [...ROWS].reverse();
    for (const row of order) {
      const server = servers[row.server];
      const others = Object.values(servers).filter((other) => other !== server);
      for (const other of others) process.kill(other.pid, 'SIGSTOP');
      try {
        const result = await runH2load(`${server.url}${ROUTE}`, undefined, { ...row.load, duration, warmup: round === 1 ? 2 : 0, cpu: loadCpu });
        if (result.errors > 0) throw new Error(`${row.name}: ${result.errors} failed or errored requests`);
        rates[row.name].push(result.reqPerSec);
      } finally {
        for (const other of others) process.kill(other.pid, 'SIGCONT');
      }
    }
    console.log(`round ${round}: ${ROWS.map((row) => `${row.name} ${Math.round(rates[row.name].at(-1)).toLocaleString('en-US')}`).join(', ')} req/s`);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const uws = median(rates['uWS HTTP/1.1']);
  const node = median(rates['node:http HTTP/1.1']);
  console.log('\n| server | req/s (median) | × uWS | × node:http |\n|---|---|---|---|');
  for (const row of ROWS) {
    const rate = median(rates[row.name]);
    console.log(`| ${row.name} | ${Math.round(rate).toLocaleString('en-US')} | ${(rate / uws).toFixed(2)} | ${(rate / node).toFixed(2)} |`);
  }
} catch (e) {
  console.error(`\nbench:http2 failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
}

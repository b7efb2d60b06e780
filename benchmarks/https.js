#!/usr/bin/env node
// HTTPS benchmark (`npm run bench:https`): `mock serve` on examples/petstore.yaml over TLS
// (uWebSockets.js's SSLApp, the project's --tls-self-signed certificate: ECDSA P-256) against the
// same server over plain HTTP, on the same route (a documented example: the cheapest answer, so
// TLS's share shows the most). wrk (1 thread, 50 keep-alive connections) pinned to core 1, both
// servers pinned to core 0; interleaved rounds, the order swapped every round, the server not
// measured stopped (SIGSTOP) meanwhile, after an unmeasured warm-up of each; the figure is the median of the per-round ratios
// HTTPS/HTTP. Target: ≥ 0.7×. BENCH_DURATION (seconds per measurement, default 5), BENCH_ROUNDS
// (default 5). Exits 0 whatever the numbers; 1 when wrk is missing or a server fails.
import http from 'node:http';
import https from 'node:https';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { positiveEnv } from './lib/env.js';
import { startServer } from './lib/servers.js';
import { runWrk, wrkAvailable } from './lib/wrk.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const duration = positiveEnv('BENCH_DURATION', 5);
const rounds = positiveEnv('BENCH_ROUNDS', 5);
const TARGET = 0.7;
const ROUTE = { path: '/v1/pets/1' };
if (!wrkAvailable()) {
  console.error('bench:https needs wrk (apt-get install -y wrk; brew install wrk)');
  process.exit(1);
}
const [serverCpu, loadCpu] = availableParallelism() >= 2 ? [0, 1] : [undefined, undefined];

const scratch = await mkdtemp(path.join(tmpdir(), 'mock-bench-https-'));
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_'))), MOCK_LOG_LEVEL: 'warn' };
const serve = [`${root}bin/run.js`, 'serve', '--spec', `${root}examples/petstore.yaml`, '--out', `${scratch}/out`, '--host', '127.0.0.1', '--http-port', '0', '--http-backend', 'uws'];
const ready = /serving on (https?:\/\/127\.0\.0\.1:\d+)/;
const servers = [];
try {
  servers.push(await startServer('http', serve, { cwd: scratch, env, cpu: serverCpu, ready }));
  servers.push(await startServer('https', [...serve, '--tls-self-signed'], { cwd: scratch, env, cpu: serverCpu, ready }));
  const ca = readFileSync(path.join(scratch, '.mock', 'tls', 'localhost.pem'));
  for (const server of servers) {
    const client = server.url.startsWith('https:') ? https : http;
    const status = await new Promise((resolve, reject) => client.get(`${server.url}${ROUTE.path}`, { ca }, (res) => resolve(res.resume().statusCode)).on('error', reject));
    if (status !== 200) throw new Error(`${server.name} answers ${ROUTE.path} with ${status}, not 200`);
  }
  if (!servers[1].url.startsWith('https://')) throw new Error(`the TLS server serves ${servers[1].url}`);
  console.log(`bench:https: wrk 1 thread, 50 connections on core ${loadCpu ?? 'any'}, servers on core ${serverCpu ?? 'any'}; ${rounds} rounds of ${duration} s each\n`);
  // warm-up, unmeasured: JIT, TLS session set-up, lazily built state
  for (const server of servers) await runWrk(server.url, ROUTE, { connections: 50, duration: 2, cpu: loadCpu, scriptFile: path.join(scratch, 'wrk.lua') });
  const ratios = [];
  const rates = { http: [], https: [] };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? servers : [...servers].reverse();
    const measured = {};
    for (const server of order) {
      const others = servers.filter((other) => other !== server);
      for (const other of others) process.kill(other.pid, 'SIGSTOP');
      try {
        const result = await runWrk(server.url, ROUTE, { connections: 50, duration, cpu: loadCpu, scriptFile: path.join(scratch, 'wrk.lua') });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.name}: ${result.non2xx} non-2xx answers, ${result.errors} socket errors`);
        measured[server.name] = result.reqPerSec;
      } finally {
        for (const other of others) process.kill(other.pid, 'SIGCONT');
      }
    }
    rates.http.push(measured.http);
    rates.https.push(measured.https);
    ratios.push(measured.https / measured.http);
    console.log(
      `round ${round}: http ${Math.round(measured.http).toLocaleString('en-US')} req/s, https ${Math.round(measured.https).toLocaleString('en-US')} req/s, ratio ${(measured.https / measured.http).toFixed(3)}`,
    );
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ratio = median(ratios);
  console.log(
    `\nmedian: http ${Math.round(median(rates.http)).toLocaleString('en-US')} req/s, https ${Math.round(median(rates.https)).toLocaleString('en-US')} req/s; HTTPS/HTTP ratio (median of rounds) ${ratio.toFixed(3)} (target ≥ ${TARGET}: ${ratio >= TARGET ? 'met' : 'MISSED'})`,
  );
} catch (e) {
  console.error(`\nbench:https failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}

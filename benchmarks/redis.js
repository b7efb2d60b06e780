#!/usr/bin/env node
// state.store benchmark (`npm run bench:redis`): a stateful route and a chaos rate-limited route of
// examples/petstore.yaml, each served with the state in memory and in Redis (a redis-server
// started here on a free loopback port, no persistence), measured in the same run. wrk pinned to
// core 1, servers (and redis-server) on core 0, as benchmarks/http.js does; interleaved rounds,
// medians. BENCH_DURATION (default 10), BENCH_ROUNDS (default 4). Targets: the Redis rows keep
// 0.5x (stateful: a read and a compare-and-set script per request) and 0.7x (rate-limited) of
// the memory rows. A benchmark, not a test: exits 0 whatever the numbers.
import { spawn } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { chooseGenerator } from './lib/generator.js';
import { checkTargets, medianOf, printReport, withRatios, writeResults } from './lib/report.js';
import { measureInRounds } from './lib/rounds.js';
import { STATEFUL_PETS_CONFIG } from './lib/stateful-config.js';
import { positiveEnv } from './lib/env.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const duration = positiveEnv('BENCH_DURATION', 10);
const rounds = positiveEnv('BENCH_ROUNDS', 4);
const load = { connections: 50, pipelining: 1, duration, warmup: 2 };
const generator = chooseGenerator();

const scratch = await mkdtemp(`${tmpdir()}/mock-bench-redis-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));

const port = await new Promise((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const pin = generator.serverCpu === undefined ? [] : ['taskset', '-c', String(generator.serverCpu)];
const [redisCommand, ...redisArgs] = [...pin, 'redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', scratch];
const redis = spawn(redisCommand, redisArgs, { stdio: 'ignore' });
process.once('exit', () => redis.kill('SIGKILL'));
const redisEnv = { MOCK_STATE_STORE: 'redis', MOCK_REDIS_URL: `redis://127.0.0.1:${port}` };

const statefulConfig = `${scratch}/stateful.yaml`;
const stateful = { path: '/v1/pets/1', status: 200 };
// one bucket for every request, so large it never refuses: what is measured is taking a token
const rateLimit = { rate_limit: { enabled: true, requests_per_second: 1_000_000, burst_size: 1_000_000 } };
const limited = { path: '/v1/pets/1', status: 200 };

const mock = (name, env, extra) => ({
  name,
  args: [`${root}bin/run.js`, 'serve', '--spec', `${root}examples/petstore.yaml`, '--out', `${scratch}/${name}`, '--host', '127.0.0.1', '--http-port', '0', ...extra],
  env: { ...cleanEnv, MOCK_LOG_LEVEL: 'warn', ...env },
});
async function limit(url) {
  const response = await fetch(`${url}/__mock/api/chaos/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rateLimit) });
  if (response.status !== 200) throw new Error(`chaos rate limit: ${response.status} ${await response.text()}`);
  // the settings reach the request path from the store's notification
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const servers = [
  { ...mock('memory-stateful', {}, ['--config', statefulConfig]), runs: [['memory: stateful', stateful]] },
  { ...mock('redis-stateful', redisEnv, ['--config', statefulConfig]), runs: [['redis: stateful', stateful]] },
  { ...mock('memory-limited', {}, ['--admin-embed']), setup: limit, runs: [['memory: rate-limited', limited]] },
  { ...mock('redis-limited', { ...redisEnv, MOCK_REDIS_KEY_PREFIX: 'limited:' }, ['--admin-embed']), setup: limit, runs: [['redis: rate-limited', limited]] },
];
const targets = [
  { target: 'redis: stateful', against: 'memory: stateful', minReqPerSecRatio: 0.5 },
  { target: 'redis: rate-limited', against: 'memory: rate-limited', minReqPerSecRatio: 0.7 },
];

const loadBefore = loadavg();
console.log(`bench:redis: ${generator.note}`);
console.log(`${load.connections} connections, ${load.warmup} s warm-up per target, ${rounds} interleaved rounds of ${duration} s, medians\n`);
const started = [];
const samples = new Map();
try {
  await writeFile(statefulConfig, STATEFUL_PETS_CONFIG);
  await measureInRounds({ servers, cwd: scratch, generator, load, rounds, started, samples });
} catch (e) {
  console.error(`\nbench:redis failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(started.map((server) => server.stop()));
  // a child still running keeps this process alive
  redis.kill('SIGKILL');
}

if (process.exitCode !== 1) {
  const rows = [...samples].map(([target, list]) => ({ target, ...medianOf(list) }));
  const measured = withRatios(rows, rows.find((row) => row.target === 'memory: stateful'));
  const checks = checkTargets(measured, targets);
  console.log('');
  printReport(measured, checks, 'memory: stateful', generator.name);
  await writeResults('redis', { generator: generator.note, load, rounds, baseline: 'memory: stateful', results: measured, samples: Object.fromEntries(samples), targets: checks }, loadBefore);
}

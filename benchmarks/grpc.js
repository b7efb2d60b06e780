#!/usr/bin/env node
// gRPC benchmark (`npm run bench:grpc`): unary calls per second and p50/p99 of `mock serve`'s gRPC
// server (helloworld.Greeter/SayHello from the corpus: a generated answer, and a constant one from a
// grpc.methods rule) against a hand-written @grpc/grpc-js server answering a constant message
// (benchmarks/baselines/grpc-constant.js), the baseline, measured in this run on loopback with 100
// calls in flight (4 connections × 25 streams); then the cold start of `mock serve` on the corpus's
// protos, with a build to make and with the build made.
//
// The load is h2load (`apt-get install nghttp2-client`), 1 thread, pinned with taskset to core 1
// while the servers run on core 0; each round measures every target in turn (interleaved), and the
// report gives medians. BENCH_DURATION=<seconds per measurement> (default 10), BENCH_ROUNDS
// (default 4). Writes benchmarks/results/grpc-latest.json. Exits 0 whatever the numbers; 1 if h2load
// is missing, a server fails to start, or a call answers anything but OK.
import { spawn } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { positiveEnv } from './lib/env.js';
import { tasksetAvailable } from './lib/generator.js';
import { grpcFrame, h2loadAvailable, runH2load } from './lib/h2load.js';
import { median, medianOf, printReport, checkTargets, withRatios, writeResults } from './lib/report.js';
import { startServer } from './lib/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const corpusProtos = fileURLToPath(new URL('../../shared/corpus/proto/', import.meta.url));
const helloworld = `${corpusProtos}examples/helloworld.proto`;

const duration = positiveEnv('BENCH_DURATION', 10);
const rounds = positiveEnv('BENCH_ROUNDS', 4);
const load = { connections: 4, streams: 25, duration, warmup: 2 };
const pinned = cpus().length >= 2 && tasksetAvailable();
const serverCpu = pinned ? 0 : undefined;
const loadCpu = pinned ? 1 : undefined;

if (!h2loadAvailable()) {
  console.error('bench:grpc needs h2load: apt-get install nghttp2-client (brew install nghttp2)');
  process.exit(1);
}

const scratch = await mkdtemp(`${tmpdir()}/mock-bench-grpc-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
const READY = /gRPC on (127\.0\.0\.1:\d+)/;

const BASELINE = 'grpc-js, constant answer';
const mock = (name, config) => ({ name, args: [`${root}bin/run.js`, 'serve', '--config', `${scratch}/${name}.yaml`, '--out', `${scratch}/${name}-out`], config, ready: READY, env: { ...cleanEnv, MOCK_LOG_LEVEL: 'warn' } });
const protoDir = `${scratch}/proto`;
const servers = [
  { name: BASELINE, args: [`${root}benchmarks/baselines/grpc-constant.js`, helloworld], env: cleanEnv },
  mock('mock, generated answer', `seed: 1\nserver: { grpc_port: 0, bind: 127.0.0.1 }\ngrpc: { proto_dir: ${JSON.stringify(protoDir)} }\n`),
  mock('mock, grpc.methods rule', `seed: 1\nserver: { grpc_port: 0, bind: 127.0.0.1 }\ngrpc:\n  proto_dir: ${JSON.stringify(protoDir)}\n  methods: [{ method: helloworld.Greeter/SayHello, response: { message: Hello world } }]\n`),
];
const targets = [
  { target: 'mock, grpc.methods rule', minReqPerSecRatio: 0.5 },
  { target: 'mock, generated answer', minReqPerSecRatio: 0.5 },
];

const requestType = protobuf.loadSync(helloworld).lookupType('helloworld.HelloRequest');
const body = grpcFrame(Buffer.from(requestType.encode({ name: 'world' }).finish()));

/** One call with a real client: the server must answer OK before it is measured. */
async function checkCall(address) {
  const loaded = grpc.loadPackageDefinition(loadSync(helloworld, { keepCase: true }));
  const client = new loaded.helloworld.Greeter(address, grpc.credentials.createInsecure());
  try {
    return await new Promise((resolve, reject) => client.SayHello({ name: 'world' }, (error, reply) => (error ? reject(error) : resolve(reply))));
  } finally {
    client.close();
  }
}

/** Milliseconds from spawning `mock serve` to its "gRPC on" line. */
function coldStart(cwd, out) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}bin/run.js`, 'serve', '--proto-dir', 'proto', '--grpc-port', '0', '--host', '127.0.0.1', '--out', out], { cwd, env: { ...cleanEnv, MOCK_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (READY.test(output)) {
        const ms = performance.now() - started;
        child.once('exit', () => resolve(ms));
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      if (!READY.test(output)) reject(new Error(`mock serve exited with ${code}: ${output.trim().slice(-300)}`));
    });
  });
}

const loadBefore = loadavg();
console.log(`bench:grpc: h2load, 1 thread${pinned ? ', on core 1; servers on core 0' : ' (not pinned)'}`);
console.log(`${load.connections} connections × ${load.streams} streams, ${load.warmup} s warm-up per target, ${rounds} interleaved rounds of ${duration} s, medians\n`);
const started = [];
const samples = new Map();
const cold = { build: [], built: [] };
try {
  mkdirSync(protoDir);
  cpSync(`${corpusProtos}examples`, protoDir, { recursive: true });
  for (const server of servers) {
    if (server.config !== undefined) await writeFile(`${scratch}/${server.name}.yaml`, server.config);
    const running = await startServer(server.name, server.args, { cwd: scratch, env: server.env, cpu: serverCpu, ready: server.ready ?? /serving on http:\/\/(127\.0\.0\.1:\d+)/ });
    started.push(running);
    const reply = await checkCall(running.url);
    console.log(`${server.name}: ${JSON.stringify(reply)}`);
  }
  console.log('');
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const [i, server] of servers.entries()) {
      process.stdout.write(`  ${server.name} … `);
      const result = await runH2load(`http://${started[i].url}/helloworld.Greeter/SayHello`, body, { ...load, warmup: round === 1 ? load.warmup : 0, cpu: loadCpu });
      console.log(`${Math.round(result.reqPerSec).toLocaleString('en-US')} calls/s`);
      samples.set(server.name, [...(samples.get(server.name) ?? []), { ...result, method: 'POST', path: '/helloworld.Greeter/SayHello' }]);
    }
  }
  await Promise.all(started.splice(0).map((server) => server.stop()));
  // cold start on every corpus proto (examples and grpc/**): with a build to make, then with it made
  const project = `${scratch}/cold`;
  mkdirSync(`${project}/proto`, { recursive: true });
  cpSync(corpusProtos, `${project}/proto`, { recursive: true });
  for (let i = 0; i < 3; i++) {
    rmSync(`${project}/out`, { recursive: true, force: true });
    cold.build.push(await coldStart(project, `${project}/out`));
    cold.built.push(await coldStart(project, `${project}/out`));
  }
} catch (e) {
  console.error(`\nbench:grpc failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(started.map((server) => server.stop()));
}

if (process.exitCode !== 1) {
  const rows = [...samples].map(([target, list]) => ({ target, ...medianOf(list) }));
  const measured = withRatios(rows, rows.find((row) => row.target === BASELINE));
  const checks = checkTargets(measured, targets);
  console.log('');
  printReport(measured, checks, BASELINE, 'h2load');
  const start = { with_build_ms: Math.round(median(cold.build)), built_ms: Math.round(median(cold.built)) };
  console.log(`\ncold start of mock serve on the corpus protos (median of 3, to its "gRPC on" line): ${start.with_build_ms} ms with the build to make, ${start.built_ms} ms with it made`);
  await writeResults('grpc', { generator: 'h2load', load, rounds, baseline: BASELINE, results: measured, samples: Object.fromEntries(samples), targets: checks, cold_start: start }, loadBefore);
}

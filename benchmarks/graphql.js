#!/usr/bin/env node
// GraphQL benchmark (`npm run bench:graphql`): queries per second and p99 of `mock serve`'s GraphQL
// server (graphql-jit, documents compiled once and cached, uWebSockets.js) for a mid-size query on
// the corpus's SWAPI schema, against graphql's own parse, validate and execute over the same
// schema and resolvers in a minimal node:http server (benchmarks/baselines/graphql-js.js), the
// baseline, all measured in this run on loopback. Also measured: the same baseline with each
// document parsed and validated once (a cache without graphql-jit), and the mock on node:http, so
// that what graphql-jit, the cache and uWS each give can be told apart.
//
// The load generator is wrk, 1 thread, pinned with taskset to core 1 while the servers run on core 0
// (autocannon when wrk is missing, labelled as such). Each round measures every target in turn
// (interleaved); the report gives medians. BENCH_DURATION=<seconds per measurement> (default 10),
// BENCH_ROUNDS (default 4). Target: mock ≥ 1.5× the baseline. Writes
// benchmarks/results/graphql-latest.json. Exits 0 whatever the numbers; 1 if a server fails to start
// or a query answers with errors.
import { loadavg, tmpdir } from 'node:os';
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { positiveEnv } from './lib/env.js';
import { chooseGenerator } from './lib/generator.js';
import { checkTargets, medianOf, printReport, withRatios, writeResults } from './lib/report.js';
import { startServer } from './lib/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const schema = fileURLToPath(new URL('../../shared/corpus/graphql/swapi.graphql', import.meta.url));

const duration = positiveEnv('BENCH_DURATION', 10);
const rounds = positiveEnv('BENCH_ROUNDS', 4);
const load = { connections: 50, pipelining: 1, duration, warmup: 2 };
const generator = chooseGenerator();

// a mid-size query: two levels of lists, a fragment, an alias and a variable (about 60 fields answered)
const query = `query Films($first: Int = 3) {
  allFilms(first: $first) {
    totalCount
    films { ...FilmFields cast: characterConnection(first: 3) { characters { name birthYear gender homeworld { name climates } } } }
  }
  hero: person(id: "cGVvcGxlOjE=") { name height mass species { name classification } }
}
fragment FilmFields on Film { id title episodeID director producers releaseDate openingCrawl }`;
const scenario = {
  path: '/graphql',
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify({ query, operationName: 'Films', variables: { first: 3 } }),
  status: 200,
};

const BASELINE = 'graphql-js execute, node:http';
const scratch = await mkdtemp(`${tmpdir()}/mock-bench-graphql-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
const GRAPHQL_READY = /GraphQL on (http:\/\/127\.0\.0\.1:\d+)\/graphql/;
const mock = (name, backend) => ({
  name,
  args: [`${root}bin/run.js`, 'serve', '--graphql-schema', schema, '--graphql-port', '0', '--host', '127.0.0.1', '--seed', '1', '--out', `${scratch}/${name}`, '--config', `${scratch}/${name}.yaml`],
  config: `server: { http_backend: ${backend} }\nlogging: { level: warn }\n`,
  env: { ...cleanEnv, MOCK_LOG_LEVEL: 'warn' },
  ready: GRAPHQL_READY,
});
const CACHED = 'graphql-js execute, documents cached, node:http';
const servers = [
  { name: BASELINE, args: [`${root}benchmarks/baselines/graphql-js.js`, schema, '1'], env: cleanEnv },
  { name: CACHED, args: [`${root}benchmarks/baselines/graphql-js.js`, schema, '1', 'cached'], env: cleanEnv },
  mock('mock (graphql-jit, uWS)', 'uws'),
  mock('mock on node:http', 'node'),
];
const targets = [{ target: 'mock (graphql-jit, uWS)', minReqPerSecRatio: 1.5 }];
// not targets: what graphql-jit gives beyond a document cache, on the same server library and on the mock's own
const context = [
  { target: 'mock on node:http', against: CACHED },
  { target: 'mock (graphql-jit, uWS)', against: CACHED },
];

/** A query that answers with errors would measure the wrong thing. */
async function checkAnswer(url) {
  const response = await fetch(url + scenario.path, { method: 'POST', headers: scenario.headers, body: scenario.body });
  const body = await response.json();
  if (response.status !== 200 || body.errors !== undefined || body.data?.allFilms?.films === undefined) throw new Error(`the query answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return JSON.stringify(body).length;
}

const loadBefore = loadavg();
console.log(`bench:graphql: ${generator.note}`);
console.log(`${load.connections} connections, ${load.warmup} s warm-up per target, ${rounds} interleaved rounds of ${duration} s, medians\n`);
const started = [];
const samples = new Map();
try {
  for (const server of servers) {
    if (server.config !== undefined) await writeFile(`${scratch}/${server.name}.yaml`, server.config);
    const running = await startServer(server.name, server.args, { cwd: scratch, env: server.env, cpu: generator.serverCpu, ready: server.ready });
    started.push(running);
    console.log(`${server.name}: ${await checkAnswer(running.url)} bytes per answer`);
  }
  console.log('');
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const [i, server] of servers.entries()) {
      process.stdout.write(`  ${server.name} … `);
      const result = await generator.measure(started[i].url, scenario, { ...load, warmup: round === 1 ? load.warmup : 0 });
      console.log(`${Math.round(result.reqPerSec).toLocaleString('en-US')} req/s`);
      samples.set(server.name, [...(samples.get(server.name) ?? []), { ...result, method: 'POST', path: scenario.path }]);
    }
  }
} catch (e) {
  console.error(`\nbench:graphql failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(started.map((server) => server.stop()));
}

if (process.exitCode !== 1) {
  const rows = [...samples].map(([target, list]) => ({ target, ...medianOf(list) }));
  const measured = withRatios(rows, rows.find((row) => row.target === BASELINE));
  const checks = checkTargets(measured, targets);
  const against = checkTargets(measured, context.map((row) => ({ ...row, minReqPerSecRatio: 0 }))).map(({ target, against: base, measured: ratio }) => ({ target, against: base, ratio }));
  console.log('');
  printReport(measured, checks, BASELINE, generator.name);
  console.log('\nagainst a document cache without graphql-jit (not targets):');
  for (const row of against) console.log(`  ${row.target} against ${row.against}: ${row.ratio === null ? '–' : `${row.ratio.toFixed(2)}×`}`);
  await writeResults('graphql', { generator: generator.note, load, rounds, baseline: BASELINE, query, results: measured, samples: Object.fromEntries(samples), targets: checks, context: against }, loadBefore);
}

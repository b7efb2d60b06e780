#!/usr/bin/env node
// GraphQL benchmark (`npm run bench:graphql`): queries per second and p99 of `mock serve`'s GraphQL
// server for a mid-size query on the corpus's SWAPI schema, all measured in this run on loopback:
// - the peers: GraphQL Yoga and Apollo Server, each on node:http with the schema mocked by
//   @graphql-tools/mock (benchmarks/peers/graphql/: graphql-yoga.js, apollo-server.js, installed there
//   on the first run), NODE_ENV=production;
// - the mock with its answer cache (graphql.answer_cache_bytes), the same query repeated (warm: every
//   answer after the first from the cache), and cold: a new document every request (a comment in it
//   carries a count, so each is parsed, validated, compiled by graphql-jit and executed);
// - the mock with the answer cache off (graphql-jit, documents compiled once and cached), on uWS and
//   on node:http;
// - graphql's own parse, validate and execute over the mock's schema and resolvers in a minimal
//   node:http server (benchmarks/baselines/graphql-js.js), the baseline, and the same with each
//   document parsed and validated once (a document cache without graphql-jit).
//
// The load generator is wrk, 1 thread, pinned with taskset to core 1 while the servers run on core 0
// (autocannon when wrk is missing, labelled as such). Each round measures every target in turn
// (interleaved); the report gives medians. BENCH_DURATION=<seconds per measurement> (default 10),
// BENCH_ROUNDS (default 4). Targets: the mock with its answer cache ≥ 10× the best peer; with the
// cache off ≥ 1.5× the baseline. Writes benchmarks/results/graphql-latest.json. Exits 0 whatever the
// numbers; 1 if a server fails to start, a query answers with errors, or the warm mock does not
// answer from its cache.
import { loadavg, tmpdir } from 'node:os';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { positiveEnv } from './lib/env.js';
import { chooseGenerator } from './lib/generator.js';
import { installedPeers } from './lib/peers.js';
import { checkTargets, medianOf, printReport, withRatios, writeResults } from './lib/report.js';
import { startServer } from './lib/servers.js';
import { UNIQUE } from './lib/wrk.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const schema = fileURLToPath(new URL('../../shared/corpus/graphql/swapi.graphql', import.meta.url));
const peers = installedPeers('graphql');
const versionOf = (name) => JSON.parse(readFileSync(`${peers}node_modules/${name}/package.json`, 'utf8')).version;

const duration = positiveEnv('BENCH_DURATION', 10);
const rounds = positiveEnv('BENCH_ROUNDS', 4);
const load = { connections: 50, pipelining: 1, duration, warmup: 2 };
const generator = chooseGenerator();

// a mid-size query: two levels of lists, a fragment, an alias and a variable (about 60 fields answered)
const queryOf = (comment) => `query Films($first: Int = 3) {${comment}
  allFilms(first: $first) {
    totalCount
    films { ...FilmFields cast: characterConnection(first: 3) { characters { name birthYear gender homeworld { name climates } } } }
  }
  hero: person(id: "cGVvcGxlOjE=") { name height mass species { name classification } }
}
fragment FilmFields on Film { id title episodeID director producers releaseDate openingCrawl }`;
const query = queryOf('');
const request = (text) => ({
  path: '/graphql',
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify({ query: text, operationName: 'Films', variables: { first: 3 } }),
  status: 200,
});
const scenario = request(query);
// the same query, a comment in it counting the requests: a document seen for the first time, each
const coldScenario = request(queryOf(` # ${UNIQUE}`));

const BASELINE = 'graphql-js execute, node:http';
const CACHED = 'graphql-js execute, documents cached, node:http';
const YOGA = `GraphQL Yoga ${versionOf('graphql-yoga')} + graphql-tools mocks, node:http`;
const APOLLO = `Apollo Server ${versionOf('@apollo/server')} + graphql-tools mocks, node:http`;
const WARM = 'mock, answer cache, the same query (uWS)';
const COLD = 'mock, a new document each request (uWS)';
const ENGINE = 'mock, answer cache off (uWS)';
const ENGINE_NODE = 'mock, answer cache off, node:http';
const PEERS = [YOGA, APOLLO];

const scratch = await mkdtemp(`${tmpdir()}/mock-bench-graphql-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
const GRAPHQL_READY = /GraphQL on (http:\/\/127\.0\.0\.1:\d+)\/graphql/;
const mock = (name, backend, graphql = '{}', measured = scenario) => ({
  name,
  args: [`${root}bin/run.js`, 'serve', '--graphql-schema', schema, '--graphql-port', '0', '--host', '127.0.0.1', '--seed', '1', '--out', `${scratch}/${name}`, '--config', `${scratch}/${name}.yaml`],
  config: `server: { http_backend: ${backend} }\nlogging: { level: warn }\ngraphql: ${graphql}\n`,
  env: { ...cleanEnv, MOCK_LOG_LEVEL: 'warn' },
  ready: GRAPHQL_READY,
  scenario: measured,
});
const peer = (name, file) => ({ name, args: [`${peers}${file}`, schema], env: { ...cleanEnv, NODE_ENV: 'production' }, scenario });
const servers = [
  { name: BASELINE, args: [`${root}benchmarks/baselines/graphql-js.js`, schema, '1'], env: cleanEnv, scenario },
  { name: CACHED, args: [`${root}benchmarks/baselines/graphql-js.js`, schema, '1', 'cached'], env: cleanEnv, scenario },
  peer(YOGA, 'graphql-yoga.js'),
  peer(APOLLO, 'apollo-server.js'),
  { ...mock(WARM, 'uws'), cache: 'hit' },
  mock(COLD, 'uws', '{}', coldScenario),
  mock(ENGINE, 'uws', '{ answer_cache_bytes: 0 }'),
  mock(ENGINE_NODE, 'node', '{ answer_cache_bytes: 0 }'),
];
// not targets: the cold rate against the peers, and what graphql-jit gives beyond a document cache, on the same server library and on the mock's own
const context = [
  { target: COLD, against: null },
  { target: ENGINE_NODE, against: CACHED },
  { target: ENGINE, against: CACHED },
];

/** A query that answers with errors would measure the wrong thing; so would a warm mock that does not answer from its cache. */
async function checkAnswer(url, server) {
  const { path, headers, body } = server.scenario;
  const send = () => fetch(url + path, { method: 'POST', headers, body: body.replace(UNIQUE, 'check') });
  let response = await send();
  let answer = await response.json();
  if (response.status !== 200 || answer.errors !== undefined || answer.data?.allFilms?.films === undefined)
    throw new Error(`${server.name}: the query answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  if (server.cache !== undefined) {
    response = await send();
    answer = await response.json();
    if (response.headers.get('x-mock-cache') !== server.cache) throw new Error(`${server.name}: the query again answered X-Mock-Cache: ${response.headers.get('x-mock-cache')}, not ${server.cache}`);
  }
  return JSON.stringify(answer).length;
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
    console.log(`${server.name}: ${await checkAnswer(running.url, server)} bytes per answer`);
  }
  console.log('');
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const [i, server] of servers.entries()) {
      process.stdout.write(`  ${server.name} … `);
      const result = await generator.measure(started[i].url, server.scenario, { ...load, warmup: round === 1 ? load.warmup : 0 });
      console.log(`${Math.round(result.reqPerSec).toLocaleString('en-US')} req/s`);
      samples.set(server.name, [...(samples.get(server.name) ?? []), { ...result, method: 'POST', path: server.scenario.path }]);
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
  const measured = withRatios(
    rows,
    rows.find((row) => row.target === BASELINE),
  );
  const bestPeer = PEERS.map((name) => measured.find((row) => row.target === name)).reduce((best, row) => (row.reqPerSec > best.reqPerSec ? row : best)).target;
  const targets = [
    { target: WARM, against: bestPeer, minReqPerSecRatio: 10 },
    { target: ENGINE, minReqPerSecRatio: 1.5 },
  ];
  const checks = checkTargets(measured, targets);
  const against = checkTargets(
    measured,
    context.map((row) => ({ ...row, against: row.against ?? bestPeer, minReqPerSecRatio: 0 })),
  ).map(({ target, against: base, measured: ratio }) => ({ target, against: base, ratio }));
  console.log('');
  printReport(measured, checks, BASELINE, generator.name);
  console.log('\nnot targets:');
  for (const row of against) console.log(`  ${row.target} against ${row.against}: ${row.ratio === null ? '–' : `${row.ratio.toFixed(2)}×`}`);
  await writeResults(
    'graphql',
    {
      generator: generator.note,
      load,
      rounds,
      baseline: BASELINE,
      bestPeer,
      query,
      coldQuery: JSON.parse(coldScenario.body).query,
      results: measured,
      samples: Object.fromEntries(samples),
      targets: checks,
      context: against,
    },
    loadBefore,
  );
}

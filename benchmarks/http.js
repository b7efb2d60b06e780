#!/usr/bin/env node
// HTTP benchmark (`npm run bench:http`): `mock serve` on examples/petstore.yaml against raw
// uWebSockets.js and node:http hello-world servers, all measured in this run on loopback; the
// `node:` rows serve the same scenarios with --http-backend node, each backend measured against
// its own library's hello (docs/backends.md quotes these ratios).
//
// The load generator is wrk when installed (`apt-get install wrk`), 1 thread, pinned with taskset
// to core 1 while every server runs on core 0; otherwise autocannon, labelled as such (it
// saturates near 50k req/s on a small machine and hides the real ratios). All servers run at
// once; each round measures every target in turn (interleaved), and the report gives medians.
//
// BENCH_DURATION=<seconds per measurement> (default 10), BENCH_ROUNDS (default 4),
// BENCH_GENERATOR=autocannon forces the fallback, BENCH_ONLY=<server names, comma-separated> measures
// only those servers (raw uWS always: every ratio needs it; e.g. BENCH_ONLY='raw node:http,default,node'). Where uWS does not
// load (Node 24, 26) only raw node:http and the node backend run. Prints a table and the throughput targets;
// writes benchmarks/results/http-latest.json. Exits 0 whatever the numbers (a benchmark, not a
// test); 1 if a server fails to start or a scenario answers with the wrong status.
import { spawnSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { chooseGenerator } from './lib/generator.js';
import { listPetsAnswer } from './lib/petstore-build.js';
import { checkTargets, costRatios, medianOf, printReport, withRatios, writeResults } from './lib/report.js';
import { measureInRounds } from './lib/rounds.js';
import { STATEFUL_PETS_CONFIG } from './lib/stateful-config.js';
import { positiveEnv } from './lib/env.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const duration = positiveEnv('BENCH_DURATION', 10);
const rounds = positiveEnv('BENCH_ROUNDS', 4);
const load = { connections: 50, pipelining: 1, duration, warmup: 2 };
const generator = chooseGenerator();

const hello = { path: '/', status: 200 };
const scenarios = {
  // a documented example: the response body is serialised once, at build time
  static: { path: '/v1/pets/1', status: 200 },
  // no example: the body is generated from the schema on every request
  generated: { path: '/v1/pets?limit=5', status: 200 },
  // the body is validated against the schema before the 201 is generated
  validated: {
    path: '/v1/pets',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Kitty', kind: 'cat' }),
    status: 201,
  },
};

// The mocks run from a scratch directory with MOCK_* settings stripped, so neither a mock.yaml nor
// the caller's environment changes what is measured: default settings (logging at info, text).
const scratch = await mkdtemp(`${tmpdir()}/mock-bench-`);
// on 'exit' rather than in a finally, so that it also goes on SIGINT (see lib/servers.js)
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
const mock = (name, env = {}, spec = `${root}examples/petstore.yaml`, extra = []) => ({
  name,
  args: [`${root}bin/run.js`, 'serve', '--spec', spec, '--out', `${scratch}/${name}`, '--host', '127.0.0.1', '--http-port', '0', ...extra],
  env: { ...cleanEnv, ...env },
});

// A runtime mock on a path the measured routes never take: it must not slow them down.
const unrelatedMock = { method: 'GET', path: '/v1/unrelated/{id}', status_code: 200, response: { body: { unrelated: true } } };

const BASELINE = 'raw uWS';
const NODE_BASELINE = 'raw node:http';
const NODE_STATIC = 'node: mock static';
const GENERATOR_CEILING = 'raw uWS + generator';
const RECORDER = 'mock static, recorder database';
const RECORDER_AGAINST = 'mock static';
const EXAMPLE_CEILING = 'mock generated route with its body as an example, warn';
// the same description with one generated list of two pets documented as GET /v1/pets's example
const exampleSpec = `${scratch}/petstore-example.json`;
// response.caching is set in mock.yaml only
const cachingConfig = `${scratch}/caching.yaml`;
// recording the static route (core.fixtures defaults: after max_sequence repeats of a request it is not written again),
// and replaying what was recorded of it
const recordingConfig = `${scratch}/recording.yaml`;
const replayConfig = `${scratch}/replay.yaml`;
// a conditional proxy rule and the reality continuum on a path the measured routes never take (the
// upstream is never asked): they must not slow the other routes down
const unrelatedProxyConfig = `${scratch}/unrelated-proxy.yaml`;
const UNRELATED_PATH = '/v1/unrelated/1';
// a state machine on the static route: a transition from its initial state to itself, answering a body template
const statefulConfig = `${scratch}/stateful.yaml`;
const allServers = [
  { name: BASELINE, args: [`${root}benchmarks/baselines/uws-hello.js`], runs: [[BASELINE, hello]] },
  // the mock's own generated body without the mock: what generation alone leaves of raw uWS
  { name: GENERATOR_CEILING, args: [`${root}benchmarks/baselines/uws-generated.js`, `${scratch}/ceiling/petstore`], runs: [[GENERATOR_CEILING, scenarios.generated]] },
  { name: NODE_BASELINE, args: [`${root}benchmarks/baselines/node-hello.js`], runs: [[NODE_BASELINE, hello]] },
  {
    ...mock('default'),
    runs: [
      ['mock static', scenarios.static],
      ['mock generated', scenarios.generated],
      ['mock validated POST', scenarios.validated],
    ],
  },
  {
    ...mock('warn', { MOCK_LOG_LEVEL: 'warn' }),
    runs: [
      ['mock static, warn', scenarios.static],
      ['mock generated, warn', scenarios.generated],
      ['mock validated POST, warn', scenarios.validated],
    ],
  },
  {
    ...mock('node', {}, undefined, ['--http-backend', 'node']),
    runs: [
      [NODE_STATIC, scenarios.static],
      ['node: mock generated', scenarios.generated],
      ['node: mock validated POST', scenarios.validated],
    ],
  },
  { ...mock('runtime-mock'), setup: addRuntimeMock, runs: [['mock static, unrelated runtime mock', scenarios.static]] },
  // everything the generated route does (routing, the limit check, the x-next header, logging,
  // statistics, a body of the same size) but generating the body: what the chain leaves generation
  { ...mock('example', { MOCK_LOG_LEVEL: 'warn' }, exampleSpec), runs: [[EXAMPLE_CEILING, scenarios.generated]] },
  // response.caching on, default settings otherwise: the generated route answered from the cache
  { ...mock('cached', {}, undefined, ['--config', cachingConfig]), setup: expectCacheHit, runs: [['mock generated, cached', scenarios.generated]] },
  { ...mock('recording', {}, undefined, ['--config', recordingConfig]), setup: recordStatic, runs: [['mock static, recording', scenarios.static]] },
  { ...mock('replay', {}, undefined, ['--config', replayConfig]), setup: expectReplay, runs: [['mock static, replayed fixture', scenarios.static]] },
  // every exchange written to the recorder database (mock serve --recorder), in batches on its writer thread
  { ...mock('recorder', {}, undefined, ['--recorder', '--recorder-db', `${scratch}/recordings.db`]), runs: [[RECORDER, scenarios.static]] },
  {
    ...mock('unrelated-proxy', {}, undefined, ['--config', unrelatedProxyConfig]),
    setup: expectContinuumElsewhere,
    runs: [['mock static, unrelated proxy rule and continuum', scenarios.static]],
  },
  { ...mock('stateful', {}, undefined, ['--config', statefulConfig]), setup: expectStateful, runs: [['mock static, stateful machine', scenarios.static]] },
];
// Node 24 and 26 have no uWS build here: the node:http backend is what serves, measured against its own library
const uwsLoads = await import('uWebSockets.js').then(
  () => true,
  () => false,
);
const baseline = uwsLoads ? BASELINE : NODE_BASELINE;
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()) ?? (uwsLoads ? undefined : [NODE_BASELINE, 'node']);
const servers = only === undefined ? allServers : allServers.filter((server) => server.name === baseline || only.includes(server.name));
const unknown = only?.filter((name) => !allServers.some((server) => server.name === name)) ?? [];
if (unknown.length > 0) throw new Error(`BENCH_ONLY: no server named ${unknown.join(', ')} (servers: ${allServers.map((server) => server.name).join(', ')})`);
const targets = [
  { target: 'mock static', minReqPerSecRatio: 0.5 },
  { target: 'mock generated', minReqPerSecRatio: 0.4 },
  { target: 'mock validated POST', minReqPerSecRatio: 0.4 },
  { target: 'mock static, warn', minReqPerSecRatio: 0.7 },
  { target: 'mock generated, warn', minReqPerSecRatio: 0.5 },
  { target: 'mock validated POST, warn', minReqPerSecRatio: 0.5 },
  { target: 'mock static, unrelated runtime mock', against: 'mock static', minReqPerSecRatio: 0.95 },
  { target: 'mock static, unrelated proxy rule and continuum', against: 'mock static', minReqPerSecRatio: 0.95 },
  // a cached answer costs what a documented example costs
  { target: 'mock generated, cached', against: 'mock static', minReqPerSecRatio: 0.9 },
  { target: 'mock static, recording', against: 'mock static', minReqPerSecRatio: 0.7 },
  { target: RECORDER, against: RECORDER_AGAINST, minReqPerSecRatio: 0.7 },
  // a fixture answers as fast as a documented example
  { target: 'mock static, replayed fixture', against: 'mock static', minReqPerSecRatio: 1.0 },
  // the same route answered by a state machine (a state read, a template rendered, the state kept)
  { target: 'mock static, stateful machine', against: 'mock static', minReqPerSecRatio: 0.8 },
  // the node:http backend keeps as much of its library as the uWS one keeps of uWS (issue 37)
  { target: NODE_STATIC, against: NODE_BASELINE, minReqPerSecRatio: 0.85 },
];
// not targets: each backend against its own library, and node:http against uWS, per scenario (docs/backends.md)
const backends = ['mock static', 'mock generated', 'mock validated POST'].flatMap((target) => [
  { target, against: BASELINE },
  { target: `node: ${target}`, against: NODE_BASELINE },
  { target: `node: ${target}`, against: target },
]);
// not targets: how much of what generation leaves the mock keeps, and what generating costs in the mock
const context = [
  { target: 'mock generated', against: GENERATOR_CEILING },
  { target: 'mock generated, warn', against: GENERATOR_CEILING },
  { target: 'mock generated, warn', against: EXAMPLE_CEILING },
];

/**
 * The recorder row's cost split by thread: the answering (main) thread's CPU per request against
 * mock static's, and what the rest of the process spent per request beyond mock static's rest (the
 * writer thread's inserts); null when the run measured neither row or /proc told nothing.
 */
function recorderShares(rows) {
  const [mine, theirs] = [RECORDER, RECORDER_AGAINST].map((name) => rows.find((row) => row.target === name));
  if (mine?.mainCpuUsPerRequest == null || theirs?.mainCpuUsPerRequest == null || mine.cpuUsPerRequest == null || theirs.cpuUsPerRequest == null) return null;
  const [answering] = costRatios(rows, [{ target: RECORDER, against: RECORDER_AGAINST }], 'mainCpuUsPerRequest');
  return { answering: answering.ratio, writerUs: mine.cpuUsPerRequest - mine.mainCpuUsPerRequest - (theirs.cpuUsPerRequest - theirs.mainCpuUsPerRequest) };
}

/** The build the generator baseline serves from: examples/petstore.yaml, as the mocks build it. */
function buildCeiling() {
  const built = spawnSync(process.execPath, [`${root}bin/run.js`, 'build', '--spec', `${root}examples/petstore.yaml`, '--out', `${scratch}/ceiling`], {
    cwd: scratch,
    env: cleanEnv,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`mock build for the generator baseline: ${built.stderr.trim()}`);
}

/** examples/petstore.yaml with a generated two-pet list as the example of GET /v1/pets's 200 answer. */
async function writeExampleSpec() {
  const description = parseYaml(await readFile(`${root}examples/petstore.yaml`, 'utf8'));
  const { content } = await listPetsAnswer(`${scratch}/ceiling/petstore`, { seed: 1 });
  let body;
  do body = content.generate(0);
  while (body.length !== 2);
  description.paths['/pets'].get.responses['200'].content['application/json'].example = body;
  await writeFile(exampleSpec, JSON.stringify(description));
}

/** The cached row must measure hits: the second request of the route is one. */
async function expectCacheHit(url) {
  let cache;
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${url}${scenarios.generated.path}`);
    await response.arrayBuffer();
    cache = response.headers.get('x-mock-cache');
  }
  if (cache !== 'hit') throw new Error(`response.caching: the second GET ${scenarios.generated.path} answered X-Mock-Cache: ${cache}, not hit`);
}

/** The recording server records GET /v1/pets/1 once; the replay server then serves that fixture. */
async function recordStatic(url) {
  await (await fetch(`${url}${scenarios.static.path}`)).arrayBuffer();
  const recorded = `${scratch}/recorded/http`;
  for (let i = 0; i < 100 && !(existsSync(recorded) && readdirSync(recorded).length > 0); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  cpSync(recorded, `${scratch}/replayed/http`, { recursive: true });
}

async function expectReplay(url) {
  const response = await fetch(`${url}${scenarios.static.path}`);
  await response.arrayBuffer();
  if (response.headers.get('x-mock-fixture') === null) throw new Error(`GET ${scenarios.static.path} was not answered from the recorded fixture`);
}

/** The continuum answers on its own path (X-Mock-Source), not on the measured one. */
async function expectContinuumElsewhere(url) {
  const own = await fetch(`${url}${UNRELATED_PATH}`);
  await own.arrayBuffer();
  const measured = await fetch(`${url}${scenarios.static.path}`);
  await measured.arrayBuffer();
  if (own.headers.get('x-mock-source') === null || measured.headers.get('x-mock-source') !== null) {
    throw new Error(
      `the continuum should answer ${UNRELATED_PATH} only (X-Mock-Source: ${own.headers.get('x-mock-source')} there, ${measured.headers.get('x-mock-source')} on ${scenarios.static.path})`,
    );
  }
}

async function expectStateful(url) {
  const response = await fetch(`${url}${scenarios.static.path}`);
  const body = await response.json();
  if (body.state !== 'seen') throw new Error(`GET ${scenarios.static.path} was not answered by the state machine: ${JSON.stringify(body)}`);
}

async function addRuntimeMock(url) {
  const response = await fetch(`${url}/__mock/mocks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(unrelatedMock) });
  if (response.status !== 201) throw new Error(`creating the runtime mock: ${response.status} ${await response.text()}`);
}

// other work on the machine moves the numbers; the load averages in the JSON make that visible
const loadBefore = loadavg();
console.log(`bench:http: ${generator.note}`);
if (!uwsLoads) console.log(`uWebSockets.js does not load on Node ${process.versions.node}: only the node:http backend is measured, against raw node:http`);
console.log(`${load.connections} connections, ${load.warmup} s warm-up per target, ${rounds} interleaved rounds of ${duration} s, medians\n`);
const started = [];
const samples = new Map();
try {
  buildCeiling();
  await writeExampleSpec();
  // seeded, so that every run caches the same generated body
  await writeFile(cachingConfig, 'seed: 1\nresponse: { caching: { enabled: true } }\n');
  await writeFile(recordingConfig, `core: { fixtures: { dir: ${JSON.stringify(`${scratch}/recorded`)}, record_enabled: true } }\n`);
  await writeFile(replayConfig, `core: { fixtures: { dir: ${JSON.stringify(`${scratch}/replayed`)}, replay_enabled: true } }\n`);
  // port 9 (discard) on loopback: nothing listens, and nothing measured goes there
  await writeFile(
    unrelatedProxyConfig,
    `proxy:\n  upstream_url: http://127.0.0.1:9\n  rules: [{ pattern: /v1/unrelated/**, condition: "header[x-live] == '1'" }]\nreality_continuum: { enabled: true, default_ratio: 0.5, routes: [{ pattern: /v1/unrelated/**, ratio: 0.5 }] }\n`,
  );
  await writeFile(statefulConfig, STATEFUL_PETS_CONFIG);
  await measureInRounds({ servers, cwd: scratch, generator, load, rounds, started, samples });
} catch (e) {
  console.error(`\nbench:http failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(started.map((server) => server.stop()));
}

if (process.exitCode !== 1) {
  const rows = [...samples].map(([target, list]) => ({ target, ...medianOf(list) }));
  const measured = withRatios(
    rows,
    rows.find((row) => row.target === baseline),
  );
  const measuredRow = (name) => name === undefined || samples.has(name);
  const checks = checkTargets(
    measured,
    targets.filter((target) => measuredRow(target.target) && measuredRow(target.against)),
  );
  const ceiling = checkTargets(
    measured,
    context.map((row) => ({ ...row, minReqPerSecRatio: 0 })),
  ).map(({ target, against, measured: ratio }) => ({ target, against, ratio }));
  console.log('');
  printReport(measured, checks, baseline, generator.name);
  console.log(
    `\nceilings (not targets): ${GENERATOR_CEILING} serves the same generated body without the mock; the example row serves a body of the same size through the whole mock without generating it:`,
  );
  // rows of servers this run did not measure (BENCH_ONLY, or no uWS) are left out
  for (const row of ceiling.filter((row) => row.ratio !== null)) console.log(`  ${row.target} against ${row.against}: ${row.ratio === null ? '–' : `${row.ratio.toFixed(2)}×`}`);
  const backendRatios = checkTargets(
    measured,
    backends.map((row) => ({ ...row, minReqPerSecRatio: 0 })),
  ).map(({ target, against, measured: ratio }) => ({ target, against, ratio }));
  const backendCosts = costRatios(measured, backends);
  console.log(
    `\nbackends (not targets): each against its own library's hello, and node:http against uWS on the same scenario; req/s, then server CPU per request (against's ÷ target's: what holds when the load generator, not the server, sets the pace):`,
  );
  backendRatios.forEach((row, i) => {
    if (row.ratio === null) return;
    const cost = backendCosts[i].ratio;
    console.log(`  ${row.target} against ${row.against}: ${row.ratio === null ? '–' : `${row.ratio.toFixed(2)}×`}, CPU ${cost === null ? '–' : `${cost.toFixed(2)}×`}`);
  });

  const recorder = recorderShares(measured);
  if (recorder !== null) {
    console.log(
      `\nrecorder database (not a target): the answering thread's CPU per request, ${RECORDER_AGAINST}'s ÷ ${RECORDER}'s: ${recorder.answering.toFixed(2)}× (what the row keeps where its writer thread has a core of its own; here it shares the server's); the writer thread: ${recorder.writerUs.toFixed(1)} µs a row`,
    );
  }

  await writeResults(
    'http',
    { generator: generator.note, node: process.versions.node, load, rounds, baseline, results: measured, samples: Object.fromEntries(samples), targets: checks, ceilings: ceiling, backends: backendRatios, backendCosts, recorder },
    loadBefore,
  );
}

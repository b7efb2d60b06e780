#!/usr/bin/env node
// `npm run bench:contract-diff`: the contract-diff analysis (docs/contract-diff-analysis.md) of
// 100,000 captures against GitHub's REST description (@octokit/openapi, fetched with npm into the
// cache bench:scale uses). The captures are written as JSON Lines: a mix of clean requests, drifting
// requests (a missing field, an enum value the description lacks, an unknown path, a method the path
// has not) and answers that drift from their documented schema. The description is built once with
// `mock build` (timed apart: not analysis), then the captures are streamed through the same reader,
// analyzer and aggregate `mock contract-diff analyze` uses, in this process (the analysis is one
// thread: one core). Prints the time, captures per second and memory beside the target (100,000 in
// under 30 s, bounded memory); a benchmark, not a test: it exits 0 whatever the figures.
// BENCH_CAPTURES changes the count.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { positiveEnv } from './lib/env.js';
import { githubDescription } from './lib/github-description.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COUNT = positiveEnv('BENCH_CAPTURES', 100_000);
const TARGET_SECONDS = 30;
const json = { 'content-type': 'application/json' };

/** Ten captures, repeated: half clean, half drifting in the request or the answer. */
const MIX = [
  { method: 'GET', path: '/repos/octocat/hello-world/issues', query_params: { state: 'open', per_page: '30' }, headers: { accept: 'application/vnd.github+json' } },
  { method: 'GET', path: '/repos/octocat/hello-world/issues', query_params: { state: 'closed', sort: 'updated' }, headers: {} },
  { method: 'GET', path: '/repos/octocat/hello-world/issues', query_params: { state: 'sideways' }, headers: {} },
  { method: 'POST', path: '/repos/octocat/hello-world/issues', headers: json, body: { title: 'Found a bug', labels: ['bug'] } },
  { method: 'POST', path: '/repos/octocat/hello-world/issues', headers: json, body: { body: 'no title' } },
  { method: 'GET', path: '/users/octocat', headers: {}, response: { status: 200, headers: json, body: { login: 'octocat', id: '583231', type: 'User' } } },
  { method: 'GET', path: '/zen', headers: {}, response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'Design for failure.' } },
  { method: 'GET', path: '/emojis', headers: {}, response: { status: 418, headers: json, body: {} } },
  { method: 'GET', path: '/nowhere/to/be/found', headers: {} },
  { method: 'DELETE', path: '/users/octocat', headers: {} },
];

function vmHwmMb() {
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024;
}

const spec = githubDescription('bench:contract-diff');
const work = mkdtempSync(path.join(os.tmpdir(), 'mock-bench-contract-diff-'));
try {
  const captures = path.join(work, 'captures.jsonl');
  const out = createWriteStream(captures);
  for (let i = 0; i < COUNT; i++) if (!out.write(`${JSON.stringify(MIX[i % MIX.length])}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');

  let started = performance.now();
  execFileSync(process.execPath, [path.join(root, 'bin', 'run.js'), 'build', '--spec', spec, '--out', path.join(work, 'out'), '--name', 'github'], { cwd: work, stdio: 'ignore' });
  const buildSeconds = (performance.now() - started) / 1000;

  const { pino } = await import('pino');
  const { loadBuild, Engine, CaptureAnalyzer, Aggregate, readCapture } = await import(path.join(root, 'dist', 'runtime', 'index.js'));
  const { readCaptures } = await import(path.join(root, 'dist', 'src', 'drift', 'analyze', 'index.js'));
  const validation = { mode: 'enforce', aggregate_errors: true, validate_responses: false, status_code: 400, overrides: {} };
  const engine = new Engine(await loadBuild(path.join(work, 'out', 'github')), { validation, templateExpand: false, logger: pino({ level: 'silent' }) });
  const analyzer = new CaptureAnalyzer(engine);
  const aggregate = new Aggregate(analyzer.basePaths);
  const rssBefore = process.memoryUsage().rss / 1024 / 1024;
  const peakBefore = vmHwmMb();

  started = performance.now();
  for await (const capture of readCaptures(captures, 'captures.jsonl', readCapture)) aggregate.add(analyzer.analyze(capture));
  const report = aggregate.report();
  const seconds = (performance.now() - started) / 1000;
  const peakAfter = vmHwmMb();

  console.log(`\nbench:contract-diff (node ${process.version}, ${os.cpus().length} cores; the analysis runs on one thread)`);
  console.log(`description: GitHub REST, ${engine.build.operations.length} operations; mock build ${buildSeconds.toFixed(1)} s (not counted)`);
  console.log(
    `captures: ${report.captures} (${(statSync(captures).size / 1024 / 1024).toFixed(1)} MB of JSON Lines), ${report.matched} matched, ${report.clean} clean, ${report.mismatches} mismatches in ${report.groups.length} groups`,
  );
  console.log(`by type: ${JSON.stringify(report.by_type)}`);
  console.log(
    `analysis: ${seconds.toFixed(2)} s, ${Math.round(report.captures / seconds).toLocaleString('en')} captures/s  (target < ${TARGET_SECONDS} s for 100,000: ${seconds < TARGET_SECONDS * (COUNT / 100_000) ? 'PASS' : 'FAIL'})`,
  );
  console.log(
    `memory: RSS ${rssBefore.toFixed(0)} MB with the build loaded, peak ${peakBefore.toFixed(0)} MB before the analysis and ${peakAfter.toFixed(0)} MB after it (+${(peakAfter - peakBefore).toFixed(0)} MB for ${report.captures} captures)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

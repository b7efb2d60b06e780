// `npm run bench:scale`: how mock copes with the largest real descriptions and how lean it serves.
// Prints each figure beside its target (issue 11, "Scale"); a benchmark, not a test: it never
// fails the suite, and its figures depend on the machine (2 cores here).
//
// - GitHub's REST description (@octokit/openapi, fetched from the npm registry into a cache):
//   `mock build` wall time and peak RSS, the size of the output, `mock serve` from a fresh build
//   until it answers, and the serving RSS after a round of requests to common operations.
// - Petstore: RSS after 20 s of load (wrk when installed, else autocannon), and the RSS of a
//   2-operation description at start.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseGenerator } from './lib/generator.js';
import { githubDescription } from './lib/github-description.js';
import { positiveEnv } from './lib/env.js';
import { startServer } from './lib/servers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'run.js');
const LOAD_SECONDS = positiveEnv('BENCH_SCALE_LOAD_SECONDS', 20);
/** Servers log warnings only: request lines would cost the load what it measures. */
const QUIET = { ...process.env, MOCK_LOG_LEVEL: 'warn' };

/** Peak (VmHWM) and current (VmRSS) resident memory of a live process, in MB. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peak: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
}

/** Runs `node bin/run.js …args` to completion; resolves with its wall time and peak RSS (polled from /proc). */
function timed(args, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let peak = 0;
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const poll = setInterval(() => {
      try {
        // an exited process not yet reaped has a status without memory fields (NaN)
        const reading = memory(child.pid).peak;
        if (Number.isFinite(reading)) peak = Math.max(peak, reading);
      } catch {
        // the process is gone: the last reading stands
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`mock ${args.join(' ')} exited ${code}\n${stderr.slice(-2000)}`));
      else resolve({ seconds: (performance.now() - started) / 1000, peakMb: peak });
    });
  });
}

function dirSizeMb(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    bytes += entry.isDirectory() ? dirSizeMb(full) * 1024 * 1024 : statSync(full).size;
  }
  return bytes / 1024 / 1024;
}

const rows = [];
function row(what, value, unit, target, better = 'lower') {
  const pass = better === 'lower' ? value < target : value > target;
  rows.push({ what, value: `${value.toFixed(unit === 's' ? 2 : 0)} ${unit}`, target: `${better === 'lower' ? '<' : '>'} ${target} ${unit}`, verdict: pass ? 'PASS' : 'FAIL' });
}

/** Polls `url` until it answers; resolves with the seconds since `started`. */
async function firstAnswer(url, started, timeoutMs = 120_000) {
  for (;;) {
    try {
      await (await fetch(url)).arrayBuffer();
      return (performance.now() - started) / 1000;
    } catch {
      if (performance.now() - started > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

async function github() {
  const spec = githubDescription('bench:scale');
  const work = mkdtempSync(path.join(os.tmpdir(), 'mock-scale-'));
  try {
    const out = path.join(work, 'out');
    const build = await timed(['build', '--spec', spec, '--out', out], work);
    row('GitHub: mock build (1,223 operations, 13 MB)', build.seconds, 's', 10);
    row('GitHub: peak RSS of the build', build.peakMb, 'MB', 850);
    row('GitHub: generated output', dirSizeMb(out), 'MB', 25);

    // serve from the fresh build: from spawn to the first answer
    const started = performance.now();
    const server = await startServer('github', [bin, 'serve', '--spec', spec, '--out', out, '--http-port', '0', '--host', '127.0.0.1'], { cwd: work, env: QUIET, timeoutMs: 120_000 });
    try {
      row('GitHub: mock serve from a fresh build until it answers', await firstAnswer(`${server.url}/zen`, started), 's', 2);
      // a round of requests to common operations: their responders and validators in use
      for (const target of ['/zen', '/meta', '/users/octocat', '/repos/octocat/hello-world', '/repos/octocat/hello-world/issues', '/orgs/github/repos', '/user', '/emojis', '/rate_limit', '/gists/public']) {
        for (let i = 0; i < 50; i++) await (await fetch(server.url + target, { headers: { authorization: 'Bearer bench' } })).arrayBuffer();
      }
      row('GitHub: serving RSS', memory(server.pid).rss, 'MB', 300);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function petstore() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'mock-scale-'));
  const generator = chooseGenerator();
  try {
    const server = await startServer('petstore', [bin, 'serve', '--spec', path.join(root, 'examples', 'petstore.yaml'), '--out', path.join(work, 'out'), '--http-port', '0', '--host', '127.0.0.1'], { cwd: work, env: QUIET, cpu: generator.serverCpu });
    try {
      await generator.measure(`${server.url}/v1/pets?limit=5`, { method: 'GET' }, { connections: 50, duration: LOAD_SECONDS, warmup: 0 });
      row(`Petstore: RSS after ${LOAD_SECONDS} s of load (${generator.name})`, memory(server.pid).rss, 'MB', 100);
    } finally {
      await server.stop();
    }

    const tiny = path.join(work, 'tiny.json');
    const ok = { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } } };
    writeFileSync(tiny, JSON.stringify({ openapi: '3.0.3', info: { title: 'tiny', version: '1' }, paths: { '/a': { get: { responses: ok } }, '/b': { get: { responses: ok } } } }));
    await timed(['build', '--spec', tiny, '--out', path.join(work, 'tiny-out')], work);
    const small = await startServer('tiny', [bin, 'serve', '--spec', tiny, '--out', path.join(work, 'tiny-out'), '--http-port', '0', '--host', '127.0.0.1'], { cwd: work, env: QUIET });
    try {
      await (await fetch(`${small.url}/a`)).arrayBuffer();
      row('2-operation description: RSS at start', memory(small.pid).rss, 'MB', 100);
    } finally {
      await small.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await github();
await petstore();
const width = Math.max(...rows.map((r) => r.what.length));
console.log(`\nbench:scale (node ${process.version}, ${os.cpus().length} cores)`);
for (const r of rows) console.log(`${r.what.padEnd(width)}  ${r.value.padStart(10)}  target ${r.target.padEnd(10)}  ${r.verdict}`);

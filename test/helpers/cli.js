// Starts the real `mock` CLI as a child process and talks to it over real sockets (without tap's
// process-info recorder, as a user starts it: see plain-node.js).
import { execFile, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync } from 'node:fs';
import { plainNode } from './plain-node.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = path.join(root, 'bin', 'run.js');
export const corpus = path.resolve(root, '../shared/corpus');

// a test that times out must not leave servers behind
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
const track = (child) => {
  children.add(child);
  child.on('close', () => children.delete(child));
  return child;
};

/** Runs `mock <args>` to completion. */
export function runMock(args, { cwd = root, env = {}, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const childEnv = { ...process.env, ...env };
    const child = track(spawn(...plainNode([bin, ...args], childEnv), { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mock ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs `mock <args>` to completion as a user would in a fresh shell: without the MOCK_* variables
 * of this environment, colours off; resolves with {code, stdout, stderr}.
 */
export function runCli(args, { cwd, env = {} } = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MOCK_')));
  const childEnv = { ...clean, NO_COLOR: '1', ...env };
  return new Promise((resolve, reject) => {
    const child = track(spawn(...plainNode([bin, ...args], childEnv), { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts `mock <argv>` and resolves once its stdout matches `ready`, with `{child, url (ready's
 * first group), stdout, stderr, stop()}`; rejects with `{code, stdout, stderr}` when it exits first.
 */
export function startCommand(argv, ready, { cwd = root, env = {}, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const childEnv = { ...process.env, MOCK_LOG_LEVEL: 'warn', ...env };
    const child = track(spawn(...plainNode([bin, ...argv], childEnv), { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mock ${argv.join(' ')} did not start\n${stdout}\n${stderr}`));
    }, timeoutMs);
    const server = {
      child,
      get stdout() {
        return stdout;
      },
      get stderr() {
        return stderr;
      },
      stop() {
        return new Promise((done) => {
          // a child killed by a signal has no exit code, only a signal code
          if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
          child.once('close', (code) => done(code));
          child.kill('SIGTERM');
        });
      },
    };
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = ready.exec(stdout);
      if (m && !server.url) {
        clearTimeout(timer);
        server.url = m[1];
        resolve(server);
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!server.url) reject(Object.assign(new Error(`mock ${argv[0]} exited with ${code}\n${stdout}\n${stderr}`), { code, stdout, stderr }));
    });
  });
}

/** Starts `mock serve <args>` on a free port and resolves once it is listening (serve prints every address at once). */
export async function startMock(args, options = {}) {
  const port = args.includes('--http-port') ? [] : ['--http-port', '0', '--host', '127.0.0.1'];
  // the origin: the line goes on with the description's base path (`http://127.0.0.1:3000/v1`)
  const server = await startCommand(['serve', ...port, ...args], /serving on (https?:\/\/[^/\s]+)/, options);
  server.adminUrl = /admin on (http:\/\/\S+)/.exec(server.stdout)?.[1];
  server.metricsUrl = /metrics on (http:\/\/\S+)\/metrics/.exec(server.stdout)?.[1];
  server.wsUrl = /WebSocket on (ws:\/\/\S+)/.exec(server.stdout)?.[1];
  return server;
}

/** Tests that need curl pass this as their `skip` option: false where it is installed, else why they are skipped. */
// under CI=true a missing curl fails the tests instead of skipping them: CI must run them
export const needsCurl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).error === undefined || process.env.CI === 'true'
  ? false
  : 'curl is missing: install it (apt-get install -y curl) to check connection faults as curl reports them; CI always runs these';

/** curl's exit code and error line for a GET (its exit codes name connection faults: 52 empty reply, 56 reset, 18 partial). */
export function curl(url, headers = []) {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '--max-time', '10', '-o', '/dev/null', ...headers.flatMap((h) => ['-H', h]), url], (error, _stdout, stderr) => resolve({ code: error?.code ?? 0, stderr }));
  });
}

/** A fresh empty directory (t.testdir() can only be made once per test). */
export function tmpdir() {
  return mkdtempSync(path.join(os.tmpdir(), 'mock-test-'));
}

/**
 * `mock build --spec <spec>` into a fresh folder, for the `--out` of every server of a test file
 * that serves that description with the same build: `mock serve` uses a fresh build as it is
 * (it only checks it) instead of building it again. Rejects with the build's output when it fails.
 */
export async function buildOnce(spec, options = {}) {
  const out = tmpdir();
  const res = await runMock(['build', '--spec', spec, '--out', out], options);
  if (res.code !== 0) throw new Error(`mock build --spec ${spec} exited with ${res.code}\n${res.stdout}\n${res.stderr}`);
  return out;
}

/**
 * Calls each of `tasks` (functions returning promises), at most `limit` at a time, and resolves
 * with their results in order: independent CLI runs side by side without starting a dozen
 * processes at once on a two-core machine.
 */
export async function sideBySide(tasks, limit = 4) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

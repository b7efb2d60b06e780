// Load generation with wrk (Debian/Ubuntu: `apt-get install wrk`; macOS: `brew install wrk`), a C
// generator that keeps up with uWebSockets.js on one core, where autocannon saturates near 50k req/s.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** True when `wrk` runs here. */
export function wrkAvailable() {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/**
 * Where a scenario's body takes a value no other request of the run sent (autocannon's
 * idReplacement marker, which its fallback replaces alike): a document seen for the first time.
 */
export const UNIQUE = '[<id>]';

let runs = 0;

/**
 * Lua that turns wrk's default GET into the scenario's request. A body holding UNIQUE is made per
 * request, the marker replaced by the run, the thread and a count: unique across runs and threads.
 */
function script(scenario, file) {
  const { method = 'GET', headers = {}, body } = scenario;
  const lines = [`wrk.method = ${JSON.stringify(method)}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  if (body !== undefined && body.includes(UNIQUE)) {
    const [head, tail] = [body.slice(0, body.indexOf(UNIQUE)), body.slice(body.indexOf(UNIQUE) + UNIQUE.length)];
    const run = `${process.pid}-${Date.now()}-${runs++}`;
    lines.push(
      'local threads = 0',
      'function setup(thread) threads = threads + 1; thread:set("id", threads) end',
      'local count = 0',
      `local head, tail = ${JSON.stringify(head)}, ${JSON.stringify(tail)}`,
      `function request() count = count + 1; return wrk.format(nil, nil, nil, head .. ${JSON.stringify(run)} .. "-" .. tostring(id) .. "-" .. count .. tail) end`,
    );
  } else if (body !== undefined) lines.push(`wrk.body = ${JSON.stringify(body)}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Milliseconds from wrk's `12.34us` / `1.20ms` / `2.00s`. */
function ms(text) {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (m === null) return null;
  const value = Number(m[1]);
  return m[2] === 'us' ? value / 1000 : m[2] === 's' ? value * 1000 : value;
}

export function parseWrk(output) {
  const number = (re) => Number(re.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    reqPerSec: number(/Requests\/sec:\s+([\d.]+)/),
    p50: ms(/^\s+50%\s+(\S+)/m.exec(output)?.[1] ?? ''),
    p99: ms(/^\s+99%\s+(\S+)/m.exec(output)?.[1] ?? ''),
    requests: number(/(\d+) requests in/),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: socket === null ? 0 : Number(socket[1]) + Number(socket[2]) + Number(socket[3]),
    timeouts: socket === null ? 0 : Number(socket[4]),
  };
}

/**
 * One wrk run: `threads` threads (1 by default), `connections` connections, `duration` seconds,
 * pinned to `cpu` (a core, or a taskset list such as `6-7`) when given. Resolves with the parsed
 * numbers; rejects if wrk fails.
 */
export function runWrk(url, scenario, { connections, duration, cpu, scriptFile, threads = 1 }) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${duration}s`, '--latency', '-s', script(scenario, scriptFile), url + scenario.path];
  const [command, argv] = cpu === undefined ? ['wrk', args] : ['taskset', ['-c', String(cpu), 'wrk', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(parseWrk(output)) : reject(new Error(`wrk exited with ${code}: ${output.trim()}`))));
  });
}

// Load with h2load (Debian: `apt-get install nghttp2-client`), a C HTTP/2 generator that
// keeps up with any Node.js gRPC server on one core: unary calls as HTTP/2 POSTs with a framed
// message, many streams per connection. Latency percentiles come from its per-request log.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const h2loadAvailable = () => spawnSync('h2load', ['--version'], { stdio: 'ignore' }).error === undefined;

/** A gRPC message as it goes on the wire: a 0 flag, the length, the bytes. */
export function grpcFrame(bytes) {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
}

const percentile = (sorted, p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

/**
 * One h2load run of `duration` s (after `warmup` s) against `url` with `connections` × `streams`
 * requests in flight, pinned to `cpu` when given: { reqPerSec, p50, p99 (ms), requests, errors }.
 * `body`: a POST's bytes (gRPC: content-type application/grpc, te: trailers), or undefined for
 * GETs; `h1`: HTTP/1.1 instead of h2c (h2load's --h1, one request in flight per connection).
 */
export function runH2load(url, body, { connections, streams, duration, warmup, cpu, h1 = false }) {
  const bodyFile = join(tmpdir(), `mock-bench-h2load-${process.pid}.bin`);
  const logFile = join(tmpdir(), `mock-bench-h2load-${process.pid}.log`);
  if (body !== undefined) writeFileSync(bodyFile, body);
  rmSync(logFile, { force: true });
  const request = body === undefined ? [] : ['-d', bodyFile, '-H', 'content-type: application/grpc', '-H', 'te: trailers'];
  const args = ['-t1', `-c${connections}`, `-m${streams}`, `-D${duration}`, `--warm-up-time=${warmup}`, ...(h1 ? ['--h1'] : []), ...request, `--log-file=${logFile}`, url];
  const [command, argv] = cpu === undefined ? ['h2load', args] : ['taskset', ['-c', String(cpu), 'h2load', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`h2load exited with ${code}: ${output.trim().slice(-500)}`));
      const durations = readFileSync(logFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => Number(line.split('\t')[2]) / 1000)
        .sort((a, b) => a - b);
      rmSync(logFile, { force: true });
      const done = /requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored/.exec(output);
      resolve({
        reqPerSec: Number(/finished in [\d.]+\w+, ([\d.]+) req\/s/.exec(output)?.[1] ?? 0),
        p50: percentile(durations, 50),
        p99: percentile(durations, 99),
        requests: Number(done?.[1] ?? 0),
        non2xx: 0,
        errors: Number(done?.[3] ?? 0) + Number(done?.[4] ?? 0),
        timeouts: 0,
      });
    });
  });
}

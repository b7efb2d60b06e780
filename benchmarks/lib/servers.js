// Servers under test run in child processes, so each has its own event loop (and, on a 2-core
// machine, its own core) while the load generator runs in the parent.
import { spawn } from 'node:child_process';

const READY = /serving on (http:\/\/127\.0\.0\.1:\d+)/;
const children = new Set();

// Children must never outlive the benchmark: whatever way it ends (normal exit, uncaught error),
// kill what is left. Only synchronous work is possible in 'exit', hence SIGKILL.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
// A signal handler replaces Node's default exit, so exit explicitly (which runs the hook above).
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, stopping servers`);
    process.exit(130);
  });
}

/**
 * Spawns `node <args>` (on core `cpu` when given) and resolves with { name, url, pid, output, stop } once it prints its
 * "serving on http://127.0.0.1:<port>" line (or what `ready` matches, its first group the URL); rejects (and kills it)
 * if it exits or stays silent.
 */
export function startServer(name, args, { cwd, env = process.env, cpu, timeoutMs = 60_000, ready: readyLine = READY } = {}) {
  // pinned with taskset when a core is given, so the server never shares one with the load
  const [command, argv] = cpu === undefined ? [process.execPath, args] : ['taskset', ['-c', String(cpu), process.execPath, ...args]];
  const child = spawn(command, argv, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let ready = false;
  let stopping = false;
  child.once('exit', (code, signal) => {
    children.delete(child);
    // a crash before readiness is reported by the rejection below; this is for one mid-benchmark
    if (ready && !stopping) console.error(`bench: ${name} exited unexpectedly (code ${code}, signal ${signal})`);
  });

  return new Promise((resolve, reject) => {
    let output = ''; // kept for the error message; the pipes keep draining afterwards
    let settled = false;
    const settle = (error, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        child.kill('SIGKILL');
        reject(new Error(`${name}: ${error}\n${output.trim()}`));
      } else {
        ready = true;
        resolve(value);
      }
    };
    const timer = setTimeout(() => settle(`not ready after ${timeoutMs} ms`), timeoutMs);
    const collect = (chunk) => {
      if (settled) return;
      output += chunk;
      const match = readyLine.exec(output);
      if (match) settle(undefined, { name, url: match[1], pid: child.pid, output, stop });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', (e) => settle(e.message));
    child.once('exit', (code, signal) => settle(`exited before it was ready (code ${code}, signal ${signal})`));
  });

  /** SIGTERM (mock serve shuts down cleanly on it), SIGKILL if it lingers. */
  function stop(graceMs = 5_000) {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}

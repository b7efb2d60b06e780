// Interleaved rounds: every target measured once per round, in the same order, so a change of the
// machine's speed during the run falls on all of them alike (report.js takes the medians). The first
// round warms each target up. While one server is measured the others are stopped (SIGSTOP): they
// share its core, and a server that was just loaded goes on with timers and garbage collection for
// a while after (V8's memory reducer), which would count against whichever target came next.
import { checkStatus } from './load.js';
import { startServer } from './servers.js';
import { cpuMillis, mainThreadCpuMillis } from './server-cpu.js';

/**
 * Starts every server (each `setup` run and each scenario's status checked before any time is
 * spent measuring), pushing each to `started` as it comes up so the caller can stop them whatever
 * happens, then measures `rounds` rounds into `samples` (target -> results).
 */
export async function measureInRounds({ servers, cwd, generator, load, rounds, started, samples }) {
  for (const server of servers) {
    const running = await startServer(server.name, server.args, { cwd, env: server.env, cpu: generator.serverCpu });
    started.push(running);
    await server.setup?.(running.url);
    for (const [, scenario] of server.runs) await checkStatus(running.url, scenario);
  }
  const runs = servers.flatMap((server, i) => server.runs.map(([target, scenario]) => ({ target, scenario, url: started[i].url, pid: started[i].pid })));
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const { target, scenario, url, pid } of runs) {
      process.stdout.write(`  ${target} … `);
      const warmup = round === 1 ? load.warmup : 0;
      const others = started.filter((server) => server.pid !== pid);
      pause(others, 'SIGSTOP');
      let before, mainBefore, result, after, mainAfter;
      try {
        [before, mainBefore] = [cpuMillis(pid), mainThreadCpuMillis(pid)];
        result = await generator.measure(url, scenario, { ...load, warmup });
        [after, mainAfter] = [cpuMillis(pid), mainThreadCpuMillis(pid)];
      } finally {
        pause(others, 'SIGCONT');
      }
      // the server's CPU per measured request; a warm-up's requests would count in the CPU, not in the requests
      const perRequest = (from, to) => (warmup === 0 && from !== null && to !== null && result.requests > 0 ? ((to - from) * 1000) / result.requests : null);
      const cpuUsPerRequest = perRequest(before, after);
      console.log(`${Math.round(result.reqPerSec).toLocaleString('en-US')} req/s${cpuUsPerRequest === null ? '' : `, ${cpuUsPerRequest.toFixed(1)} µs of server CPU each`}`);
      samples.set(target, [...(samples.get(target) ?? []), { ...result, cpuUsPerRequest, mainCpuUsPerRequest: perRequest(mainBefore, mainAfter), method: scenario.method ?? 'GET', path: scenario.path }]);
    }
  }
}

/** Stops or resumes servers (a server that has exited already is skipped). */
function pause(servers, signal) {
  for (const { pid } of servers) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone
    }
  }
}

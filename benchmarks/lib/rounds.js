// Interleaved rounds: every target measured once per round, in the same order, so a change of the
// machine's speed during the run falls on all of them alike (report.js takes the medians). The first
// round warms each target up.
import { checkStatus } from './load.js';
import { startServer } from './servers.js';

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
  const runs = servers.flatMap((server, i) => server.runs.map(([target, scenario]) => ({ target, scenario, url: started[i].url })));
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}`);
    for (const { target, scenario, url } of runs) {
      process.stdout.write(`  ${target} … `);
      const result = await generator.measure(url, scenario, { ...load, warmup: round === 1 ? load.warmup : 0 });
      console.log(`${Math.round(result.reqPerSec).toLocaleString('en-US')} req/s`);
      samples.set(target, [...(samples.get(target) ?? []), { ...result, method: scenario.method ?? 'GET', path: scenario.path }]);
    }
  }
}

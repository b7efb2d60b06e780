// The load generator of a benchmark run: wrk when installed (pinned to its own core), else autocannon.
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure as autocannonMeasure } from './load.js';
import { runWrk, wrkAvailable } from './wrk.js';

export const tasksetAvailable = () => spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;

/**
 * { name, serverCpu, loadCpu, note, measure(url, scenario, load) }. BENCH_GENERATOR=autocannon
 * forces the fallback. With two cores or more and taskset, servers go on core 0 and wrk on core 1.
 */
export function chooseGenerator() {
  const wrk = process.env.BENCH_GENERATOR !== 'autocannon' && wrkAvailable();
  const pinned = cpus().length >= 2 && tasksetAvailable();
  const serverCpu = pinned ? 0 : undefined;
  if (!wrk) {
    return {
      name: 'autocannon',
      serverCpu,
      loadCpu: undefined,
      note: 'autocannon (in this process; it saturates near 50k req/s and understates fast servers: install wrk, e.g. apt-get install wrk)',
      measure: autocannonMeasure,
    };
  }
  const loadCpu = pinned ? 1 : undefined;
  const scriptFile = join(tmpdir(), `mock-bench-${process.pid}.lua`);
  return {
    name: 'wrk',
    serverCpu,
    loadCpu,
    note: pinned ? 'wrk, 1 thread, on core 1; servers on core 0' : 'wrk, 1 thread (not pinned: taskset or a second core is missing)',
    async measure(url, scenario, { connections, duration, warmup }) {
      if (warmup > 0) await runWrk(url, scenario, { connections, duration: warmup, cpu: loadCpu, scriptFile });
      return runWrk(url, scenario, { connections, duration, cpu: loadCpu, scriptFile });
    },
  };
}

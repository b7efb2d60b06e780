// What a server process spent of the CPU (user and system), read from /proc: a cost per request
// that holds whatever the load generator could send, unlike requests per second. For the whole
// process (all its threads), or for its main thread alone: the one that answers, where a server's
// other threads (a recorder's writer) could run on cores of their own.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const ticksPerSecond = (() => {
  if (process.platform !== 'linux') return null;
  const getconf = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(getconf.stdout) > 0 ? Number(getconf.stdout) : 100;
})();

/** CPU milliseconds the process has used so far; null where /proc does not tell (not Linux, gone). */
export function cpuMillis(pid) {
  return statMillis(`/proc/${pid}/stat`);
}

/** CPU milliseconds the process's main thread has used so far; null where /proc does not tell. */
export function mainThreadCpuMillis(pid) {
  return statMillis(`/proc/${pid}/task/${pid}/stat`);
}

function statMillis(file) {
  if (ticksPerSecond === null) return null;
  try {
    const stat = readFileSync(file, 'utf8');
    // the fields after the command name, which may hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime: fields 14 and 15 of stat(5), 12 and 13 after the name
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

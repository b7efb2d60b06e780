import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { ResolvedConfig } from '../../config/index.js';

/**
 * The cores a CPU quota allows (a container's CPU limit: Kubernetes and Docker set it as a CFS
 * quota, which os.availableParallelism() does not see); undefined without one. cgroup v2's
 * cpu.max (`200000 100000`: 2 cores; `max 100000`: none), else cgroup v1's cfs files.
 */
function quotaCores(): number | undefined {
  const read = (file: string): string | undefined => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  const v2 = read('/sys/fs/cgroup/cpu.max')?.split(/\s+/);
  const [quota, period] = v2 ?? [read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'), read('/sys/fs/cgroup/cpu/cpu.cfs_period_us')];
  const cores = Number(quota) / Number(period);
  return Number.isFinite(cores) && cores > 0 ? Math.max(1, Math.floor(cores)) : undefined;
}

/** server.workers as a number: auto is the cores this process may use (its CPU affinity, within a container's CPU quota). */
export function workerCount(resolved: ResolvedConfig): number {
  const workers = resolved.config.server.workers ?? 1;
  if (workers !== 'auto') return workers;
  return Math.min(availableParallelism(), quotaCores() ?? Infinity);
}

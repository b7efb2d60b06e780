import { availableParallelism } from 'node:os';
import type { ResolvedConfig } from '../../config/index.js';

/** server.workers as a number: auto is the cores this process may use. */
export function workerCount(resolved: ResolvedConfig): number {
  const workers = resolved.config.server.workers ?? 1;
  return workers === 'auto' ? availableParallelism() : workers;
}

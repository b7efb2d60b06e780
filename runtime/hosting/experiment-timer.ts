import type { ChaosSettings } from '../chain/chaos/index.js';
import type { LiveState } from '../chain/settings/index.js';

const BLOCKS = ['fault_injection', 'rate_limit', 'traffic_shaping', 'circuit_breaker', 'bulkhead'] as const satisfies ReadonlyArray<keyof ChaosSettings>;

/**
 * max_experiment_duration_secs of a hosted mock's plan: chaos a tenant turns on is turned off
 * again (reset to how the mock started) that long after it started, whoever turned it on and
 * however (settings, a profile). Answers the stop.
 */
export function limitExperiments(live: LiveState, seconds: number, stopped: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const running = (): boolean => BLOCKS.some((block) => live.chaos.active(block));
  const check = (): void => {
    if (!running()) {
      clearTimeout(timer);
      timer = undefined;
      return;
    }
    timer ??= setTimeout(() => {
      timer = undefined;
      void Promise.resolve(live.chaos.reset()).then(stopped);
    }, seconds * 1000).unref();
  };
  live.chaos.watch(check);
  check();
  return () => clearTimeout(timer);
}

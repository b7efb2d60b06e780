import { problem } from '../../engine/index.js';
import type { LiveState } from '../../live/index.js';
import type { Stage } from '../stage.js';

/** Global failure injection (spec step 4): with probability failure_rate, a status from status_codes. */
export function faultsStage(live: LiveState): Stage {
  const on = (): boolean => live.faults.enabled && live.faults.status_codes.length > 0;
  return {
    name: 'faults',
    slot: 'faults',
    appliesTo: on,
    run(ex, next) {
      const faults = live.faults;
      if (Math.random() >= faults.failure_rate) return next(ex);
      live.faultsInjected++;
      const status = faults.status_codes[Math.floor(Math.random() * faults.status_codes.length)];
      return problem('MOCK_ERR_FAULT_INJECTED', { rate: faults.failure_rate }, { status, headers: [['x-mock-fault', `http_${status}`]], logged: true });
    },
    watch: (changed) => live.watch('faults', changed),
  };
}

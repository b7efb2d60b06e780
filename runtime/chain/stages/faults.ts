import { problem } from '../exchange/index.js';
import { chance, pickOne } from '../chaos/index.js';
import { defineStage } from '../stage.js';

/**
 * Global failure injection (spec step 4): with probability failure_rate, a status from status_codes.
 * Draws from chaos's stream, so `--seed` repeats these faults like every other chaos decision.
 */
export const faultsStage = defineStage({ slot: 'faults', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live }) => {
  const on = (): boolean => live.faults.enabled && live.faults.status_codes.length > 0;
  return {
    appliesTo: on,
    run(ex, next) {
      const faults = live.faults;
      const random = live.chaos.random;
      if (!chance(random, faults.failure_rate)) return next(ex);
      live.faultsInjected++;
      const status = pickOne(random, faults.status_codes);
      return problem('MOCK_ERR_FAULT_INJECTED', { rate: faults.failure_rate }, { status, headers: [['x-mock-fault', `http_${status}`]], logged: true });
    },
    watch: (changed) => live.watch('faults', changed),
  };
});

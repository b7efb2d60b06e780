import type { Answer, Exchange } from '../exchange/index.js';
import { defineStage, type Next } from '../stage.js';
import { injected } from './chaos-answers.js';

/**
 * The bulkhead (observability.chaos.bulkhead): at most max_concurrent_requests requests in
 * flight, then up to max_queue_size waiting in turn, then 503. A request holds its place until
 * its answer is written (injected latency included), so slow answers fill the bulkhead as they
 * would a real server's.
 */
export const bulkheadStage = defineStage({ slot: 'bulkhead', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live: { chaos } }) => {
  const enter = (ex: Exchange, release: () => void, next: Next): Answer | Promise<Answer> => {
    ex.locals.releaseBulkhead = release;
    return next(ex);
  };
  return {
    appliesTo: () => chaos.active('bulkhead'),
    run(ex, next) {
      const { bulkhead } = chaos.machines;
      const entered = bulkhead.enter();
      if (entered === null) {
        return injected(chaos, 'bulkhead_rejected', 'MOCK_ERR_CHAOS_BULKHEAD_FULL', { concurrent: bulkhead.active, queue: bulkhead.queued }, { fault: 'bulkhead_full' });
      }
      if (typeof entered === 'function') return enter(ex, entered, next);
      return entered.then((release) => enter(ex, release, next));
    },
    afterAnswer(ex) {
      ex.locals.releaseBulkhead?.();
      ex.locals.releaseBulkhead = undefined;
    },
    watch: (changed) => chaos.watch(changed),
  };
});

import type { Answer, Exchange } from '../exchange/index.js';
import type { Replayed } from '../fixtures/index.js';
import type { Awaitable } from '../../store/index.js';
import { defineStage } from '../stage.js';

/**
 * Replay (spec step 1): a request whose fingerprint has fixtures is answered from them, in
 * recorded order, before every other step of the chain; so a replaying server never reaches an
 * upstream for it. HEAD is answered from a GET fixture when it has none of its own.
 */
export const replayStage = defineStage({ slot: 'replay', kinds: ['description'] }, ({ fixtures }) => {
  if (fixtures === undefined) return undefined;
  const { store } = fixtures;
  return {
    appliesTo: () => store.settings.replay && store.size > 0,
    run(ex, next) {
      const otherwise = ex.method === 'HEAD' ? () => settle(store.take(store.keyOf(ex, 'GET')), ex, () => next(ex)) : () => next(ex);
      return settle(store.take(store.keyOf(ex)), ex, otherwise);
    },
    watch: (changed) => store.onChange(changed),
  };
});

/** The fixture's answer once the sequence's position is taken, or what `otherwise` answers when none is left. */
function settle(taken: Awaitable<Replayed | undefined>, ex: Exchange, otherwise: () => Answer | Promise<Answer>): Answer | Promise<Answer> {
  if (taken instanceof Promise) return taken.then((replayed) => settle(replayed, ex, otherwise));
  if (taken === undefined) return otherwise();
  ex.locals.replayed = taken.id;
  return taken.answer;
}

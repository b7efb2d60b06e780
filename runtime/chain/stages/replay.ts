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
      const replayed = store.take(store.keyOf(ex)) ?? (ex.method === 'HEAD' ? store.take(store.keyOf(ex, 'GET')) : undefined);
      if (replayed === undefined) return next(ex);
      ex.locals.replayed = replayed.id;
      return replayed.answer;
    },
    watch: (changed) => store.onChange(changed),
  };
});

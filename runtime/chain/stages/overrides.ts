import { held } from '../exchange/index.js';
import { afterNext, defineStage } from '../stage.js';

/** Override rules adjust whatever the stages inside them answered, and may delay it. */
export const overridesStage = defineStage({ slot: 'overrides', kinds: ['description'] }, ({ live }) => {
  return {
    appliesTo: () => live.overrides.active,
    run: (ex, next) =>
      afterNext(next(ex), (answer) => {
        const outcome = live.overrides.apply(ex, answer);
        return outcome.applied.length === 0 ? answer : held(outcome.response, outcome.delayMs);
      }),
    watch: (changed) => live.watch('overrides', changed),
  };
});

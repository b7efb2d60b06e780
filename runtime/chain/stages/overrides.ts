import { held } from '../exchange/index.js';
import { afterNext, type Stage, type StageContext } from '../stage.js';

/** Override rules adjust whatever the stages inside them answered, and may delay it. */
export function overridesStage({ live }: StageContext): Stage {
  return {
    name: 'overrides',
    slot: 'overrides',
    appliesTo: () => live.overrides.active,
    run: (ex, next) =>
      afterNext(next(ex), (answer) => {
        const outcome = live.overrides.apply(ex, answer);
        return outcome.applied.length === 0 ? answer : held(outcome.response, outcome.delayMs);
      }),
    watch: (changed) => live.watch('overrides', changed),
  };
}

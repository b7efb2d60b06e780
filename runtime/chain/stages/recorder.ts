import type { Stage, StageContext } from '../stage.js';

/**
 * Recording (spec step 7): while `mock serve --recorder` is on, every exchange of every route,
 * whichever stage answered it, goes to the recorder database once its answer is written. The
 * request path only queues it (runtime/chain/recorder).
 */
export function recorderStage({ recorder }: StageContext): Stage | undefined {
  if (recorder === undefined) return undefined;
  return {
    name: 'recorder',
    slot: 'recorder',
    appliesTo: () => true,
    run: (ex, next) => next(ex),
    afterAnswer: (ex, answer) => recorder.capture(ex, answer),
  };
}

import { defineStage } from '../stage.js';

/**
 * Recording (spec step 7): while `mock serve --recorder` is on, every exchange of every route,
 * whichever stage answered it, goes to the recorder database once its answer is written. The
 * request path only queues it (runtime/chain/recorder).
 */
export const recorderStage = defineStage({ slot: 'recorder', kinds: ['description', 'http'] }, ({ recorder }) => {
  if (recorder === undefined) return undefined;
  return {
    appliesTo: () => true,
    run: (ex, next) => next(ex),
    afterAnswer: (ex, answer) => recorder.capture(ex, answer),
  };
});

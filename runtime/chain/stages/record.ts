import { defineStage } from '../stage.js';

/**
 * Recording (spec step 7): whatever answered (a fixture excepted), the mock or the upstream
 * through the proxy, is saved as a fixture once the answer is written. The stage only passes the
 * request on; its work is after the answer, off the request's path.
 */
export const recordStage = defineStage({ slot: 'record', kinds: ['description'] }, ({ fixtures }) => {
  if (fixtures === undefined) return undefined;
  const { store, recorder } = fixtures;
  return {
    appliesTo: () => store.settings.record,
    run: (ex, next) => next(ex),
    afterAnswer: (ex, answer) => recorder.capture(ex, answer),
    watch: (changed) => store.onChange(changed),
  };
});

import { isStackOverflow } from '../../../common/json-depth.js';
import { held, requestTooDeep, type Answer } from '../exchange/index.js';
import { defineStage } from '../stage.js';

/**
 * Runtime mocks created over the admin API: they answer before the proxy and the description.
 * A route only carries this stage while some enabled mock's path could reach it.
 */
export const mocksStage = defineStage({ slot: 'mocks', kinds: ['description'] }, ({ live, engine }) => {
  if (engine === undefined) return undefined;
  return {
    appliesTo: (route) => live.mocks.mayAnswer(route),
    run(ex, next) {
      const matched = live.mocks.match(ex);
      if (matched === undefined) return next(ex);
      ex.answeredBy = matched.mock.route;
      let answer: Answer;
      try {
        // templates render as the engine being served does: its seed, the expansion setting
        const current = engine();
        answer = live.mocks.respond(matched, ex, current.templateExpansion, current.templateRuntime);
      } catch (e) {
        // a template echoing a body nested deeper than JSON.stringify can walk
        if (!isStackOverflow(e)) throw e;
        return requestTooDeep(ex);
      }
      return held(answer, matched.mock.latency_ms ?? 0);
    },
    watch: (changed) => live.watch('mocks', changed),
  };
});

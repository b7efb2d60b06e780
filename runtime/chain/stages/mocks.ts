import { isStackOverflow } from '../../../common/json-depth.js';
import { requestTooDeep } from '../../engine/index.js';
import { held, type Answer } from '../../exchange/index.js';
import type { LiveState } from '../../live/index.js';
import type { TemplateRuntime } from '../../template/index.js';
import type { Stage } from '../stage.js';

/** How runtime mocks render templates: as the engine being served does (its seed, the expansion setting). */
export interface MockTemplates {
  expand(): boolean;
  runtime(): TemplateRuntime;
}

/**
 * Runtime mocks created over the admin API: they answer before the proxy and the description.
 * A route only carries this stage while some enabled mock's path could reach it.
 */
export function mocksStage(live: LiveState, templates: MockTemplates): Stage {
  return {
    name: 'mocks',
    slot: 'mocks',
    appliesTo: (route) => live.mocks.mayAnswer(route),
    run(ex, next) {
      const matched = live.mocks.match(ex);
      if (matched === undefined) return next(ex);
      ex.answeredBy = matched.mock.route;
      let answer: Answer;
      try {
        answer = live.mocks.respond(matched, ex, templates.expand(), templates.runtime());
      } catch (e) {
        // a template echoing a body nested deeper than JSON.stringify can walk
        if (!isStackOverflow(e)) throw e;
        return requestTooDeep(ex);
      }
      return held(answer, matched.mock.latency_ms ?? 0);
    },
    watch: (changed) => live.watch('mocks', changed),
  };
}

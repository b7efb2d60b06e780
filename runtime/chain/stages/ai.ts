import { AiAnswers, aiAnswersBudget, fixtureExamples, recorderExamples, type ExampleSource } from '../ai/index.js';
import type { Exchange } from '../exchange/index.js';
import { defineStage, type StageContext } from '../stage.js';

/**
 * AI-assisted mocks (docs/ai.md): on the operations ai.rules, the scenario's mockai_rules or
 * ai.all_generated_routes cover, a valid request is answered by the model when it gives a valid
 * answer in time, by the rest of the chain (the generator) otherwise. Compiled onto those routes
 * only: every other route never reaches it, and without ai.enabled it is not registered.
 */
export const aiStage = defineStage({ slot: 'ai', kinds: ['description'] }, (context) => {
  const { engine, live, logger, settings } = context;
  const options = settings.ai;
  if (engine === undefined || options === undefined) return undefined;
  const answers = new AiAnswers(options, live.stores.open('ai-answers', aiAnswersBudget(options.cacheMaxBytes)), engine, logger, examplesOf(context));
  return {
    appliesTo: (route) => route !== null && answers.operationOf(route.key) !== undefined,
    run(ex, next) {
      const operation = ex.route === null ? undefined : answers.operationOf(ex.route.key);
      if (operation === undefined || ex.route === null || !wantsModelAnswer(ex, operation.contentType)) return next(ex);
      // a request validation refuses is the terminal's to answer
      const checked = ex.validated();
      if (checked.issues.length > 0 || checked.unsupportedType !== undefined) return next(ex);
      const index = ex.route.index;
      return answers.answer(ex, operation, index, checked).then((answer) => answer ?? next(ex));
    },
  };
});

/**
 * Whether the model may answer: not a HEAD request, nor one that asks for a documented response or
 * example (`Prefer`), nor one whose Accept leaves out the JSON media type the model writes.
 */
function wantsModelAnswer(ex: Exchange, contentType: string): boolean {
  if (ex.method === 'HEAD' || ex.headers.prefer !== undefined) return false;
  const accept = ex.headers.accept?.toLowerCase();
  return accept === undefined || accept.includes('*/*') || accept.includes('application/*') || accept.includes('json') || accept.includes(contentType.toLowerCase());
}

function examplesOf({ settings, recorder, fixtures }: StageContext): ExampleSource | undefined {
  const provider = settings.ai?.ragProvider;
  if (provider === 'recorder') return recorder === undefined ? undefined : recorderExamples(recorder);
  if (provider === 'fixtures') return fixtures === undefined ? undefined : fixtureExamples(fixtures.store);
  return undefined;
}

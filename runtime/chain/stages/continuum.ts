import { requestPath } from '../../match/index.js';
import type { Description } from '../description.js';
import { bytesOf, type Answer, type Exchange } from '../exchange/index.js';
import { continuumAnswer } from '../continuum/index.js';
import { forward } from '../proxy/index.js';
import { defineStage } from '../stage.js';

/**
 * The reality continuum (spec step 5 with the conditional proxy): requests on its paths are
 * answered by the mock, the upstream (proxy.upstream_url) or a blend of both, by the path's ratio
 * (runtime/chain/continuum). The mock's side is the terminal's answer (the description or a custom
 * route), so a blanket proxy after this stage never stands in for it. Every answer says its
 * source in X-Mock-Source. On routes the continuum cannot reach the stage is not there at all.
 */
export const continuumStage = defineStage({ slot: 'continuum', kinds: ['description'] }, ({ live, engine, settings: { maxBodyBytes, upstreamAgent } }) => {
  if (engine === undefined) return undefined;
  const continuum = live.continuum;
  return {
    appliesTo: (route) => continuum.mayApply(route),
    run(ex, next) {
      const path = requestPath(ex.path);
      const upstream = live.proxy.upstream_url;
      if (upstream === null || !continuum.covers(path)) return next(ex);
      const sources = {
        mock: () => engine().respond(ex),
        upstream: () => {
          live.requestsProxied++;
          return forward(ex, upstream, live.proxy.timeout_seconds, maxBodyBytes, upstreamAgent);
        },
      };
      const settings = { ratio: continuum.ratioFor(path).ratio, strategy: continuum.mergeStrategy, draw: continuum.draw, valid: (answer: Answer) => documented(engine(), ex, answer) };
      return continuumAnswer(sources, settings).then(({ answer, source }) => {
        if (source === 'upstream') ex.locals.upstream = true;
        return { ...answer, headers: [...answer.headers, ['x-mock-source', source]], source: 'continuum' };
      });
    },
    watch: (changed) => live.watch('continuum', changed),
  };
});

/** Whether a blended answer holds to its operation's documented response; routes without one accept any. */
function documented(engine: Description, ex: Exchange, answer: Answer): boolean {
  if (ex.match.kind !== 'operation') return true;
  const type = answer.headers.find(([name]) => name === 'content-type')?.[1];
  return engine.checkAnswer(ex.match.index, answer.status, type, bytesOf(answer.body)).issues.length === 0;
}

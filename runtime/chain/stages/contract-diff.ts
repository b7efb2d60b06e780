import type { Answer, Exchange } from '../exchange/index.js';
import { defineStage } from '../stage.js';

/**
 * contract_diff.capture (docs/contract-diff-analysis.md, "Live capture"): around the proxy's
 * stages, an answer that came from a real upstream is held against the served description, kept
 * with the captures and marked with X-Mock-Violations. Answers the mock made pass untouched; the
 * stage is only on routes an upstream stage may take (and not at all while the setting is off).
 */
export const contractDiffStage = defineStage({ slot: 'contract-diff', kinds: ['description'] }, ({ live, engine, contractDiff, settings: { proxyRules } }) => {
  if (engine === undefined || contractDiff === undefined) return undefined;
  const ruled = proxyRules !== undefined && proxyRules.length > 0;
  const checked = (ex: Exchange, answer: Answer): Answer => (ex.locals.upstream === true ? contractDiff.check(engine(), ex, answer) : answer);
  return {
    appliesTo: (route) => ruled || live.proxying || live.continuum.mayApply(route),
    run(ex, next) {
      const answer = next(ex);
      return answer instanceof Promise ? answer.then((a) => checked(ex, a)) : checked(ex, answer);
    },
    watch(changed) {
      live.watch('proxy', changed);
      live.watch('continuum', changed);
    },
  };
});

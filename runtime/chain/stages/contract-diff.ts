import { defineStage } from '../stage.js';

/**
 * contract_diff.capture (docs/contract-diff-analysis.md, "Live capture"): around the proxy's
 * stages, an answer that came from a real upstream is held against the served description, kept
 * with the captures and marked with X-Mock-Violations. Answers the mock made pass untouched; while
 * the setting is off the stage is not there at all.
 */
export const contractDiffStage = defineStage({ slot: 'contract-diff', kinds: ['description'] }, ({ engine, contractDiff }) => {
  if (engine === undefined || contractDiff === undefined) return undefined;
  return {
    appliesTo: () => true,
    run: async (ex, next) => {
      const answer = await next(ex);
      return ex.locals.upstream === true ? contractDiff.check(engine(), ex, answer) : answer;
    },
  };
});

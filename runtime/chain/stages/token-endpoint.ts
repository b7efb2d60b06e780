import { tokenAnswer } from '../security/index.js';
import type { Stage, StageContext } from '../stage.js';

/**
 * The mock OAuth 2.0 token endpoint (mock.yaml auth.token_endpoint): POSTs to its path get a
 * client credentials grant, ahead of any operation of the descriptions at the same path; other
 * requests pass on. Only the unmatched chain and routes at that path run it.
 */
export function tokenEndpointStage({ tokenIssuer: issuer }: StageContext): Stage | undefined {
  if (issuer === undefined) return undefined;
  const { path } = issuer.options;
  return {
    name: 'token-endpoint',
    slot: 'token-endpoint',
    appliesTo: (route) => route === null || route.path === path,
    run: (ex, next) => (ex.method === 'POST' && ex.path === path ? tokenAnswer(ex, issuer) : next(ex)),
  };
}

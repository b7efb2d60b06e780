import { tokenAnswer } from '../security/index.js';
import { defineStage } from '../stage.js';

/**
 * The mock OAuth 2.0 token endpoint (mock.yaml auth.token_endpoint): POSTs to its path get a
 * client credentials grant, ahead of any operation of the descriptions at the same path; other
 * requests pass on. Only the unmatched chain and routes at that path run it.
 */
export const tokenEndpointStage = defineStage({ slot: 'token-endpoint', kinds: ['description'] }, ({ tokenIssuer: issuer }) => {
  if (issuer === undefined) return undefined;
  const { path } = issuer.options;
  return {
    appliesTo: (route) => route === null || route.path === path,
    run: (ex, next) => (ex.method === 'POST' && ex.path === path ? tokenAnswer(ex, issuer) : next(ex)),
  };
});

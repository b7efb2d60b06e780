/**
 * The runtime's light face for configuration checks: what `mock config validate`, `mock build`
 * and the config loader need of the runtime's rules (chaos settings, profiles, routes' chaos,
 * the proxy's upstream and rules, the reality continuum, state machines' patterns and templates,
 * contract-diff webhooks' targets and secrets, the callbacks' allowlist and webhook secret)
 * without loading the servers.
 */
export {
  BUILTIN_PROFILES,
  DEFAULT_CHAOS,
  checkChaosPatch,
  checkProfile,
  checkRouteChaos,
  mergeChaos,
  type ChaosPatch,
  type ChaosProfile,
  type ChaosSettings,
} from './chain/chaos/index.js';
// from their own files: the proxy's index also loads forward() and, through it, the engine
export { checkUpstreamUrl } from './chain/proxy/upstream.js';
export { compileProxyRules, type ProxyRule } from './chain/proxy/rules.js';
export { checkContinuum, type ContinuumConfig } from './chain/continuum/config.js';
// from its own file: the stateful index also loads the service and, through it, runtime mocks
export { checkStateful } from './chain/stateful/check.js';
export { checkWebhooks } from './drift/webhooks/index.js';
// from its own file: the callbacks index also loads the senders
export { checkCallbacks } from './callbacks/check.js';

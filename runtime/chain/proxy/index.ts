export { forward } from './forward.js';
export { checkUpstreamUrl } from './upstream.js';
export { upstreamTarget } from './upstream-target.js';
export { compileProxyRules, ruleFor, rulesMayReach, type CompiledProxyRule, type ProxyRule } from './rules.js';
export { isAdminCredential } from './admin-credentials.js';

import { MockError } from '../../../common/errors.js';
import { requestPath, templateSegments } from '../../match/index.js';
import { compileProxyRules, forward, ruleFor, rulesMayReach } from '../proxy/index.js';
import { defineStage } from '../stage.js';

/**
 * The conditional proxy (spec step 5, `ProxyConfig.rules`): the first rule whose pattern matches
 * the path and whose condition holds sends the request to its upstream, whether or not
 * proxy.enabled forwards everything else. Compiled once at start; only on routes a rule's pattern
 * can reach, so other routes keep their speed.
 */
export const proxyRulesStage = defineStage({ slot: 'proxy-rules', kinds: ['description'] }, ({ live, settings: { maxBodyBytes, proxyRules, upstreamAgent } }) => {
  if (proxyRules === undefined || proxyRules.length === 0) return undefined;
  const { rules, errors } = compileProxyRules(proxyRules, 'proxy.rules', live.proxy.upstream_url !== null);
  if (errors.length > 0) throw new MockError('MOCK_ERR_CONFIG_INVALID', errors.join('\n'));
  return {
    appliesTo: (route) => route === null || rulesMayReach(rules, templateSegments(route.path)),
    run(ex, next) {
      const rule = ruleFor(rules, requestPath(ex.path), ex);
      const upstream = rule?.upstream ?? live.proxy.upstream_url;
      if (rule === undefined || upstream === null) return next(ex);
      ex.locals.upstream = true;
      return forward(ex, upstream, live.proxy.timeout_seconds, maxBodyBytes, upstreamAgent).then((answer) => {
        live.requestsProxied++;
        return answer;
      });
    },
  };
});

import { forward } from '../proxy/index.js';
import { defineStage } from '../stage.js';

/**
 * The proxy (spec step 5): while on, requests go to the upstream; they count under the route they
 * reached. Upstream answers are held whole (override rules patch them), up to `maxBodyBytes`.
 */
export const proxyStage = defineStage({ slot: 'proxy', kinds: ['description'] }, ({ live, settings: { maxBodyBytes, upstreamAgent } }) => {
  return {
    appliesTo: () => live.proxying,
    run(ex) {
      const { upstream_url, timeout_seconds } = live.proxy;
      ex.locals.upstream = true;
      return forward(ex, upstream_url as string, timeout_seconds, maxBodyBytes, upstreamAgent).then((answer) => {
        live.requestsProxied++;
        return answer;
      });
    },
    watch: (changed) => live.watch('proxy', changed),
  };
});

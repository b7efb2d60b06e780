import { forward } from '../proxy/index.js';
import type { Stage, StageContext } from '../stage.js';

/**
 * The proxy (spec step 5): while on, requests go to the upstream; they count under the route they
 * reached. Upstream answers are held whole (override rules patch them), up to `maxBodyBytes`.
 */
export function proxyStage({ live, settings: { maxBodyBytes } }: StageContext): Stage {
  return {
    name: 'proxy',
    slot: 'proxy',
    appliesTo: () => live.proxying,
    run(ex) {
      const { upstream_url, timeout_seconds } = live.proxy;
      ex.locals.upstream = true;
      return forward(ex, upstream_url as string, timeout_seconds, maxBodyBytes).then((answer) => {
        live.requestsProxied++;
        return answer;
      });
    },
    watch: (changed) => live.watch('proxy', changed),
  };
}

import type { RouteFaultsMeta, RouteLatencyMeta } from '../../../common/contract/index.js';
import { chance, latencySpec, pickOne, sampleLatency, type ChaosState } from '../chaos/index.js';
import { held, type Answer, type BuildRoute, type Exchange } from '../exchange/index.js';
import { afterNext, defineStage } from '../stage.js';
import { delayed, dropped, injected } from './chaos-answers.js';

/**
 * Per-route chaos (spec step 3): core.routes[] lowered into the build's route table, or what
 * /__mock/api/route-chaos set for the route (which replaces it). Faults first (one of
 * fault_types, with the block's probability), then latency sampled from its distribution.
 */
export const routeChaosStage = defineStage({ slot: 'route-chaos', kinds: ['description'] }, ({ live: { chaos } }) => {
  const configOf = (route: BuildRoute | null) => {
    if (route === null) return undefined;
    return chaos.routeChaos(route.key) ?? route.behaviour ?? undefined;
  };
  return {
    appliesTo(route) {
      const config = configOf(route);
      return config?.latency?.enabled === true || config?.fault_injection?.enabled === true;
    },
    run(ex, next) {
      const config = configOf(ex.route);
      const faults = config?.fault_injection;
      const answer = faults?.enabled === true && chance(chaos.random, faults.probability ?? 1) ? routeFault(chaos, faults, ex) : next(ex);
      return withLatency(chaos, config?.latency, answer);
    },
    watch: (changed) => chaos.watch(changed),
  };
});

function routeFault(chaos: ChaosState, faults: RouteFaultsMeta, ex: Exchange): Answer {
  const types = faults.fault_types ?? [];
  const fault = types.length === 0 ? { type: 'http_error' as const } : pickOne(chaos.random, types);
  const where = `core.routes ${ex.route?.key ?? ''}`.trim();
  switch (fault.type) {
    case 'http_error': {
      const status = fault.status_code ?? 500;
      return injected(chaos, 'http_error', 'MOCK_ERR_CHAOS_HTTP_ERROR', { why: fault.message ?? where }, { status, fault: `http_error;status=${status}` });
    }
    case 'timeout': {
      const ms = fault.duration_ms ?? 30_000;
      return held(injected(chaos, 'timeout', 'MOCK_ERR_CHAOS_TIMEOUT', { ms }), ms);
    }
    case 'connection_error': {
      const kind = chaos.settings.fault_injection.connection_error_kind;
      if (kind !== 'http_503') return dropped(chaos, kind);
      return injected(chaos, 'connection_error', 'MOCK_ERR_CHAOS_CONNECTION', { why: fault.message ?? where });
    }
  }
}

/** The answer, delayed by the route's latency when it applies (sampled once the answer is made). */
function withLatency(chaos: ChaosState, latency: RouteLatencyMeta | undefined, result: Answer | Promise<Answer>): Answer | Promise<Answer> {
  if (latency?.enabled !== true || !chance(chaos.random, latency.probability ?? 1)) return result;
  const { base_ms, jitter_ms } = sampleLatency(latencySpec(latency), chaos.random);
  return afterNext(result, (answer) => delayed(chaos, answer, base_ms, jitter_ms));
}

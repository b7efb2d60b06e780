import { slotRank } from '../slots.js';
import type { ExchangeKind, Stage, StageContext, StageFactory } from '../stage.js';
import { aiStage } from './ai.js';
import { bulkheadStage } from './bulkhead.js';
import { callbacksStage } from './callbacks.js';
import { circuitBreakerStage } from './circuit-breaker.js';
import { connectionLimitStage } from './connection-limit.js';
import { continuumStage } from './continuum.js';
import { contractDiffStage } from './contract-diff.js';
import { corsStage } from './cors.js';
import { entitiesStage } from './entities.js';
import { faultInjectionStage } from './fault-injection.js';
import { faultsStage } from './faults.js';
import { latencyStage } from './latency.js';
import { mocksStage } from './mocks.js';
import { overridesStage } from './overrides.js';
import { packetLossStage } from './packet-loss.js';
import { pluginMiddlewareStage } from './plugin-middleware.js';
import { pluginResponseStage } from './plugin-response.js';
import { pluginValidatorStage } from './plugin-validator.js';
import { proxyStage } from './proxy.js';
import { proxyRulesStage } from './proxy-rules.js';
import { rateLimitStage } from './rate-limit.js';
import { recordStage } from './record.js';
import { replayStage } from './replay.js';
import { recorderStage } from './recorder.js';
import { routeChaosStage } from './route-chaos.js';
import { sandboxStage } from './sandbox.js';
import { securityStage } from './security.js';
import { statefulStage } from './stateful.js';
import { tenantQuotaStage } from './tenant-quota.js';
import { tokenEndpointStage } from './token-endpoint.js';
import { trafficShapingStage } from './traffic-shaping.js';

/**
 * Every stage of the request chain: a new behaviour is a file in this folder and a line here, in
 * any order. Each file declares its slot, which alone orders the stages, and the kinds of exchange
 * its stage acts on, from which each server's list is derived.
 */
const FACTORIES: readonly StageFactory[] = [
  aiStage,
  bulkheadStage,
  callbacksStage,
  circuitBreakerStage,
  connectionLimitStage,
  continuumStage,
  contractDiffStage,
  corsStage,
  entitiesStage,
  faultInjectionStage,
  faultsStage,
  latencyStage,
  mocksStage,
  overridesStage,
  packetLossStage,
  pluginMiddlewareStage,
  pluginResponseStage,
  pluginValidatorStage,
  proxyRulesStage,
  proxyStage,
  rateLimitStage,
  recordStage,
  recorderStage,
  replayStage,
  routeChaosStage,
  sandboxStage,
  securityStage,
  statefulStage,
  tenantQuotaStage,
  tokenEndpointStage,
  trafficShapingStage,
];

/** The stages of a server whose exchanges are of `kind`, as its configuration calls for them, in slot order. Run once per server, at start. */
export function createStages(context: StageContext, kind: ExchangeKind): Stage[] {
  return FACTORIES.filter((factory) => factory.kinds.includes(kind))
    .sort((a, b) => slotRank(a.slot) - slotRank(b.slot))
    .flatMap((factory) => factory.create(context) ?? []);
}

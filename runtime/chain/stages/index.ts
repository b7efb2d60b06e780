import type { Stage, StageContext, StageFactory } from '../stage.js';
import { bulkheadStage } from './bulkhead.js';
import { circuitBreakerStage } from './circuit-breaker.js';
import { connectionLimitStage } from './connection-limit.js';
import { continuumStage } from './continuum.js';
import { corsStage } from './cors.js';
import { faultInjectionStage } from './fault-injection.js';
import { faultsStage } from './faults.js';
import { latencyStage } from './latency.js';
import { mocksStage } from './mocks.js';
import { overridesStage } from './overrides.js';
import { packetLossStage } from './packet-loss.js';
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
import { tokenEndpointStage } from './token-endpoint.js';
import { trafficShapingStage } from './traffic-shaping.js';

/**
 * Every stage of the request chain: a new behaviour is a file in this folder and a line here.
 * The slot decides where a stage runs (one stage per slot).
 */
export const STAGES: readonly StageFactory[] = [
  sandboxStage,
  circuitBreakerStage,
  bulkheadStage,
  rateLimitStage,
  connectionLimitStage,
  packetLossStage,
  trafficShapingStage,
  corsStage,
  tokenEndpointStage,
  securityStage,
  latencyStage,
  overridesStage,
  replayStage,
  recordStage,
  recorderStage,
  statefulStage,
  routeChaosStage,
  faultsStage,
  faultInjectionStage,
  mocksStage,
  proxyRulesStage,
  continuumStage,
  proxyStage,
];

/**
 * The stages of a protocol served over HTTP without a description (GraphQL): protective chaos,
 * CORS, latency, global faults and the recorder database. Overrides, runtime mocks, fixtures and
 * the proxy select requests by path and method, which say nothing about a GraphQL operation.
 */
export const OVER_HTTP_STAGES: readonly StageFactory[] = [
  circuitBreakerStage,
  bulkheadStage,
  rateLimitStage,
  connectionLimitStage,
  packetLossStage,
  trafficShapingStage,
  corsStage,
  latencyStage,
  recorderStage,
  faultsStage,
  faultInjectionStage,
];

/**
 * The stages of a call that is not an HTTP request (a gRPC call, run through the chain as an
 * exchange without a body when it starts): protective chaos, latency (applied per message) and
 * faults, which the server maps to gRPC statuses. Bandwidth, CORS and the recorder database are
 * about HTTP bytes.
 */
export const CALL_STAGES: readonly StageFactory[] = [circuitBreakerStage, bulkheadStage, rateLimitStage, connectionLimitStage, packetLossStage, latencyStage, faultsStage, faultInjectionStage];

/** The stages a server's configuration calls for, of `factories` (every stage by default). */
export function createStages(context: StageContext, factories: readonly StageFactory[] = STAGES): Stage[] {
  return factories.flatMap((factory) => factory(context) ?? []);
}

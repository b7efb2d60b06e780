/**
 * The logic of chaos engineering, free of I/O: servers, config and the Chaos API wire it in.
 *
 * - Draws (random.ts): the seeded Random every random decision takes, so `--seed` repeats a run.
 * - Latency (distributions.ts, truncated-normal.ts): fixed, uniform, normal, exponential and
 *   lognormal delays, truncated at 0 by redrawing, never clamped.
 * - Faults (fault-pattern.ts): which requests get an injected error (random, burst, sequential);
 *   corruption.ts damages a body and says exactly how.
 * - Protection (token-bucket.ts, bucket-table.ts, circuit-breaker.ts, bulkhead.ts): rate limits
 *   with per-key buckets bounded by LRU, the circuit breaker, the bulkhead.
 * - Figures (latency-recorder.ts, fault-counters.ts): what the Chaos API and Prometheus report.
 * - Settings (settings.ts, settings-check.ts, profiles.ts, route-latency.ts): observability.chaos
 *   as the runtime holds it; the checks of chaos settings, profile documents and a route's chaos
 *   (core.routes[] or the route-chaos API) by the definitions of mock.yaml's schema, then the rules
 *   across keys; the built-in profiles; core.routes latency as a LatencySpec.
 * - State (chaos-state.ts): one server's settings, the machinery built from them, the counters;
 *   the chain's chaos stages read it and watch it.
 *
 * Everything that depends on time takes a clock `now` in milliseconds, and every random choice a
 * Random, so tests run on a fake clock and a seed. The check* functions say what is wrong with user
 * input, one line per problem naming the key; constructors expect checked input and throw
 * RangeError on values they cannot work with. The request matcher lives in runtime/match.
 */
export { Bulkhead } from './bulkhead.js';
export { BucketTable, MAX_BUCKETS, bucketBudget } from './bucket-table.js';
export { CircuitBreaker, breakerBudget, type BreakerRecord, type BreakerSnapshot, type BreakerState } from './circuit-breaker.js';
export { corrupt, type CorruptionType } from './corruption.js';
export { checkLatencySpec, LATENCY_DISTRIBUTIONS, sampleLatency, type LatencyDistribution, type LatencySpec } from './distributions.js';
export { FAULT_KINDS, FaultCounters, type FaultKind } from './fault-counters.js';
export { checkErrorPattern, createFaultPattern, ERROR_PATTERN_TYPES, type ErrorPattern, type FaultPattern } from './fault-pattern.js';
export { LatencyRecorder, type LatencyStats } from './latency-recorder.js';
export { chance, pickOne, seededRandom, type Random } from './random.js';
export { TokenBucket, type BucketRecord, type Taken } from './token-bucket.js';
export { checkChaosPatch, checkProfile, checkRouteChaos } from './settings-check.js';
export { ChaosLimitError, ChaosSettingsError, ChaosState, Machinery, type ChaosStateOptions, type ProfileLimits, type RateLimitScope, type RouteChaos } from './chaos-state.js';
export { BUILTIN_PROFILES, type ChaosProfile, type ProfileLatency } from './profiles.js';
export { latencySpec } from './route-latency.js';
export {
  DEFAULT_CHAOS,
  DEFAULT_RATE_LIMIT_BURST,
  DEFAULT_RATE_LIMIT_RPS,
  mergeChaos,
  type ChaosPatch,
  type ChaosSettings,
  type FaultInjectionSettings,
  type RateLimitSettings,
  type TrafficShapingSettings,
} from './settings.js';

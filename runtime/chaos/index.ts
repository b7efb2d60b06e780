export { checkLatencySpec, LATENCY_DISTRIBUTIONS, sampleLatency, type LatencyDistribution, type LatencySpec } from './distributions.js';
export { BucketTable } from './bucket-table.js';
export { chance, pickOne, seededRandom, type Random } from './random.js';
export { TokenBucket } from './token-bucket.js';
export { checkErrorPattern, createFaultPattern, ERROR_PATTERN_TYPES, type ErrorPattern, type FaultPattern } from './fault-pattern.js';
export { Bulkhead } from './bulkhead.js';
export { CircuitBreaker, type BreakerSnapshot, type BreakerState } from './circuit-breaker.js';

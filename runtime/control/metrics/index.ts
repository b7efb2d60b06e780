export type { CoverageCounts, CoverageReport, MethodCoverage, RouteCoverage } from './coverage.js';
export type { PrometheusMetrics, RateLimitScope, WebSocketPathCounts } from './prometheus.js';
export { createPrometheusMetrics } from './create-prometheus.js';
export { ResourceSampler, type ResourceSample, type ResourceSamplerOptions, type ResourceUsage } from './resource-sampler.js';
export type { RouteRef } from './route-ref.js';
export { turnClock } from './turn-clock.js';
export { TrafficStats, mergedInterval, mergedTraffic, type TrafficSnapshot, type IntervalMark, type TrafficInterval, type LatencyPercentiles, type RouteSummary, type TrafficStatsOptions } from './traffic-stats.js';
export { OperationTally, type OperationCounts } from './operation-tally.js';

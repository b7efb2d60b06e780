import type { RouteLatencyMeta } from '../../../common/contract/index.js';
import type { LatencySpec } from './distributions.js';

/** The route's latency as a LatencySpec (mean_ms 0 when absent). */
export function latencySpec(latency: RouteLatencyMeta): LatencySpec {
  const jitter_percent = latency.jitter_percent;
  switch (latency.distribution ?? 'fixed') {
    case 'lognormal':
      return { distribution: 'lognormal', p50_ms: latency.p50_ms ?? 0, p99_ms: latency.p99_ms ?? 0, jitter_percent };
    case 'normal':
      return { distribution: 'normal', mean_ms: latency.mean_ms ?? 0, std_dev_ms: latency.std_dev_ms ?? 0, jitter_percent };
    case 'uniform':
      return { distribution: 'uniform', mean_ms: latency.mean_ms ?? 0, std_dev_ms: latency.std_dev_ms, jitter_percent };
    case 'exponential':
      return { distribution: 'exponential', mean_ms: latency.mean_ms ?? 0, jitter_percent };
    default:
      return { distribution: 'fixed', mean_ms: latency.mean_ms ?? 0, jitter_percent };
  }
}


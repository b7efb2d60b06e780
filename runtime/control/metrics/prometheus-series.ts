import { StatusCounts } from './status-counts.js';

/** Upper bounds of `mock_http_request_duration_seconds`: half a millisecond (a mock's usual answer) to 5 s. */
export const DURATION_BUCKETS_SECONDS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const BOUNDS_MS = Float64Array.from(DURATION_BUCKETS_SECONDS, (s) => s * 1000);

/**
 * What one route adds to the Prometheus exposition beyond the dashboard counters: the duration
 * histogram (per bucket, not cumulative; the last slot is +Inf) and the answer counts the admin
 * API cleared, so that clearing the dashboard never makes a Prometheus counter go backwards.
 */
export class PrometheusSeries {
  readonly buckets = new Float64Array(BOUNDS_MS.length + 1);
  sumMs = 0;
  /** Counts per status and source (RouteTally.answers) from before the last `TrafficStats.reset()`. */
  readonly carried = new StatusCounts();

  observe(ms: number): void {
    let i = 0;
    while (i < BOUNDS_MS.length && ms > BOUNDS_MS[i]) i++;
    this.buckets[i]++;
    this.sumMs += ms;
  }

  get count(): number {
    let total = 0;
    for (const n of this.buckets) total += n;
    return total;
  }
}

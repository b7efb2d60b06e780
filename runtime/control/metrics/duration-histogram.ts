import { DURATION_BUCKETS_SECONDS } from './prometheus-series.js';
import type { RouteTally } from './route-tally.js';

interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * `mock_http_request_duration_seconds`, rendered at scrape time from the bucket counts the routes
 * keep (prom-client's own Histogram hashes the label set and allocates on every observe, and has
 * no way to load counts kept elsewhere). It implements the part of prom-client's metric contract a
 * Registry uses: name, help, type, aggregator, `get()` with the same value shape as Histogram's
 * (see `Registry.getMetricsAsJSON`), and `reset()`.
 */
export class DurationHistogram {
  readonly name = 'mock_http_request_duration_seconds';
  readonly help = 'Time from request to response, per route';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly sources: Array<() => Iterable<RouteTally>>;

  constructor(sources: Array<() => Iterable<RouteTally>>) {
    this.sources = sources;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values: Sample[] = [];
    for (const source of this.sources) {
      for (const tally of source()) {
        const series = tally.prometheus;
        if (series === null || series.count === 0) continue;
        const labels = { method: tally.method, route: tally.path };
        let cumulative = 0;
        DURATION_BUCKETS_SECONDS.forEach((le, i) => {
          cumulative += series.buckets[i];
          values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le }, value: cumulative });
        });
        const count = cumulative + series.buckets[DURATION_BUCKETS_SECONDS.length];
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
        values.push({ metricName: `${this.name}_sum`, labels, value: series.sumMs / 1000 });
        values.push({ metricName: `${this.name}_count`, labels, value: count });
      }
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** The counts belong to the routes and only ever grow, like a counter's. */
  reset(): void {}
}

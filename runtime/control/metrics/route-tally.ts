import type { PrometheusSeries } from './prometheus-series.js';
import { StatusCounts } from './status-counts.js';

/** The label and path that stand for requests no route matched. */
export const UNMATCHED = '<unmatched>';

/** The counters of one route (or of the unmatched requests of one method) since the last reset. */
export class RouteTally {
  readonly key: string;
  readonly method: string;
  readonly path: string;
  requests = 0;
  errors = 0;
  totalMs = 0;
  /** Epoch milliseconds of the last request; 0 before the first. */
  lastTime = 0;
  readonly statuses = new StatusCounts();
  /** Set while a Prometheus exposition reads this route. */
  prometheus: PrometheusSeries | null = null;

  constructor(key: string, method: string, path: string) {
    this.key = key;
    this.method = method;
    this.path = path;
  }

  get matched(): boolean {
    return this.path !== UNMATCHED;
  }

  hit(status: number, ms: number, now: number): void {
    this.requests++;
    if (status >= 400) this.errors++;
    this.totalMs += ms;
    this.lastTime = now;
    this.statuses.add(status);
    if (this.prometheus !== null) this.prometheus.observe(ms);
  }

  /** Zeroes the counters in place; Prometheus keeps the status counts as carried totals. */
  reset(): void {
    if (this.prometheus !== null) this.prometheus.carried.addAll(this.statuses);
    this.statuses.clear();
    this.requests = 0;
    this.errors = 0;
    this.totalMs = 0;
    this.lastTime = 0;
  }
}

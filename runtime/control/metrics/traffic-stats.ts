import type { AnswerSource } from '../../../common/answer-source.js';
import { coverageCounts, coverageReport, isoOrNull, roundTo2, summedTallies, type CoverageCounts, type CoverageReport } from './coverage.js';
import { LatencyHistogram } from './latency-histogram.js';
import type { PrometheusMetrics } from './prometheus.js';
import { PrometheusSeries } from './prometheus-series.js';
import type { RouteRef } from './route-ref.js';
import { RouteTally, UNMATCHED } from './route-tally.js';
import { turnClock } from './turn-clock.js';

export interface TrafficStatsOptions {
  /** The documented routes, the denominator of coverage. */
  routes: readonly RouteRef[];
  /** Epoch milliseconds; the wall clock read once per event-loop turn unless a test fixes it. */
  now?: () => number;
  /** Feeds this exposition from `record` too (same as calling `attach`). */
  prometheus?: PrometheusMetrics;
}

/** The dashboard's row for one route. */
export interface RouteSummary {
  request_count: number;
  error_count: number;
  /** ISO 8601, or null before the first request. */
  last_request: string | null;
  /** Mean response time in milliseconds, two decimals; 0 before the first request. */
  latency_ms: number;
  /** Status code to count, `{ "200": 3 }`: what this route answered. */
  response_codes: Record<string, number>;
}

/** Percentiles of the response time over every request, in milliseconds. */
export interface LatencyPercentiles {
  p50: number;
  p95: number;
  p99: number;
}

/** What happened between two reads of `interval` (the dashboards' live charts). */
export interface TrafficInterval {
  requests: number;
  errors: number;
  /** Over this interval's requests; null when it had none. */
  percentiles: LatencyPercentiles | null;
}

/** Where the previous `interval` read left off. */
export interface IntervalMark {
  requests: number;
  errors: number;
  latency: Float64Array | undefined;
}

/** Response times beyond an hour are recorded as an hour; nothing real takes that long. */
const MAX_MS = 3_600_000;
/** Unmatched requests get one bucket per standard method; any other method token shares `OTHER`. */
const STANDARD_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT']);
/** Bounds the method spellings remembered for the unmatched lookup, whatever a fuzzer sends. */
const MAX_METHOD_SPELLINGS = 64;
/** Counts requests of forgotten routes still in flight when their mock went; never read. */
const FORGOTTEN = new RouteTally('', '', UNMATCHED);

/**
 * Protocol-free request statistics: per-route counts for the admin API and coverage, one latency
 * histogram for the percentiles, and the per-route series a Prometheus exposition reads.
 *
 * `record` runs after every response. In the steady state it allocates nothing: the route's tally
 * is found by the identity of its RouteRef, counters are numbers and typed arrays updated in place,
 * the wall clock is read once per event-loop turn, and timestamps stay epoch numbers until someone
 * asks for them.
 */
/** What TrafficStats.snapshot() gives: plain data, so that it crosses processes. */
export interface TrafficSnapshot {
  total: number;
  endpoints: Record<string, { requests: number; errors: number }>;
  latency: Array<[number, number]>;
}

/** Requests, errors and percentiles since `mark`, from counts now; see TrafficStats.interval. */
function intervalSince(total: number, errors: number, latency: LatencyHistogram, mark: IntervalMark | undefined): { interval: TrafficInterval; mark: IntervalMark } {
  const since = latency.sinceMark(mark?.latency, [50, 95, 99]);
  // a reset (clear stats) since the mark: count from zero
  const requests = total >= (mark?.requests ?? 0) ? total - (mark?.requests ?? 0) : total;
  const errorDelta = errors >= (mark?.errors ?? 0) ? errors - (mark?.errors ?? 0) : errors;
  const [p50, p95, p99] = since.values.map((us) => us / 1000);
  return {
    interval: { requests, errors: errorDelta, percentiles: since.count === 0 ? null : { p50, p95, p99 } },
    mark: { requests: total, errors, latency: since.mark },
  };
}

/** TrafficStats.interval over several workers' snapshots together (the dashboards' per-second figures with mock serve --workers). */
export function mergedInterval(snapshots: readonly TrafficSnapshot[], mark: IntervalMark | undefined): { interval: TrafficInterval; mark: IntervalMark; total: number } {
  const latency = new LatencyHistogram(MAX_MS * 1000);
  let total = 0;
  let errors = 0;
  for (const snapshot of snapshots) {
    total += snapshot.total;
    latency.add(snapshot.latency);
    for (const endpoint of Object.values(snapshot.endpoints)) errors += endpoint.errors;
  }
  return { ...intervalSince(total, errors, latency, mark), total };
}

/** The requests, error rates and percentiles of several workers' snapshots, as GET /__mock/metrics shows one process's. */
export function mergedTraffic(snapshots: readonly TrafficSnapshot[]): {
  total_requests: number;
  requests_by_endpoint: Record<string, number>;
  error_rate_by_endpoint: Record<string, number>;
  response_time_percentiles: LatencyPercentiles;
} {
  const latency = new LatencyHistogram(MAX_MS * 1000);
  const endpoints = new Map<string, { requests: number; errors: number }>();
  let total = 0;
  for (const snapshot of snapshots) {
    total += snapshot.total;
    latency.add(snapshot.latency);
    for (const [key, { requests, errors }] of Object.entries(snapshot.endpoints)) {
      const sum = endpoints.get(key) ?? { requests: 0, errors: 0 };
      sum.requests += requests;
      sum.errors += errors;
      endpoints.set(key, sum);
    }
  }
  const ms = (percentile: number): number => latency.valueAtPercentile(percentile) / 1000;
  return {
    total_requests: total,
    requests_by_endpoint: Object.fromEntries([...endpoints].map(([key, sum]) => [key, sum.requests])),
    error_rate_by_endpoint: Object.fromEntries([...endpoints].map(([key, sum]) => [key, sum.errors / sum.requests])),
    response_time_percentiles: latency.totalCount === 0 ? { p50: 0, p95: 0, p99: 0 } : { p50: ms(50), p95: ms(95), p99: ms(99) },
  };
}

export class TrafficStats {
  private routes: readonly RouteRef[];
  /** Keys of `routes`: never forgotten. */
  private documented: ReadonlySet<string>;
  private readonly now: () => number;
  /** The request path's lookup. Weak, so RouteRefs of deleted runtime mocks can go. */
  private byRef = new WeakMap<RouteRef, RouteTally>();
  /** One tally per `METHOD path`, shared by every RouteRef with that key (a restart makes new ones). */
  private readonly byKey = new Map<string, RouteTally>();
  /**
   * Routes that share a key (an operation and a mock.yaml route, a runtime mock and the route it
   * shadows) count apart: while one route (RouteRef.id) alone has counted under a key, the key's
   * tally is that route's (`soleId`) and a request costs one tally; once another counts there, the
   * key is split: each route gets a tally of its own (`byId`) that counts into the key's.
   */
  private readonly byId = new Map<string, RouteTally>();
  private readonly soleId = new Map<string, string>();
  /** Unmatched tallies by the method string as received. */
  private readonly unmatchedByMethod = new Map<string, RouteTally>();
  /** Every response time in microseconds, three significant digits, up to an hour. */
  private readonly latency = new LatencyHistogram(MAX_MS * 1000);
  private total = 0;
  private exporting = false;

  constructor(options: TrafficStatsOptions) {
    this.routes = options.routes;
    this.documented = new Set(options.routes.map((r) => r.key));
    this.now = options.now ?? turnClock;
    if (options.prometheus !== undefined) this.attach(options.prometheus);
  }

  /** Counts one answered request; `route` is null when no route matched (404/405). */
  record(route: RouteRef | null, method: string, status: number, durationMs: number, source: AnswerSource): void {
    let tally = route === null ? (this.unmatchedByMethod.get(method) ?? this.unmatchedTally(method)) : (this.byRef.get(route) ?? this.adopt(route));
    // the key was split since this route found its tally there (a route without an id counts in the key alone)
    if (tally.split && route?.id !== undefined) tally = this.adopt(route);
    // `> 0` also turns NaN into 0.
    const ms = durationMs > 0 ? (durationMs < MAX_MS ? durationMs : MAX_MS) : 0;
    tally.hit(status, ms, this.now(), source);
    this.total++;
    this.latency.record(Math.round(ms * 1000));
  }

  get totalRequests(): number {
    return this.total;
  }

  /** Replaces the documented routes (the server restarted with a new build); counts are kept by route key. */
  setRoutes(routes: readonly RouteRef[]): void {
    this.routes = routes;
    this.documented = new Set(routes.map((r) => r.key));
    // Old RouteRefs are gone with the old build; new ones find their tally by key on first use.
    this.byRef = new WeakMap();
    for (const [key, tally] of this.byKey) {
      if (tally.matched && tally.requests === 0 && (tally.prometheus === null || tally.prometheus.count === 0)) this.byKey.delete(key);
    }
    for (const [id, tally] of this.byId) if (tally.requests === 0) this.byId.delete(id);
    for (const key of this.soleId.keys()) if (!this.byKey.has(key)) this.soleId.delete(key);
  }

  /**
   * Drops the counts and Prometheus series of a route that is gone (a deleted runtime mock whose
   * key no other mock has), unless a route of the build has the same key: create/delete cycles
   * must not grow the statistics. A request to it still in flight is counted in the totals only.
   */
  forget(route: RouteRef): void {
    if (route.id !== undefined) this.byId.delete(route.id);
    if (this.documented.has(route.key)) {
      // the key keeps what the route counted; the routes that count there next start from 0
      const endpoint = this.byKey.get(route.key);
      if (endpoint !== undefined && this.soleId.get(route.key) === route.id) {
        this.soleId.delete(route.key);
        endpoint.split = true;
      }
      this.byRef.set(route, FORGOTTEN);
      return;
    }
    this.byKey.delete(route.key);
    this.soleId.delete(route.key);
    this.byRef.set(route, FORGOTTEN);
  }

  /** Requests per `METHOD path`, for routes that got any. */
  requestsByEndpoint(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const tally of this.byKey.values()) if (tally.requests > 0) out[tally.key] = tally.requests;
    return out;
  }

  /** Share of answers with status ≥ 400 per `METHOD path`, 0..1, for routes that got any request. */
  errorRateByEndpoint(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const tally of this.byKey.values()) if (tally.requests > 0) out[tally.key] = tally.errors / tally.requests;
    return out;
  }

  /** The counts another worker's stats add up with (mock serve --workers): requests and errors per `METHOD path`, the latency histogram's slots. */
  snapshot(): TrafficSnapshot {
    const endpoints: TrafficSnapshot['endpoints'] = {};
    for (const tally of this.byKey.values()) if (tally.requests > 0) endpoints[tally.key] = { requests: tally.requests, errors: tally.errors };
    return { total: this.total, endpoints, latency: this.latency.sparse() };
  }

  /** Within the histogram's precision (0.1 %); all 0 before the first request. */
  percentiles(): LatencyPercentiles {
    if (this.latency.totalCount === 0) return { p50: 0, p95: 0, p99: 0 };
    const ms = (percentile: number): number => this.latency.valueAtPercentile(percentile) / 1000;
    return { p50: ms(50), p95: ms(95), p99: ms(99) };
  }

  /**
   * Requests, errors and percentiles since `mark` (none: since the start), and the mark to pass
   * next time. For a once-a-second reader: it walks the tallies and the histogram.
   */
  interval(mark: IntervalMark | undefined): { interval: TrafficInterval; mark: IntervalMark } {
    let errors = 0;
    for (const tally of this.byKey.values()) errors += tally.errors;
    return intervalSince(this.total, errors, this.latency, mark);
  }

  /** The numbers of `route` itself when it has an id (not those of other routes of its key), else of its key. */
  routeSummary(route: RouteRef): RouteSummary {
    const endpoint = this.byKey.get(route.key);
    const tally = route.id === undefined ? endpoint : endpoint?.split === true ? this.byId.get(route.id) : this.soleId.get(route.key) === route.id ? endpoint : undefined;
    if (tally === undefined || tally.requests === 0) return { request_count: 0, error_count: 0, last_request: null, latency_ms: 0, response_codes: {} };
    return {
      request_count: tally.requests,
      error_count: tally.errors,
      last_request: isoOrNull(tally.lastTime),
      latency_ms: roundTo2(tally.totalMs / tally.requests),
      response_codes: tally.statuses.toJSON(),
    };
  }

  coverage(): CoverageReport {
    return coverageReport(this.routes, this.byKey);
  }

  /** Each route's counts as plain data, for another worker's coverage of all of them (mock serve --workers). */
  coverageCounts(): CoverageCounts[] {
    return [...this.byKey.values()].map(coverageCounts);
  }

  /** Coverage of the documented routes by several workers' counts together. */
  coverageOf(workers: ReadonlyArray<readonly CoverageCounts[]>): CoverageReport {
    return coverageReport(this.routes, summedTallies(workers));
  }

  /** Clears every count (the admin API's "clear stats"); the documented routes stay, Prometheus counters keep counting. */
  reset(): void {
    for (const tally of this.byKey.values()) tally.reset();
    for (const tally of this.byId.values()) tally.reset();
    this.latency.reset();
    this.total = 0;
  }

  /** Makes `record` also feed the duration histogram that `prometheus` exposes, and lets it read the counters. */
  attach(prometheus: PrometheusMetrics): void {
    if (!this.exporting) {
      this.exporting = true;
      for (const tally of this.byKey.values()) tally.prometheus = new PrometheusSeries();
    }
    prometheus.track(() => this.byKey.values());
  }

  private adopt(route: RouteRef): RouteTally {
    const endpoint = this.tallyFor(route.key, route.method, route.path);
    let tally = endpoint;
    if (route.id !== undefined && !endpoint.split) {
      const sole = this.soleId.get(route.key);
      if (sole === undefined) this.soleId.set(route.key, route.id);
      else if (sole !== route.id) this.split(endpoint, sole);
    }
    if (route.id !== undefined && endpoint.split) {
      tally = this.byId.get(route.id) ?? endpoint;
      // a key forgotten or emptied by a restart made a new tally of the key: count into that one
      if (tally.parent !== endpoint) {
        tally = new RouteTally(route.key, route.method, route.path, endpoint);
        this.byId.set(route.id, tally);
      }
    }
    this.byRef.set(route, tally);
    return tally;
  }

  /** A second route counts under the key: what the key counted so far was its sole route's, which gets a tally of its own from now on. */
  private split(endpoint: RouteTally, sole: string): void {
    const own = new RouteTally(endpoint.key, endpoint.method, endpoint.path, endpoint);
    own.absorb(endpoint);
    this.byId.set(sole, own);
    this.soleId.delete(endpoint.key);
    endpoint.split = true;
  }

  private unmatchedTally(method: string): RouteTally {
    const upper = method.toUpperCase();
    const name = STANDARD_METHODS.has(upper) ? upper : 'OTHER';
    const tally = this.tallyFor(`${name} ${UNMATCHED}`, name, UNMATCHED);
    if (this.unmatchedByMethod.size < MAX_METHOD_SPELLINGS) this.unmatchedByMethod.set(method, tally);
    return tally;
  }

  private tallyFor(key: string, method: string, path: string): RouteTally {
    let tally = this.byKey.get(key);
    if (tally === undefined) {
      tally = new RouteTally(key, method, path);
      if (this.exporting) tally.prometheus = new PrometheusSeries();
      this.byKey.set(key, tally);
    }
    return tally;
  }
}

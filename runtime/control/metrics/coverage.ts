import type { RouteRef } from './route-ref.js';

/** The spec's MethodCoverage. */
export interface MethodCoverage {
  request_count: number;
  /** Status code to count, `{ "200": 3 }`. */
  response_codes: Record<string, number>;
  /** ISO 8601, or null before the first request. */
  last_request: string | null;
}

/** The spec's RouteCoverage: one path pattern and its methods. */
export interface RouteCoverage {
  /** The methods of `methods`, joined with ", ". */
  method: string;
  path: string;
  /** Every documented method of the path (zero counts when never requested), then any runtime route that got traffic. */
  methods: Record<string, MethodCoverage>;
  total_requests: number;
  /** How many of `methods` were requested at least once. */
  covered_methods: number;
}

/** The spec's CoverageReport. */
export interface CoverageReport {
  /** Keyed by path pattern. */
  routes: Record<string, RouteCoverage>;
  /** Documented paths. */
  total_routes: number;
  /** Documented paths with at least one request on a documented method. */
  covered_routes: number;
  /** covered_routes / total_routes × 100, two decimals; 0 with no documented routes. */
  coverage_percentage: number;
}

export function roundTo2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function isoOrNull(epochMs: number): string | null {
  return epochMs === 0 ? null : new Date(epochMs).toISOString();
}

/** What coverage reads of a route's counts: a RouteTally, or the sum of several workers' (CoverageCounts). */
export interface CoverageTally {
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly matched: boolean;
  readonly requests: number;
  readonly lastTime: number;
  readonly statuses: { toJSON(): Record<string, number> };
}

/** A route's counts as plain data, to cross processes (mock serve --workers). */
export interface CoverageCounts {
  key: string;
  method: string;
  path: string;
  matched: boolean;
  requests: number;
  lastTime: number;
  statuses: Record<string, number>;
}

export function coverageCounts(tally: CoverageTally): CoverageCounts {
  const { key, method, path, matched, requests, lastTime } = tally;
  return { key, method, path, matched, requests, lastTime, statuses: tally.statuses.toJSON() };
}

/** Several workers' counts of each route summed, as coverageReport reads them. */
export function summedTallies(workers: ReadonlyArray<readonly CoverageCounts[]>): Map<string, CoverageTally> {
  const sums = new Map<string, CoverageCounts>();
  for (const counts of workers) {
    for (const one of counts) {
      const sum = sums.get(one.key);
      if (sum === undefined) {
        sums.set(one.key, { ...one, statuses: { ...one.statuses } });
        continue;
      }
      sum.requests += one.requests;
      sum.lastTime = Math.max(sum.lastTime, one.lastTime);
      for (const [status, n] of Object.entries(one.statuses)) sum.statuses[status] = (sum.statuses[status] ?? 0) + n;
    }
  }
  return new Map([...sums].map(([key, sum]) => [key, { ...sum, statuses: { toJSON: () => sum.statuses } }]));
}

function methodCoverage(tally: CoverageTally | undefined): MethodCoverage {
  if (tally === undefined) return { request_count: 0, response_codes: {}, last_request: null };
  return { request_count: tally.requests, response_codes: tally.statuses.toJSON(), last_request: isoOrNull(tally.lastTime) };
}

/**
 * Coverage of the documented routes by the traffic counted in `tallies` (keyed by route key).
 * Runtime routes that got traffic are listed for visibility but leave the totals alone: coverage
 * measures how much of the API description was exercised. Unmatched requests are not routes.
 */
export function coverageReport(documented: readonly RouteRef[], tallies: ReadonlyMap<string, CoverageTally>): CoverageReport {
  const routes: Record<string, RouteCoverage> = {};
  const entry = (path: string): RouteCoverage =>
    (routes[path] ??= { method: '', path, methods: {}, total_requests: 0, covered_methods: 0 });

  const documentedKeys = new Set<string>();
  const coveredPaths = new Set<string>();
  for (const route of documented) {
    if (documentedKeys.has(route.key)) continue;
    documentedKeys.add(route.key);
    const tally = tallies.get(route.key);
    entry(route.path).methods[route.method] = methodCoverage(tally);
    if (tally !== undefined && tally.requests > 0) coveredPaths.add(route.path);
  }
  const totalRoutes = Object.keys(routes).length;

  for (const tally of tallies.values()) {
    if (tally.matched && tally.requests > 0 && !documentedKeys.has(tally.key)) entry(tally.path).methods[tally.method] = methodCoverage(tally);
  }

  for (const route of Object.values(routes)) {
    const methods = Object.values(route.methods);
    route.method = Object.keys(route.methods).join(', ');
    route.total_requests = methods.reduce((sum, m) => sum + m.request_count, 0);
    route.covered_methods = methods.filter((m) => m.request_count > 0).length;
  }

  return {
    routes,
    total_routes: totalRoutes,
    covered_routes: coveredPaths.size,
    coverage_percentage: totalRoutes === 0 ? 0 : roundTo2((coveredPaths.size / totalRoutes) * 100),
  };
}

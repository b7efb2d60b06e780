import { redactUrlCredentials } from '../../../common/redacted.js';
import type { EngineRoute } from '../../terminal/openapi/index.js';
import type { ProxyConfig } from '../../chain/settings/index.js';
import type { AdminContext } from './context.js';
import { serversOf } from './server-control.js';
import { matchesPath, parsePathPattern, splitRequestPath } from '../../match/index.js';
import type { RouteRow } from '../../../common/route-row.js';

/** RouteInfo of the spec. */
export interface RouteInfo {
  method: string;
  path: string;
  operation_id: string | null;
  summary: string | null;
  description: string | null;
  parameters: string[];
  /** Where the route comes from: the description, a custom route of mock.yaml, or a runtime mock. */
  source: 'description' | 'custom_route' | 'mock';
}

/** Priorities of the dashboard rows: higher is tried first (see docs/admin.md). */
export const PRIORITY = { mock: 1000, custom_route: 100, description: 0 } as const;

interface Listed {
  ref: { key: string; method: string; path: string };
  info: RouteInfo;
  priority: number;
}

/** Every route the HTTP server answers: runtime mocks first, then operations and custom routes in build order. */
export function listRoutes(ctx: AdminContext): Listed[] {
  const out: Listed[] = [];
  for (const mock of ctx.live.mocks.list()) {
    out.push({
      ref: mock.route,
      info: { method: mock.route.method, path: mock.route.path, operation_id: null, summary: mock.name, description: null, parameters: pathParams(mock.route.path), source: 'mock' },
      priority: PRIORITY.mock + (mock.priority ?? 0),
    });
  }
  const engine = serversOf(ctx.registry).engine();
  if (engine === undefined) return out;
  const operations = engine.build.operations;
  engine.routes.forEach((route: EngineRoute, i: number) => {
    const op = i < operations.length ? operations[i] : undefined;
    if (op === undefined) {
      out.push({ ref: route, info: { method: route.method, path: route.path, operation_id: null, summary: null, description: null, parameters: pathParams(route.path), source: 'custom_route' }, priority: PRIORITY.custom_route });
      return;
    }
    out.push({
      ref: route,
      info: { method: op.method, path: op.path, operation_id: op.operationId, summary: op.summary, description: op.description, parameters: op.params.map((p) => p.declaredName), source: 'description' },
      priority: PRIORITY.description,
    });
  });
  return out;
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

export type { RouteRow };

/** The dashboard's route rows. */
export function routeRows(ctx: AdminContext): RouteRow[] {
  const recorded = (ctx.fixtures?.list() ?? []).map((f) => ({ method: f.fixture.fingerprint.method, segments: splitRequestPath(f.fixture.fingerprint.path) }));
  const hasFixtures = (method: string, path: string): boolean => {
    if (recorded.length === 0) return false;
    const pattern = parsePathPattern(path);
    return recorded.some((f) => (f.method === method || method === '*') && matchesPath(pattern, f.segments));
  };
  const servers = serversOf(ctx.registry);
  return listRoutes(ctx).map(({ ref, info, priority }) => {
    const summary = ctx.stats.routeSummary(ref);
    return {
      method: info.method,
      path: info.path,
      priority,
      has_fixtures: hasFixtures(info.method, info.path),
      latency_ms: summary.latency_ms,
      request_count: summary.request_count,
      last_request: summary.last_request,
      error_count: summary.error_count,
      response_codes: summary.response_codes,
      // a runtime mock answers inside the chain of the route it shadows, or of "no route matched"
      stages: servers.stagesOf(ref.key),
    };
  });
}

/** The proxy settings as the admin API shows and logs them: the upstream's password as [redacted] (the proxy uses the real one). */
export function proxyView(proxy: ProxyConfig): ProxyConfig {
  return { ...proxy, upstream_url: proxy.upstream_url === null ? null : redactUrlCredentials(proxy.upstream_url) };
}

import { readFileSync } from 'node:fs';
import type { ServerKind } from '../../registry/index.js';
import type { AdminContext, ClusterView } from '../context.js';
import { AdminError, ok, plain } from '../envelope.js';
import type { AdminRoute } from '../router.js';
import { proxyView, routeRows } from '../views.js';
import { serversOf } from '../server-control.js';
import { clusterLogs, clusterRestartStatus, clusterRouteRows, clusterTraffic, restartCluster } from '../cluster-questions.js';

const RECENT_LOGS = 20;

/** Threads of this process (Linux /proc); 1 where that is not available. */
function threadCount(): number {
  try {
    const match = /^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) : 1;
  } catch {
    return 1;
  }
}

export function health(ctx: AdminContext): Record<string, unknown> {
  const issues = ctx.registry
    .list()
    .filter((server) => !server.running)
    .map((server) => `${server.server_type} server on ${server.address} is not running`);
  const restart = serversOf(ctx.registry).restartStatus();
  if (restart.in_progress) issues.push('a server restart is in progress');
  else if (restart.success === false) issues.push(`the last restart failed: ${restart.error ?? 'see the log'}`);
  return {
    status: issues.length === 0 ? 'healthy' : 'degraded',
    services: ctx.registry.services(),
    last_check: new Date().toISOString(),
    issues,
  };
}

/** health, with which worker answers and every worker (mock serve --workers). */
async function workersHealth(ctx: AdminContext, cluster: ClusterView): Promise<ReturnType<typeof plain>> {
  return plain({ ...health(ctx), worker: cluster.worker, workers: await cluster.workers() });
}

function uptimeSeconds(ctx: AdminContext): number {
  return Math.round((Date.now() - ctx.startedAt) / 1000);
}

/** With workers (mock serve --workers), the routes' counts and the recent requests are every worker's. */
async function dashboard(ctx: AdminContext): Promise<Record<string, unknown>> {
  const { cluster } = ctx;
  const rows = cluster === undefined ? routeRows(ctx) : await clusterRouteRows(cluster);
  const resources = ctx.sampler.current();
  const { latency, proxy, chaos } = ctx.live;
  return {
    system: {
      version: ctx.version,
      uptime_seconds: uptimeSeconds(ctx),
      memory_usage_mb: resources.memory_usage_mb,
      cpu_usage_percent: resources.cpu_usage_percent,
      active_threads: threadCount(),
      total_routes: rows.length,
      total_fixtures: ctx.fixtures?.size ?? 0,
    },
    servers: ctx.registry.list(),
    routes: rows,
    recent_logs: cluster === undefined ? ctx.requestLog.recent({ limit: RECENT_LOGS }) : await clusterLogs(cluster, { limit: RECENT_LOGS }),
    latency_profile: { name: latency.enabled ? (chaos.activeProfile ?? 'runtime') : 'none', base_ms: latency.base_ms, jitter_ms: latency.jitter_ms, tag_overrides: latency.tag_overrides },
    fault_config: faultConfig(ctx),
    proxy_config: { ...proxyView(proxy), requests_proxied: ctx.live.requestsProxied },
    time: ctx.live.clock.status(),
  };
}

/**
 * The admin's faults object and observability.chaos.fault_injection together: on when either is,
 * the rate and codes of the one that is on (the admin object when both), every injected fault counted.
 */
function faultConfig(ctx: AdminContext): Record<string, unknown> {
  const { faults, chaos } = ctx.live;
  const injection = chaos.settings.fault_injection;
  const chaosOn = chaos.active('fault_injection');
  const useChaos = chaosOn && !faults.enabled;
  const byType = chaos.counters.snapshot().by_type;
  return {
    enabled: faults.enabled || chaosOn,
    failure_rate: useChaos ? injection.http_error_probability : faults.failure_rate,
    status_codes: useChaos ? injection.http_errors : faults.status_codes,
    // delayed answers are counted by kind too, but they are not failures
    active_failures: ctx.live.faultsInjected + chaos.counters.total - byType.latency,
  };
}

function serverInfo(ctx: AdminContext): Record<string, string | null> {
  const address = (kind: ServerKind): string | null => {
    const server = ctx.registry.find(kind);
    return server?.running === true ? server.address : null;
  };
  return { http_server: address('HTTP'), ws_server: address('WebSocket'), grpc_server: address('gRPC') };
}

export const systemRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'health',
    // a worker of several says which it is and lists them all (mock serve --workers)
    handler: ({ ctx }) => (ctx.cluster === undefined ? plain(health(ctx)) : workersHealth(ctx, ctx.cluster)),
  },
  { method: 'GET', path: 'dashboard', handler: async ({ ctx }) => ok(await dashboard(ctx)) },
  { method: 'GET', path: 'server-info', handler: ({ ctx }) => ok(serverInfo(ctx)) },
  {
    method: 'GET',
    path: 'server-config',
    handler: ({ ctx }) =>
      ok({ version: ctx.version, port: serversOf(ctx.registry).httpPort, has_openapi_spec: serversOf(ctx.registry).specPath !== null, spec_path: serversOf(ctx.registry).specPath }),
  },
  {
    method: 'GET',
    path: 'stats',
    handler: async ({ ctx }) => {
      const mocks = ctx.live.mocks;
      const engine = serversOf(ctx.registry).engine();
      return ok({
        uptime_seconds: uptimeSeconds(ctx),
        // with workers, all of theirs
        total_requests: ctx.cluster === undefined ? ctx.stats.totalRequests : (await clusterTraffic(ctx.cluster)).total_requests,
        active_mocks: mocks.size,
        enabled_mocks: mocks.enabledCount,
        registered_routes: (engine?.routes.length ?? 0) + mocks.size,
      });
    },
  },
  {
    method: 'POST',
    path: 'servers/restart',
    handler: (call) => {
      const body = call.json();
      if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw new AdminError(400, 'restart: body must be a JSON object such as {"reason": "spec changed"}');
      const reason = (body as { reason?: unknown } | undefined)?.reason;
      if (reason !== undefined && reason !== null && typeof reason !== 'string') throw new AdminError(400, 'restart: reason must be a string');
      const given = (reason as string | null | undefined) ?? null;
      const { cluster } = call.ctx;
      if (cluster === undefined) {
        serversOf(call.ctx.registry).restart(given);
        return ok({ message: 'Server restart initiated' });
      }
      // every worker restarts its servers, each as one process does
      return restartCluster(cluster, given).then((workers) => ok({ message: `Server restart initiated on ${workers} worker(s)`, workers }));
    },
  },
  {
    method: 'GET',
    path: 'servers/restart/status',
    handler: async ({ ctx }) => {
      const own = serversOf(ctx.registry).restartStatus();
      return ok(ctx.cluster === undefined ? own : await clusterRestartStatus(ctx.cluster, own));
    },
  },
];

import { ANSWER_SOURCES, isAnswerSource } from '../../../../common/answer-source.js';
import { isGrpcStatusName } from '../../../../common/grpc-status.js';
import type { ControlStream } from '../control-types.js';
import { entryFilter, type LogStream, type RequestLogFilter } from '../../logging/index.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';
import type { AdminContext } from '../context.js';
import { listRoutes } from '../views.js';
import { clearClusterLogs, clusterCoverage, clusterLogs, clusterTraffic } from '../cluster-questions.js';

function logFilter(query: URLSearchParams): RequestLogFilter {
  const filter: RequestLogFilter = {};
  const method = query.get('method');
  if (method !== null && method !== '') {
    if (!/^[A-Za-z]+$/.test(method)) throw new AdminError(400, `logs: method must be an HTTP method such as GET (got "${method}")`);
    filter.method = method;
  }
  const path = query.get('path');
  if (path !== null && path !== '') filter.path = path;
  const status = query.get('status');
  if (status !== null && status !== '') {
    filter.status = statusFilter(status);
  }
  const source = query.get('source');
  if (source !== null && source !== '') {
    if (!isAnswerSource(source)) throw new AdminError(400, `logs: source must be one of ${ANSWER_SOURCES.join(', ')} (got "${source}")`);
    filter.source = source;
  }
  const unmatched = query.get('unmatched');
  if (unmatched !== null && unmatched !== '') {
    if (unmatched !== 'true' && unmatched !== 'false') throw new AdminError(400, `logs: unmatched must be true or false (got "${unmatched}")`);
    filter.unmatched = unmatched === 'true';
  }
  const limit = query.get('limit');
  if (limit !== null && limit !== '') {
    if (!/^\d+$/.test(limit) || Number(limit) < 1) throw new AdminError(400, `logs: limit must be a positive integer (got "${limit}")`);
    filter.limit = Number(limit);
  }
  return filter;
}

/** An HTTP status code, or a gRPC status name (in any case) for gRPC calls. */
function statusFilter(status: string): number | string {
  if (/^[1-5]\d\d$/.test(status)) return Number(status);
  const name = status.toUpperCase();
  if (isGrpcStatusName(name)) return name;
  throw new AdminError(400, `logs: status must be an HTTP status code such as 404 or a gRPC status name such as NOT_FOUND (got "${status}")`);
}

/**
 * `GET /__mock/logs/sse`: one `log` event per request (filters as GET /__mock/logs, limit aside),
 * data = the request log entry as JSON. Past admin.limits.max_log_subscribers clients, 503.
 */
function logStream(stream: LogStream, { req, query }: AdminCall): ControlStream {
  const filter = logFilter(query);
  if (stream.full) {
    throw new AdminError(
      503,
      `the log stream already has ${stream.size} clients, the most admin.limits.max_log_subscribers allows; close one of them or raise admin.limits.max_log_subscribers in mock.yaml`,
    );
  }
  const keep = entryFilter(filter);
  const agent = req.headers['user-agent'];
  const asked = Object.entries(filter).map(([name, value]) => `${name}=${String(value)}`);
  const who = `client ${req.clientIp}${agent === undefined ? '' : ` (${JSON.stringify(agent.slice(0, 100))})`}${asked.length === 0 ? '' : ` with ${asked.join(' ')}`}`;
  return {
    status: 200,
    headers: [
      ['content-type', 'text/event-stream; charset=utf-8'],
      ['cache-control', 'no-cache'],
      ['x-accel-buffering', 'no'],
    ],
    open: (sink) => stream.add(sink, keep, who),
  };
}

export const trafficRoutes: AdminRoute[] = [
  { method: 'GET', path: 'routes', handler: ({ ctx }) => ok(listRoutes(ctx).map((r) => r.info)) },
  { method: 'GET', path: 'coverage', handler: ({ ctx }) => (ctx.cluster === undefined ? ok(ctx.stats.coverage()) : clusterCoverage(ctx.cluster, ctx.stats).then(ok)) },
  {
    method: 'GET',
    path: 'logs',
    // with workers, every worker's log as one (the same order, the same filters)
    handler: ({ ctx, query }) => (ctx.cluster === undefined ? ok(ctx.requestLog.recent(logFilter(query))) : clusterLogs(ctx.cluster, logFilter(query)).then(ok)),
  },
  {
    method: 'POST',
    path: 'logs/clear',
    handler: async ({ ctx }) => {
      let cleared = ctx.requestLog.size;
      if (ctx.cluster === undefined) ctx.requestLog.clear();
      else cleared = await clearClusterLogs(ctx.cluster);
      return ok({ message: `cleared ${cleared} request log entries`, cleared });
    },
  },
  {
    method: 'GET',
    path: 'logs/sse',
    handler: (call) => logStream(call.ctx.logStream, call),
  },
  {
    method: 'GET',
    path: 'metrics',
    handler: async ({ ctx }) => {
      // with workers, every worker's requests as one; memory and CPU are this worker's
      const traffic =
        ctx.cluster === undefined
          ? {
              total_requests: ctx.stats.totalRequests,
              requests_by_endpoint: ctx.stats.requestsByEndpoint(),
              response_time_percentiles: ctx.stats.percentiles(),
              error_rate_by_endpoint: ctx.stats.errorRateByEndpoint(),
            }
          : await clusterTraffic(ctx.cluster);
      return ok({
        ...traffic,
        memory_usage_over_time: ctx.sampler.memoryOverTime(),
        cpu_usage_over_time: ctx.sampler.cpuOverTime(),
        ...websocketPaths(ctx),
        ...graphqlOperations(ctx),
        ...grpcMethods(ctx),
      });
    },
  },
];

/** Counts and latency per gRPC method, when a gRPC server runs. */
function grpcMethods(ctx: AdminContext): { grpc_by_method?: unknown } {
  const details = ctx.registry.details('gRPC');
  return details === undefined ? {} : { grpc_by_method: details.methods };
}

/** Counts and latency per GraphQL operation, when a GraphQL server runs. */
function graphqlOperations(ctx: AdminContext): { graphql_by_operation?: unknown } {
  const details = ctx.registry.details('GraphQL');
  return details === undefined ? {} : { graphql_by_operation: details.operations };
}

/** Sessions and messages per WebSocket path, when a WebSocket server runs. */
function websocketPaths(ctx: AdminContext): { websocket_by_path?: unknown } {
  const details = ctx.registry.details('WebSocket');
  return details === undefined ? {} : { websocket_by_path: details.paths };
}

import { pathMatcher, type RequestLogEntry, type RequestLogFilter } from '../../logging/index.js';
import type { ControlStream } from '../../http/index.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';
import { listRoutes } from '../views.js';

/** SSE comments keep idle streams open through proxies that drop quiet connections. */
const SSE_KEEPALIVE_MS = 15_000;

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
    if (!/^[1-5]\d\d$/.test(status)) throw new AdminError(400, `logs: status must be an HTTP status code such as 404 (got "${status}")`);
    filter.status = Number(status);
  }
  const limit = query.get('limit');
  if (limit !== null && limit !== '') {
    if (!/^\d+$/.test(limit) || Number(limit) < 1) throw new AdminError(400, `logs: limit must be a positive integer (got "${limit}")`);
    filter.limit = Number(limit);
  }
  return filter;
}

/** `GET /__mock/logs/sse`: one `log` event per request (filters as GET /__mock/logs, limit aside), data = the request log entry as JSON. */
function logStream(subscribe: (listener: (entry: RequestLogEntry) => void) => () => void, filter: RequestLogFilter): ControlStream {
  const method = filter.method?.toUpperCase();
  const path = filter.path === undefined ? undefined : pathMatcher(filter.path);
  return {
    status: 200,
    headers: [
      ['content-type', 'text/event-stream; charset=utf-8'],
      ['cache-control', 'no-cache'],
      ['x-accel-buffering', 'no'],
    ],
    open(send) {
      send(`retry: 2000\n: mock request log stream\n\n`);
      const unsubscribe = subscribe((entry) => {
        if (method !== undefined && entry.method !== method) return;
        if (filter.status !== undefined && entry.status_code !== filter.status) return;
        if (path !== undefined && !path(entry.path)) return;
        send(`id: ${entry.id}\nevent: log\ndata: ${JSON.stringify(entry)}\n\n`);
      });
      const keepalive = setInterval(() => send(': keep-alive\n\n'), SSE_KEEPALIVE_MS);
      keepalive.unref();
      return () => {
        clearInterval(keepalive);
        unsubscribe();
      };
    },
  };
}

export const trafficRoutes: AdminRoute[] = [
  { method: 'GET', path: 'routes', handler: ({ ctx }) => ok(listRoutes(ctx).map((r) => r.info)) },
  { method: 'GET', path: 'coverage', handler: ({ ctx }) => ok(ctx.stats.coverage()) },
  { method: 'GET', path: 'logs', handler: ({ ctx, query }) => ok(ctx.requestLog.recent(logFilter(query))) },
  {
    method: 'POST',
    path: 'logs/clear',
    handler: ({ ctx }) => {
      const cleared = ctx.requestLog.size;
      ctx.requestLog.clear();
      return ok({ message: `cleared ${cleared} request log entries`, cleared });
    },
  },
  {
    method: 'GET',
    path: 'logs/sse',
    handler: ({ ctx, query }) => logStream((listener) => ctx.requestLog.subscribe(listener), logFilter(query)),
  },
  {
    method: 'GET',
    path: 'metrics',
    handler: ({ ctx }) =>
      ok({
        total_requests: ctx.stats.totalRequests,
        requests_by_endpoint: ctx.stats.requestsByEndpoint(),
        response_time_percentiles: ctx.stats.percentiles(),
        error_rate_by_endpoint: ctx.stats.errorRateByEndpoint(),
        memory_usage_over_time: ctx.sampler.memoryOverTime(),
        cpu_usage_over_time: ctx.sampler.cpuOverTime(),
      }),
  },
];

import type { RecorderStats } from '../../chain/recorder/index.js';
import type { RequestLogEntryJson, RequestLogFilter } from '../logging/index.js';
import { mergedInterval, mergedTraffic, type CoverageCounts, type IntervalMark, type CoverageReport, type PrometheusMetrics, type TrafficSnapshot } from '../metrics/index.js';
import type { RestartStatus } from '../registry/index.js';
import { serversOf } from './server-control.js';
import { routeRows, type RouteRow } from './views.js';
import type { AdminContext, ClusterQuestion, ClusterView } from './context.js';

/** A log entry as a worker answers it: with its time, finer than the timestamp's millisecond. */
interface TimedEntry {
  time: number;
  entry: RequestLogEntryJson;
}

/** This worker's answer to a question. */
export function answerQuestion(ctx: AdminContext, question: ClusterQuestion, prometheus?: PrometheusMetrics): unknown {
  switch (question.kind) {
    case 'logs':
      return ctx.requestLog.recent(question.filter).map((entry): TimedEntry => ({ time: entry.time, entry: entry.toJSON() }));
    case 'logs/clear': {
      const cleared = ctx.requestLog.size;
      ctx.requestLog.clear();
      return cleared;
    }
    case 'traffic':
      return ctx.stats.snapshot();
    case 'coverage':
      return ctx.stats.coverageCounts();
    case 'restart':
      serversOf(ctx.registry).restart(question.reason);
      return true;
    case 'prometheus':
      return prometheus?.snapshot() ?? null;
    case 'recorder':
      return ctx.recorder?.settled() ?? null;
    case 'routes':
      return routeRows(ctx);
    case 'restart/status':
      return { worker: ctx.cluster?.worker ?? 1, ...serversOf(ctx.registry).restartStatus() };
  }
}

/**
 * The dashboard's per-route rows of every worker as one: counts and status codes summed, the mean
 * latency weighted by each worker's requests, the latest request. Rows are matched by method, path
 * and priority (every worker lists the same routes: they share the runtime mocks).
 */
export async function clusterRouteRows(cluster: ClusterView): Promise<RouteRow[]> {
  const merged = new Map<string, RouteRow>();
  for (const rows of (await cluster.gather({ kind: 'routes' })) as RouteRow[][]) {
    for (const row of rows) {
      const key = `${row.method} ${row.path} ${row.priority}`;
      const sum = merged.get(key);
      if (sum === undefined) {
        merged.set(key, { ...row, response_codes: { ...row.response_codes } });
        continue;
      }
      const requests = sum.request_count + row.request_count;
      sum.latency_ms = requests === 0 ? 0 : Math.round(((sum.latency_ms * sum.request_count + row.latency_ms * row.request_count) / requests) * 100) / 100;
      sum.request_count = requests;
      sum.error_count += row.error_count;
      if (row.last_request !== null && (sum.last_request === null || row.last_request > sum.last_request)) sum.last_request = row.last_request;
      for (const [status, n] of Object.entries(row.response_codes)) sum.response_codes[status] = (sum.response_codes[status] ?? 0) + n;
    }
  }
  return [...merged.values()];
}

/**
 * Every worker's restart status, and one for them all: in progress while any is, failed when any
 * failed (its error named with its worker), otherwise the answering worker's.
 */
export async function clusterRestartStatus(cluster: ClusterView, own: RestartStatus): Promise<RestartStatus & { workers: Array<RestartStatus & { worker: number }> }> {
  const workers = (await cluster.gather({ kind: 'restart/status' })) as Array<RestartStatus & { worker: number }>;
  const running = workers.find((w) => w.in_progress);
  const failed = workers.find((w) => w.success === false);
  const { worker: _, ...chosen } = running ?? failed ?? { worker: cluster.worker, ...own };
  return { ...chosen, error: running === undefined && failed !== undefined ? `worker ${failed.worker}: ${failed.error ?? 'see its log'}` : chosen.error, workers };
}

/** Every worker's request log as one, newest first: a request appears once, in the order of time, whichever worker answered it. */
export async function clusterLogs(cluster: ClusterView, filter: RequestLogFilter): Promise<RequestLogEntryJson[]> {
  const answers = (await cluster.gather({ kind: 'logs', filter })) as TimedEntry[][];
  // workers log with a sub-millisecond clock (two requests in one millisecond on two workers keep
  // their order); each worker's own order breaks what ties are left
  const merged = answers.flatMap((entries) => entries.map(({ time, entry }, i) => ({ time, entry, i }))).sort((a, b) => b.time - a.time || a.i - b.i);
  return merged.slice(0, filter.limit ?? merged.length).map(({ entry }) => entry);
}

/** Clears every worker's request log; answers how many entries there were. */
export async function clearClusterLogs(cluster: ClusterView): Promise<number> {
  return ((await cluster.gather({ kind: 'logs/clear' })) as number[]).reduce((sum, n) => sum + n, 0);
}

/** Every worker's requests, error rates and percentiles as one. */
export async function clusterTraffic(cluster: ClusterView): Promise<ReturnType<typeof mergedTraffic>> {
  return mergedTraffic((await cluster.gather({ kind: 'traffic' })) as TrafficSnapshot[]);
}

/** Coverage of the documented routes by every worker's requests. */
export async function clusterCoverage(cluster: ClusterView, stats: AdminContext['stats']): Promise<CoverageReport> {
  return stats.coverageOf((await cluster.gather({ kind: 'coverage' })) as CoverageCounts[][]);
}

/** Every worker restarts its servers (POST /__mock/servers/restart): each rebuilds what changed, as one process does. */
export async function restartCluster(cluster: ClusterView, reason: string | null): Promise<number> {
  return (await cluster.gather({ kind: 'restart', reason })).length;
}

/** One Prometheus exposition of every worker's metrics (the metrics port, which the first worker serves). */
export async function clusterPrometheus(cluster: ClusterView, prometheus: PrometheusMetrics): Promise<string> {
  return prometheus.renderAll(await cluster.gather({ kind: 'prometheus' }));
}

/**
 * Every worker's recorder figures added up, once each has written what it had queued: every worker
 * records into the same file (SQLite's lock takes their batches in turn), so a listing read after this
 * shows every request answered before it.
 */
export async function clusterRecorder(cluster: ClusterView, own: RecorderStats): Promise<RecorderStats> {
  const all = (await cluster.gather({ kind: 'recorder' })) as Array<RecorderStats | null>;
  return all.reduce<RecorderStats>((sum, one) => (one === null ? sum : { ...sum, recorded: sum.recorded + one.recorded, queued: sum.queued + one.queued, dropped: sum.dropped + one.dropped }), {
    ...own,
    recorded: 0,
    queued: 0,
    dropped: 0,
  });
}

/** The per-second figures of every worker together since `mark` (the live stream's metrics with workers). */
export async function clusterInterval(cluster: ClusterView, mark: IntervalMark | undefined): Promise<ReturnType<typeof mergedInterval>> {
  return mergedInterval((await cluster.gather({ kind: 'traffic' })) as TrafficSnapshot[], mark);
}

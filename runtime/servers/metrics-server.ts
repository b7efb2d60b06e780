import type { ControlHandler } from '../http/index.js';
import type { PrometheusMetrics } from '../metrics/index.js';

/** The metrics port answers `GET /metrics` in Prometheus text format, and nothing else. */
export function metricsHandler(prometheus: PrometheusMetrics): ControlHandler {
  return async (req) => {
    if (req.path !== '/metrics' && req.path !== '/metrics/') {
      return { status: 404, headers: [['content-type', 'text/plain; charset=utf-8']], body: `not found: ${req.path} (metrics are served at /metrics)\n` };
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return { status: 405, headers: [['content-type', 'text/plain; charset=utf-8'], ['allow', 'GET, HEAD']], body: 'GET /metrics\n' };
    }
    return { status: 200, headers: [['content-type', prometheus.contentType]], body: await prometheus.render() };
  };
}

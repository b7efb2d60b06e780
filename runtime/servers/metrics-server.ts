import type { AccessPolicy } from '../control/admin/index.js';
import type { ControlHandler } from '../control/admin/index.js';
import type { PrometheusMetrics } from '../control/metrics/index.js';

const TEXT = 'text/plain; charset=utf-8';

/**
 * The metrics port answers `GET /metrics` in Prometheus text format, and nothing else. The admin's
 * Host guard applies: a page whose name was rebound to this machine (DNS rebinding) reads it as
 * its own origin otherwise; scrapers name the host by IP address, localhost or admin.allowed_hosts.
 * `render`: the exposition (this process's; with workers, all of theirs).
 */
export function metricsHandler(prometheus: PrometheusMetrics, access: AccessPolicy, render: () => Promise<string> = () => prometheus.render()): ControlHandler {
  return async (req) => {
    const host = req.headers.host;
    if (!access.hostAllowed(host)) {
      return { status: 403, headers: [['content-type', TEXT]], body: `Host "${host}" may not reach the metrics endpoint (DNS rebinding guard): use localhost or an IP address, or add the name to admin.allowed_hosts in mock.yaml\n` };
    }
    if (req.path !== '/metrics' && req.path !== '/metrics/') {
      return { status: 404, headers: [['content-type', TEXT]], body: `not found: ${req.path} (metrics are served at /metrics)\n` };
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return { status: 405, headers: [['content-type', TEXT], ['allow', 'GET, HEAD']], body: 'GET /metrics\n' };
    }
    return { status: 200, headers: [['content-type', prometheus.contentType]], body: await render() };
  };
}

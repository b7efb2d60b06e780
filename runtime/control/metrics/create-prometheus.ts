import type { PrometheusMetrics } from './prometheus.js';

/**
 * The Prometheus exposition, loaded only when metrics are on: prom-client and what it requires
 * (about 90 modules) would otherwise sit in every server's memory unused.
 */
export async function createPrometheusMetrics(): Promise<PrometheusMetrics> {
  const { PrometheusMetrics } = await import('./prometheus.js');
  return new PrometheusMetrics();
}

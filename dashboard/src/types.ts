import type { RequestLogEntryJson } from '../../common/request-log.js';

/** Shapes of the admin API's answers the dashboard reads (docs/admin.md, docs/dashboard.md). */

/** A request-log entry, as the server declares it (common/request-log.ts). */
export type LogEntry = RequestLogEntryJson;

export interface StreamMetrics {
  /** ISO 8601 instant of the interval's end. */
  ts: string;
  total_requests: number;
  requests_per_second: number;
  errors_per_second: number;
  error_rate: number;
  response_time_ms: { p50: number | null; p95: number | null; p99: number | null };
  active_connections?: number;
  memory_usage_mb?: number;
  cpu_usage_percent?: number;
  chaos_injected?: Record<string, number>;
}

export interface Mismatch {
  field: 'method' | 'path' | 'header' | 'query' | 'body';
  name?: string;
  expected?: unknown;
  actual?: unknown;
  reason: string;
}

export interface Unmatched {
  entry: LogEntry;
  closest: Array<{ method: string; path: string; source: 'description' | 'custom_route' | 'mock'; mock_id?: string; score: number; mismatches: Mismatch[] }>;
}

export interface MockRecord {
  id: string;
  name?: string;
  method: string;
  path: string;
  status_code?: number;
  enabled?: boolean;
  priority?: number;
  latency_ms?: number;
  response?: { body?: unknown; headers?: Record<string, string> };
  [field: string]: unknown;
}

export interface DashboardData {
  system: Record<string, unknown>;
  servers: Array<Record<string, unknown>>;
  routes: Array<{ method: string; path: string; priority?: number; stages?: string[]; response_codes?: Record<string, number>; [field: string]: unknown }>;
  latency_profile: Record<string, unknown>;
  fault_config: Record<string, unknown>;
  proxy_config: Record<string, unknown>;
}

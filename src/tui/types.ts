import type { RequestLogEntryJson } from '../../common/request-log.js';
import type { RouteRow as ServedRouteRow } from '../../common/route-row.js';

/** The shapes of the admin API the terminal dashboard reads (docs/admin.md, docs/dashboard.md), as far as it reads them. */

/** A request-log entry, as the server declares it. */
export type LogEntry = RequestLogEntryJson;

/** One metrics sample: the stream's `metrics` message, or one computed from polling. */
export interface MetricsSample {
  ts: number;
  total_requests: number;
  requests_per_second: number;
  errors_per_second: number;
  p95_ms: number | null;
  active_connections: number | null;
  memory_usage_mb: number | null;
  cpu_usage_percent: number | null;
  chaos_injected: Record<string, number>;
}

/** A route row; a server of an older version may leave out its answers and stages. */
export type RouteRow = Omit<ServedRouteRow, 'response_codes' | 'stages'> & Partial<Pick<ServedRouteRow, 'response_codes' | 'stages'>>;

export interface Coverage {
  routes: Record<string, { methods: Record<string, { request_count: number; response_codes: Record<string, number> }> }>;
  total_routes: number;
  covered_routes: number;
  coverage_percentage: number;
}

export interface Mismatch {
  field: string;
  name?: string;
  expected?: unknown;
  actual?: unknown;
  reason: string;
}

export interface UnmatchedItem {
  entry: LogEntry;
  closest: { method: string; path: string; source: string; score: number; mock_id?: string; mismatches: Mismatch[] }[];
}

export interface ChaosProfile {
  name: string;
  description: string;
  builtin: boolean;
}

export interface ChaosStatus {
  /** GET chaos/config: which blocks are on, and the profile applied last. */
  active_profile: string | null;
  enabled_blocks: string[];
  /** GET chaos/stats. */
  total_faults: number;
  by_type: Record<string, number>;
}

export interface FixtureItem {
  id: string;
  protocol: string;
  method: string;
  path: string;
  saved_at: string;
  file_size: number;
  file_path: string;
}

export interface FixtureSettings {
  record_enabled: boolean;
  replay_enabled: boolean;
  dir: string;
  total_fixtures: number;
}

/** How the live data arrives. */
export type StreamMode = 'connecting' | 'websocket' | 'polling' | 'offline';

export interface StreamStatus {
  mode: StreamMode;
  /** Why the stream is polling or offline (one line). */
  detail?: string;
}

/** One tab's fetched data: absent until the first answer, with the last error (one line) if the last call failed. */
export interface Loaded<T> {
  data?: T;
  error?: string;
  at?: number;
}

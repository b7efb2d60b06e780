/** One route of the dashboards' table (GET /__mock/dashboard), as the admin API sends it. */
export interface RouteRow {
  method: string;
  path: string;
  priority: number;
  has_fixtures: boolean;
  latency_ms: number;
  request_count: number;
  last_request: string | null;
  error_count: number;
  /** What this route answered, status to count (others of its METHOD path count apart). */
  response_codes: Record<string, number>;
  /** The stages of the request chain that run for the route, in order. */
  stages: string[];
}

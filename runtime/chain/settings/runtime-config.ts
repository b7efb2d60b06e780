/** The spec's "Runtime configuration objects", as GET /__mock/config returns them. */
export interface LatencyConfig {
  enabled: boolean;
  base_ms: number;
  /** Up to this much is added at random, uniformly. */
  jitter_ms: number;
  /** Operation tag to base latency in ms; the largest matching tag wins over base_ms. */
  tag_overrides: Record<string, number>;
  /** The share of answers delayed (chaos profiles); absent: every one. */
  probability?: number;
}

export interface FaultConfig {
  enabled: boolean;
  /** 0.0-1.0: the share of requests answered with an injected error. */
  failure_rate: number;
  /** Picked at random per injected failure. */
  status_codes: number[];
}

export interface ProxyConfig {
  enabled: boolean;
  upstream_url: string | null;
  timeout_seconds: number;
}

export const DEFAULT_LATENCY: LatencyConfig = { enabled: false, base_ms: 0, jitter_ms: 0, tag_overrides: {} };
export const DEFAULT_FAULTS: FaultConfig = { enabled: false, failure_rate: 0, status_codes: [500, 502, 503, 504] };
export const DEFAULT_PROXY: ProxyConfig = { enabled: false, upstream_url: null, timeout_seconds: 30 };

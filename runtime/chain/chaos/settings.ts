import type { RequestMatcherSpec } from '../../match/index.js';

/**
 * The spec's `observability.chaos`, as the runtime holds it and the Chaos API shows it: every
 * field filled in (defaults below), snake_case like mock.yaml.
 */
export interface ChaosSettings {
  /** Master switch: false turns every block off; each block also has its own. */
  enabled: boolean;
  fault_injection: FaultInjectionSettings;
  rate_limit: RateLimitSettings;
  traffic_shaping: TrafficShapingSettings;
  circuit_breaker: CircuitBreakerSettings;
  bulkhead: BulkheadSettings;
}

export type ConnectionErrorKind = 'http_503' | 'tcp_reset' | 'tcp_close';
export type CorruptionSetting = 'none' | 'random_bytes' | 'truncate' | 'bit_flip';

export interface ErrorPatternSettings {
  type: 'burst' | 'random' | 'sequential';
  count?: number;
  interval_ms?: number;
  probability?: number;
  sequence?: number[];
  repeat?: boolean;
}

export interface FaultInjectionSettings {
  enabled: boolean;
  http_errors: number[];
  http_error_probability: number;
  error_pattern?: ErrorPatternSettings;
  connection_errors: boolean;
  connection_error_probability: number;
  connection_error_kind: ConnectionErrorKind;
  timeout_errors: boolean;
  timeout_ms: number;
  timeout_probability: number;
  partial_responses: boolean;
  partial_response_probability: number;
  payload_corruption: boolean;
  payload_corruption_probability: number;
  corruption_type: CorruptionSetting;
  request_matcher?: RequestMatcherSpec;
}

export interface RateLimitSettings {
  enabled: boolean;
  requests_per_second: number;
  burst_size: number;
  per_ip: boolean;
  per_endpoint: boolean;
  /** IETF RateLimit-Policy / RateLimit headers on every answer. */
  headers: boolean;
}

export interface TrafficShapingSettings {
  enabled: boolean;
  /** Bytes per second; 0: unlimited. */
  bandwidth_limit_bps: number;
  packet_loss_percent: number;
  /** 0: unlimited. */
  max_connections: number;
  /** Answers that would take longer (latency, pacing) are cut off here; 0: never. */
  connection_timeout_ms: number;
}

export interface CircuitBreakerSettings {
  enabled: boolean;
  failure_threshold: number;
  success_threshold: number;
  timeout_ms: number;
}

export interface BulkheadSettings {
  enabled: boolean;
  max_concurrent_requests: number;
  max_queue_size: number;
}

/** The spec's DEFAULT_RATE_LIMIT_RPM (1000 a minute) and DEFAULT_RATE_LIMIT_BURST. */
export const DEFAULT_RATE_LIMIT_RPS = 1000 / 60;
export const DEFAULT_RATE_LIMIT_BURST = 2000;

export const DEFAULT_FAULT_INJECTION: FaultInjectionSettings = {
  enabled: false,
  http_errors: [500, 502, 503, 504],
  http_error_probability: 0,
  connection_errors: false,
  connection_error_probability: 0,
  connection_error_kind: 'http_503',
  timeout_errors: false,
  timeout_ms: 30_000,
  timeout_probability: 0,
  partial_responses: false,
  partial_response_probability: 0,
  payload_corruption: false,
  payload_corruption_probability: 0,
  corruption_type: 'none',
};

export const DEFAULT_CHAOS: ChaosSettings = {
  enabled: true,
  fault_injection: DEFAULT_FAULT_INJECTION,
  rate_limit: { enabled: false, requests_per_second: DEFAULT_RATE_LIMIT_RPS, burst_size: DEFAULT_RATE_LIMIT_BURST, per_ip: false, per_endpoint: false, headers: false },
  traffic_shaping: { enabled: false, bandwidth_limit_bps: 0, packet_loss_percent: 0, max_connections: 0, connection_timeout_ms: 0 },
  circuit_breaker: { enabled: false, failure_threshold: 5, success_threshold: 2, timeout_ms: 30_000 },
  bulkhead: { enabled: false, max_concurrent_requests: 100, max_queue_size: 0 },
};

/** What mock.yaml or an API call gives: any block, any field. */
export type ChaosPatch = {
  enabled?: boolean;
} & { [K in Exclude<keyof ChaosSettings, 'enabled'>]?: Partial<ChaosSettings[K]> };

/** `patch` laid over `base` block by block (a block's fields replace those given, the others stay). */
export function mergeChaos(base: ChaosSettings, patch: ChaosPatch): ChaosSettings {
  return {
    enabled: patch.enabled ?? base.enabled,
    fault_injection: { ...base.fault_injection, ...patch.fault_injection },
    rate_limit: { ...base.rate_limit, ...patch.rate_limit },
    traffic_shaping: { ...base.traffic_shaping, ...patch.traffic_shaping },
    circuit_breaker: { ...base.circuit_breaker, ...patch.circuit_breaker },
    bulkhead: { ...base.bulkhead, ...patch.bulkhead },
  };
}

import type { FaultInjectionSettings, RateLimitSettings, TrafficShapingSettings } from './settings.js';

export interface ProfileLatency {
  enabled: boolean;
  fixed_delay_ms?: number;
  /** Up to this much more, uniformly. */
  jitter_ms?: number;
  probability?: number;
}

/** The spec's chaos profile; traffic_shaping and rate_limit are additions (a network profile is mostly bandwidth). */
export interface ChaosProfile {
  name: string;
  description: string;
  tags: string[];
  builtin: boolean;
  chaos_config: {
    latency?: ProfileLatency;
    fault_injection?: Partial<FaultInjectionSettings>;
    traffic_shaping?: Partial<TrafficShapingSettings>;
    rate_limit?: Partial<RateLimitSettings>;
  };
}

const builtin = (name: string, description: string, tags: string[], chaos_config: ChaosProfile['chaos_config']): ChaosProfile =>
  ({ name, description, tags, builtin: true, chaos_config });

/**
 * The built-in profiles. Bandwidth is in bytes per second. slow_3g and fast_3g are the network
 * throttling presets of Chrome DevTools (front_end/core/sdk/NetworkManager.ts: Slow 3G = 500 kbit/s
 * × 0.8 down, 400 ms RTT × 5; Fast 3G = 1.6 Mbit/s × 0.9 down, 150 ms RTT × 3.75); cable and dialup
 * are WebPageTest's connectivity profiles (Cable: 5 Mbit/s down, 28 ms RTT; 56K Dial-Up: 49 kbit/s
 * down, 120 ms RTT). flaky_wifi, high_latency and unstable_connection have no published table:
 * their figures are ours, and their descriptions say what they model.
 */
export const BUILTIN_PROFILES: readonly ChaosProfile[] = [
  builtin('slow_3g', 'Chrome DevTools "Slow 3G": 2000 ms latency, 50,000 bytes/s down', ['network', 'mobile'], {
    latency: { enabled: true, fixed_delay_ms: 2000 },
    traffic_shaping: { enabled: true, bandwidth_limit_bps: 50_000 },
  }),
  builtin('fast_3g', 'Chrome DevTools "Fast 3G": 562.5 ms latency, 180,000 bytes/s down', ['network', 'mobile'], {
    latency: { enabled: true, fixed_delay_ms: 562.5 },
    traffic_shaping: { enabled: true, bandwidth_limit_bps: 180_000 },
  }),
  builtin('cable', 'WebPageTest "Cable": 28 ms latency, 625,000 bytes/s (5 Mbit/s) down', ['network', 'broadband'], {
    latency: { enabled: true, fixed_delay_ms: 28 },
    traffic_shaping: { enabled: true, bandwidth_limit_bps: 625_000 },
  }),
  builtin('dialup', 'WebPageTest "56K Dial-Up": 120 ms latency, 6,125 bytes/s (49 kbit/s) down', ['network', 'legacy'], {
    latency: { enabled: true, fixed_delay_ms: 120 },
    traffic_shaping: { enabled: true, bandwidth_limit_bps: 6_125 },
  }),
  builtin('flaky_wifi', 'A crowded Wi-Fi: 20-100 ms latency, 2% of requests lost (408), 1% of connections closed without an answer', ['network', 'faults'], {
    latency: { enabled: true, fixed_delay_ms: 20, jitter_ms: 80 },
    traffic_shaping: { enabled: true, packet_loss_percent: 2 },
    fault_injection: { enabled: true, connection_errors: true, connection_error_probability: 0.01, connection_error_kind: 'tcp_close' },
  }),
  builtin('high_latency', 'A geostationary satellite link: 600-700 ms latency, no other fault', ['network', 'latency'], {
    latency: { enabled: true, fixed_delay_ms: 600, jitter_ms: 100 },
  }),
  builtin(
    'unstable_connection',
    'A failing link: 100-1100 ms latency, 5% lost (408), 3% reset, 2% time out after 5 s, 2% cut short',
    ['network', 'faults'],
    {
      latency: { enabled: true, fixed_delay_ms: 100, jitter_ms: 1000 },
      traffic_shaping: { enabled: true, packet_loss_percent: 5 },
      fault_injection: {
        enabled: true,
        connection_errors: true,
        connection_error_probability: 0.03,
        connection_error_kind: 'tcp_reset',
        timeout_errors: true,
        timeout_probability: 0.02,
        timeout_ms: 5000,
        partial_responses: true,
        partial_response_probability: 0.02,
      },
    },
  ),
];

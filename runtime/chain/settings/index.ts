export { LiveState, type LiveAspect, type LiveStateOptions } from './live-state.js';
export { DEFAULT_FAULTS, DEFAULT_LATENCY, DEFAULT_PROXY, type FaultConfig, type LatencyConfig, type ProxyConfig } from './runtime-config.js';

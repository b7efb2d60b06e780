/**
 * The runtime's light face for configuration checks: what `mock config validate`, `mock build`
 * and the config loader need of the runtime's rules (chaos settings, latency distributions,
 * profile names) without loading the servers.
 */
export {
  BUILTIN_PROFILES,
  DEFAULT_CHAOS,
  checkChaosPatch,
  checkLatencySpec,
  latencySpec,
  mergeChaos,
  type ChaosPatch,
  type ChaosProfile,
  type ChaosSettings,
} from './chaos/index.js';

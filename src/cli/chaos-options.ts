import { BUILTIN_PROFILES, DEFAULT_CHAOS, mergeChaos, type ChaosPatch, type ChaosProfile, type ChaosSettings } from '../../runtime/config-checks.js';
import type { EffectiveConfig } from '../config/index.js';

export interface ChaosStart {
  settings: ChaosSettings;
  profiles: ChaosProfile[];
  /** observability.chaos.profile, --chaos-profile: applied once the server starts. */
  profile?: string;
  seed?: number;
}

/** observability.chaos (legacy chaos.failure_* fields already moved there) as the runtime starts with it. */
export function chaosStart(config: EffectiveConfig): ChaosStart {
  const { profile, profiles = [], ...blocks } = config.observability?.chaos ?? {};
  return {
    settings: mergeChaos(DEFAULT_CHAOS, blocks as ChaosPatch),
    profiles: profiles.map((p) => ({ name: p.name, description: p.description ?? '', tags: p.tags ?? [], builtin: false, chaos_config: p.chaos_config as ChaosProfile['chaos_config'] })),
    profile,
    seed: config.seed,
  };
}

/**
 * Whether the chaos configured at start can ask for a TCP reset: uWebSockets.js cannot send one,
 * so the default backend serves with node:http then.
 */
export function wantsTcpReset(config: EffectiveConfig): boolean {
  const start = chaosStart(config);
  const profile = [...BUILTIN_PROFILES, ...start.profiles].find((p) => p.name === start.profile);
  const faults = profile === undefined ? start.settings.fault_injection : { ...DEFAULT_CHAOS.fault_injection, ...profile.chaos_config.fault_injection };
  if (faults.connection_error_kind !== 'tcp_reset') return false;
  const routeConnectionErrors = config.core.routes.some((r) => r.fault_injection?.fault_types?.some((f) => f.type === 'connection_error') === true);
  return faults.connection_errors || routeConnectionErrors;
}

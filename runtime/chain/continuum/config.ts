import { PatternError } from '../../../common/patterns/index.js';
import { parseInstant } from '../../../common/instant.js';
import { compileGlob } from '../../match/index.js';

export type TransitionMode = 'manual' | 'time_based' | 'scheduled';

/**
 * Wire names of the merge strategies: `field_level` (the spec's default: a JSON deep merge, each
 * field from the upstream with probability = ratio), `weighted` (the whole answer from one source,
 * the upstream with probability = ratio) and `body_blend` (field_level, but numbers that are
 * neither integers nor identifiers are averaged, weighted by the ratio).
 */
export const MERGE_STRATEGIES = ['field_level', 'weighted', 'body_blend'] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export const CURVES = ['linear', 'exponential', 'sigmoid'] as const;
export type Curve = (typeof CURVES)[number];

/** time_schedule as mock.yaml and PUT /__mock/continuum/schedule write it. */
export interface TimeSchedule {
  start_time: string;
  end_time: string;
  start_ratio: number;
  end_ratio: number;
  curve: Curve;
}

/** routes[]: the paths a rule's pattern matches take its ratio, or its group's. */
export interface ContinuumRoute {
  pattern: string;
  ratio?: number;
  group?: string;
  /** false: the rule is skipped; default true. */
  enabled?: boolean;
}

/** reality_continuum of mock.yaml (or the SDK), defaults filled in. */
export interface ContinuumConfig {
  enabled: boolean;
  default_ratio: number;
  transition_mode: TransitionMode;
  merge_strategy: MergeStrategy;
  time_schedule?: Partial<TimeSchedule>;
  routes?: ContinuumRoute[];
  /** Group name to ratio: the group override of the routes naming the group. */
  groups?: Record<string, number>;
}

export const DEFAULT_CONTINUUM: ContinuumConfig = { enabled: false, default_ratio: 0, transition_mode: 'manual', merge_strategy: 'field_level' };

/** What to set when the continuum is on without an upstream; named in the start error and the admin API's 400. */
export const NEEDS_UPSTREAM = 'the reality continuum needs an upstream: set proxy.upstream_url in mock.yaml (or MOCK_PROXY_UPSTREAM, or --proxy-target)';

/**
 * What the schema cannot say of reality_continuum, as `<key>: <text>` lines (the config loader
 * and the admin API check with it): an upstream when it is on, a complete schedule for the
 * time-based modes, start before end, patterns that compile.
 */
export function checkContinuum(config: ContinuumConfig, where: string, hasUpstream: boolean): string[] {
  const errors: string[] = [];
  if (config.enabled && !hasUpstream) errors.push(`${where}.enabled: ${NEEDS_UPSTREAM}`);
  const schedule = config.time_schedule;
  if (config.transition_mode !== 'manual' && schedule === undefined) {
    errors.push(`${where}.transition_mode: ${config.transition_mode} reads the ratio from time_schedule {start_time, end_time, start_ratio, end_ratio, curve}; add it`);
  }
  if (schedule !== undefined) errors.push(...checkSchedule(schedule, `${where}.time_schedule`));
  for (const [i, route] of (config.routes ?? []).entries()) {
    try {
      compileGlob(route.pattern);
    } catch (e) {
      if (!(e instanceof PatternError)) throw e;
      errors.push(`${where}.routes[${i}].pattern: the glob ${e.message}`);
    }
  }
  return errors;
}

/** A schedule's start and end: both there, instants, start before end. */
export function checkSchedule(schedule: Partial<TimeSchedule>, where: string): string[] {
  const missing = (['start_time', 'end_time'] as const).filter((key) => schedule[key] === undefined);
  if (missing.length > 0) return missing.map((key) => `${where}.${key}: required key is missing (an ISO 8601 timestamp such as 2025-01-01T00:00:00Z)`);
  const start = parseInstant(schedule.start_time as string);
  const end = parseInstant(schedule.end_time as string);
  const errors: string[] = [];
  if (Number.isNaN(start)) errors.push(`${where}.start_time: expected an ISO 8601 timestamp such as 2025-01-01T00:00:00Z, got ${JSON.stringify(schedule.start_time)}`);
  if (Number.isNaN(end)) errors.push(`${where}.end_time: expected an ISO 8601 timestamp such as 2025-01-01T00:00:00Z, got ${JSON.stringify(schedule.end_time)}`);
  if (errors.length === 0 && end <= start) errors.push(`${where}.end_time: expected an instant after start_time (${schedule.start_time}), got ${schedule.end_time}`);
  return errors;
}

import type { RouteBehaviourMeta } from '../../../common/contract/index.js';
import { compileRequestMatcher, type MatchableRequest } from '../../match/index.js';
import { DEFAULT_ADMIN_LIMITS } from '../../serve-options.js';
import { BucketTable } from './bucket-table.js';
import { Bulkhead } from './bulkhead.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { FaultCounters } from './fault-counters.js';
import { createFaultPattern } from './fault-pattern.js';
import { LatencyRecorder } from './latency-recorder.js';
import { BUILTIN_PROFILES, type ChaosProfile } from './profiles.js';
import { seededRandom, type Random } from './random.js';
import { checkChaosPatch, checkProfile } from './settings-check.js';
import { DEFAULT_CHAOS, mergeChaos, type ChaosPatch, type ChaosSettings } from './settings.js';
import { TokenBucket } from './token-bucket.js';

export type RateLimitScope = 'global' | 'per_ip' | 'per_endpoint';

/** A Chaos API request the state refuses: every problem, one line each (the API answers 400). */
export class ChaosSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** A custom profile past admin.limits: `count` (one profile too many) or `size` (one too large). */
export class ChaosLimitError extends ChaosSettingsError {
  constructor(
    readonly limit: 'count' | 'size',
    message: string,
  ) {
    super([message]);
  }
}

/** admin.limits for custom profiles: the API cannot fill the server's memory with them. */
export interface ProfileLimits {
  /** admin.limits.max_chaos_profiles */
  count: number;
  /** admin.limits.max_chaos_profile_bytes: one profile document as JSON. */
  bytes: number;
}

export interface ChaosStateOptions {
  settings?: ChaosSettings;
  /** --seed: the same seed and request order inject the same faults. */
  seed?: number;
  /** Custom profiles of mock.yaml (observability.chaos.profiles). */
  profiles?: ChaosProfile[];
  /** A profile to apply at start (LiveState applies it: it also sets the global latency). */
  profile?: string;
  /** Caps on the custom profiles saveProfile adds (those of mock.yaml are the operator's and pass). */
  profileLimits?: ProfileLimits;
  now?: () => number;
}

/** Per-route chaos set through /__mock/api/route-chaos: it replaces what core.routes says for that route. */
export type RouteChaos = Pick<RouteBehaviourMeta, 'latency' | 'fault_injection'>;

/** The most distinct keys (client addresses, routes) the rate limiter keeps a bucket for. */
const MAX_BUCKETS = 10_000;

/**
 * The chaos of one server: the settings (mock.yaml's observability.chaos, a profile, the Chaos
 * API), the machinery built from them (buckets, breaker, bulkhead, fault pattern), the counters
 * and latency samples the Chaos API reports. Stages read it on every request; a change rebuilds
 * the machinery and tells the watchers, so the chain recompiles the routes it touches.
 */
export class ChaosState {
  readonly counters = new FaultCounters();
  /** 429s per limiter scope (Prometheus chaos_rate_limit_violations_total). */
  readonly violations: Record<RateLimitScope, number> = { global: 0, per_ip: 0, per_endpoint: 0 };
  readonly latency: LatencyRecorder;
  readonly random: Random;
  readonly now: () => number;
  private current: ChaosSettings;
  /** What the server started with (mock.yaml, flags), for a reset. */
  private readonly initial: ChaosSettings;
  private profileName: string | null = null;
  private readonly custom = new Map<string, ChaosProfile>();
  private readonly routeOverrides = new Map<string, RouteChaos>();
  private readonly profileLimits: ProfileLimits;
  private readonly watchers: Array<() => void> = [];
  private readonly violationListeners: Array<(scope: RateLimitScope) => void> = [];
  private machinery!: Machinery;

  constructor(options: ChaosStateOptions = {}) {
    this.now = options.now ?? Date.now;
    this.random = seededRandom(options.seed);
    this.latency = new LatencyRecorder({ keep: 100 });
    this.current = options.settings ?? DEFAULT_CHAOS;
    this.initial = this.current;
    this.profileLimits = options.profileLimits ?? { count: DEFAULT_ADMIN_LIMITS.max_chaos_profiles, bytes: DEFAULT_ADMIN_LIMITS.max_chaos_profile_bytes };
    for (const profile of options.profiles ?? []) this.custom.set(profile.name, { ...profile, builtin: false });
    this.rebuild();
  }

  get settings(): ChaosSettings {
    return this.current;
  }

  get machines(): Machinery {
    return this.machinery;
  }

  /** The profile applied last (null: none, or settings changed since by hand). */
  get activeProfile(): string | null {
    return this.profileName;
  }

  /** Whether a block takes effect: its own switch and the master switch on. */
  active(block: Exclude<keyof ChaosSettings, 'enabled'>): boolean {
    return this.current.enabled && this.current[block].enabled;
  }

  watch(listener: () => void): void {
    this.watchers.push(listener);
  }

  /** Lays `patch` over the settings; throws ChaosSettingsError naming every problem, changing nothing. */
  update(patch: unknown, where = 'chaos'): ChaosSettings {
    const problems = checkChaosPatch(patch, where);
    if (problems.length > 0) throw new ChaosSettingsError(problems);
    this.replace(mergeChaos(this.current, patch as ChaosPatch), null);
    return this.current;
  }

  /** Back to the settings the server started with (the profile applied at start is not applied again). */
  reset(): ChaosSettings {
    this.replace(this.initial, null);
    return this.current;
  }

  /** Settings as a profile makes them: the defaults and the profile's blocks, switched on. */
  applyProfile(profile: ChaosProfile): void {
    const { fault_injection, traffic_shaping, rate_limit } = profile.chaos_config;
    const patch: ChaosPatch = { enabled: true, fault_injection, traffic_shaping, rate_limit };
    const problems = checkChaosPatch(patch, `profile ${profile.name}`);
    if (problems.length > 0) throw new ChaosSettingsError(problems);
    this.replace(mergeChaos(DEFAULT_CHAOS, patch), profile.name);
  }

  profiles(): ChaosProfile[] {
    return [...BUILTIN_PROFILES, ...this.custom.values()];
  }

  profile(name: string): ChaosProfile | undefined {
    return BUILTIN_PROFILES.find((p) => p.name === name) ?? this.custom.get(name);
  }

  /**
   * Adds or replaces a custom profile; built-in names are refused, and so is a profile past the
   * limits (ChaosLimitError naming the setting).
   */
  saveProfile(profile: ChaosProfile): void {
    if (BUILTIN_PROFILES.some((p) => p.name === profile.name)) throw new ChaosSettingsError([`profile ${profile.name} is built in and cannot be replaced; choose another name`]);
    const { name, description, tags, chaos_config } = profile;
    const problems = checkProfile({ name, description, tags, chaos_config }, `profile ${name}`);
    if (problems.length > 0) throw new ChaosSettingsError(problems);
    const bytes = Buffer.byteLength(JSON.stringify({ name, description, tags, chaos_config }));
    if (bytes > this.profileLimits.bytes) {
      throw new ChaosLimitError('size', `chaos profile ${name} takes ${bytes} bytes as JSON, more than admin.limits.max_chaos_profile_bytes (${this.profileLimits.bytes}); make it smaller or raise the limit`);
    }
    if (!this.custom.has(name) && this.custom.size >= this.profileLimits.count) {
      throw new ChaosLimitError('count', `the server already keeps ${this.custom.size} custom chaos profiles, the most admin.limits.max_chaos_profiles (${this.profileLimits.count}) allows; delete one or raise the limit`);
    }
    this.custom.set(name, { ...profile, builtin: false });
  }

  /** False when there is no such custom profile; throws for a built-in one. */
  deleteProfile(name: string): boolean {
    if (BUILTIN_PROFILES.some((p) => p.name === name)) throw new ChaosSettingsError([`profile ${name} is built in and cannot be deleted`]);
    return this.custom.delete(name);
  }

  routeChaos(key: string): RouteChaos | undefined {
    return this.routeOverrides.get(key);
  }

  routeChaosList(): Array<{ route: string } & RouteChaos> {
    return [...this.routeOverrides].map(([route, chaos]) => ({ route, ...chaos }));
  }

  setRouteChaos(key: string, chaos: RouteChaos | null): void {
    if (chaos === null) this.routeOverrides.delete(key);
    else this.routeOverrides.set(key, chaos);
    this.announce();
  }

  countViolation(scope: RateLimitScope): void {
    this.violations[scope]++;
    for (const listener of this.violationListeners) listener(scope);
  }

  /** Tells `listener` of every 429 (the Prometheus counter). */
  onViolation(listener: (scope: RateLimitScope) => void): void {
    this.violationListeners.push(listener);
  }

  /** Counters and latency samples back to zero (the settings stay). */
  resetStats(): void {
    this.counters.reset();
    this.latency.reset();
  }

  private replace(settings: ChaosSettings, profile: string | null): void {
    this.current = settings;
    this.profileName = profile;
    this.rebuild();
    this.announce();
  }

  private rebuild(): void {
    this.machinery = new Machinery(this.current, this.random, this.now);
  }

  private announce(): void {
    for (const listener of this.watchers) listener();
  }
}

/** What the settings build; built anew on every change (buckets and breaker start over). */
export class Machinery {
  readonly matches: (req: MatchableRequest) => boolean;
  readonly errorPattern: { next(): boolean | number } | undefined;
  readonly limiter: BucketTable;
  readonly breaker: CircuitBreaker;
  readonly bulkhead: Bulkhead;

  constructor(settings: ChaosSettings, random: Random, now: () => number) {
    const faults = settings.fault_injection;
    this.matches = compileRequestMatcher(faults.request_matcher, 'observability.chaos.fault_injection.request_matcher');
    const pattern = faults.error_pattern;
    this.errorPattern =
      pattern === undefined
        ? undefined
        : createFaultPattern(
            pattern.type === 'random'
              ? { type: 'random', probability: pattern.probability ?? faults.http_error_probability }
              : pattern.type === 'burst'
                ? { type: 'burst', count: pattern.count ?? 1, interval_ms: pattern.interval_ms ?? 1000 }
                : { type: 'sequential', sequence: pattern.sequence ?? [], repeat: pattern.repeat },
            { random, now },
          );
    const { requests_per_second, burst_size } = settings.rate_limit;
    this.limiter = new BucketTable({ maxKeys: MAX_BUCKETS, make: () => new TokenBucket({ ratePerSecond: requests_per_second, burst: burst_size, now }) });
    const { failure_threshold, success_threshold, timeout_ms } = settings.circuit_breaker;
    this.breaker = new CircuitBreaker({ failureThreshold: failure_threshold, successThreshold: success_threshold, timeoutMs: timeout_ms, now });
    this.bulkhead = new Bulkhead({ maxConcurrent: settings.bulkhead.max_concurrent_requests, maxQueue: settings.bulkhead.max_queue_size });
  }
}

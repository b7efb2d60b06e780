import type { RouteBehaviourMeta } from '../../../common/contract/index.js';
import { compileRequestMatcher, type MatchableRequest } from '../../match/index.js';
import { DEFAULT_ADMIN_LIMITS } from '../../serve-options.js';
import { BucketTable, bucketBudget } from './bucket-table.js';
import { andThen, Cell, MemoryStores, settingsBudget, type Awaitable, type Store, type StoreFactory } from '../../store/index.js';
import { Bulkhead } from './bulkhead.js';
import { CircuitBreaker, breakerBudget, type BreakerRecord } from './circuit-breaker.js';
import { FaultCounters } from './fault-counters.js';
import { createFaultPattern, patternBudget, type FaultPattern, type PatternRecord } from './fault-pattern.js';
import { LatencyRecorder } from './latency-recorder.js';
import { BUILTIN_PROFILES, type ChaosProfile } from './profiles.js';
import { seededRandom, type Random } from './random.js';
import { checkChaosPatch, checkProfile } from './settings-check.js';
import { DEFAULT_CHAOS, mergeChaos, type ChaosPatch, type ChaosSettings } from './settings.js';
import { TokenBucket, type BucketRecord } from './token-bucket.js';

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
  /** Where the buckets and the breaker are kept (the process's stores); default: in memory. */
  stores?: StoreFactory;
}

/** The chaos settings in force and the profile that made them (null: none, or changed since by hand). */
interface ChosenChaos {
  settings: ChaosSettings;
  profile: string | null;
}

/** Per-route chaos set through /__mock/api/route-chaos: it replaces what core.routes says for that route. */
export type RouteChaos = Pick<RouteBehaviourMeta, 'latency' | 'fault_injection'>;

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
  /** The settings and the profile applied last, the `chaos` key of the settings store. */
  private readonly chosen: Cell<ChosenChaos>;
  /** What the server started with (mock.yaml, flags), for a reset. */
  private readonly initial: ChaosSettings;
  /** Custom profiles in the order they were first saved (`chaos-profiles`). */
  private readonly custom: Cell<ChaosProfile[]>;
  /** Chaos set per route over the admin API (`route-chaos`). */
  private readonly routeOverrides: Cell<Array<[route: string, chaos: RouteChaos]>>;
  private readonly profileLimits: ProfileLimits;
  private readonly watchers: Array<() => void> = [];
  private readonly violationListeners: Array<(scope: RateLimitScope) => void> = [];
  private machinery!: Machinery;
  private readonly buckets: Store<BucketRecord>;
  private readonly breakers: Store<BreakerRecord>;
  private readonly patterns: Store<PatternRecord>;

  constructor(options: ChaosStateOptions = {}) {
    this.now = options.now ?? Date.now;
    const stores = options.stores ?? new MemoryStores();
    this.buckets = stores.open('rate-limits', bucketBudget());
    this.breakers = stores.open('circuit-breakers', breakerBudget);
    this.patterns = stores.open('fault-patterns', patternBudget);
    this.random = seededRandom(options.seed);
    this.latency = new LatencyRecorder({ keep: 100 });
    this.initial = options.settings ?? DEFAULT_CHAOS;
    this.profileLimits = options.profileLimits ?? { count: DEFAULT_ADMIN_LIMITS.max_chaos_profiles, bytes: DEFAULT_ADMIN_LIMITS.max_chaos_profile_bytes };
    const settings = stores.open('settings', settingsBudget);
    this.chosen = new Cell(settings as Store<ChosenChaos>, 'chaos', { settings: this.initial, profile: null });
    this.custom = new Cell(settings as Store<ChaosProfile[]>, 'chaos-profiles', (options.profiles ?? []).map((profile) => ({ ...profile, builtin: false })));
    this.routeOverrides = new Cell(settings as Store<Array<[string, RouteChaos]>>, 'route-chaos', []);
    this.rebuild();
    this.machinery.startOver();
    this.chosen.onChange(() => {
      this.rebuild();
      this.announce();
    });
    this.routeOverrides.onChange(() => this.announce());
  }

  get settings(): ChaosSettings {
    return this.chosen.get().settings;
  }

  get machines(): Machinery {
    return this.machinery;
  }

  /** The profile applied last (null: none, or settings changed since by hand). */
  get activeProfile(): string | null {
    return this.chosen.get().profile;
  }

  /** Whether a block takes effect: its own switch and the master switch on. */
  active(block: Exclude<keyof ChaosSettings, 'enabled'>): boolean {
    const { settings } = this.chosen.get();
    return settings.enabled && settings[block].enabled;
  }

  watch(listener: () => void): void {
    this.watchers.push(listener);
  }

  /**
   * Lays `patch` over the settings; throws ChaosSettingsError naming every problem, changing
   * nothing. Answers the settings once the store holds them (every instance sharing it has them).
   */
  update(patch: unknown, where = 'chaos'): Awaitable<ChaosSettings> {
    const problems = checkChaosPatch(patch, where);
    if (problems.length > 0) throw new ChaosSettingsError(problems);
    return andThen(this.replace(mergeChaos(this.settings, patch as ChaosPatch), null), () => this.settings);
  }

  /** Back to the settings the server started with (the profile applied at start is not applied again). */
  reset(): Awaitable<ChaosSettings> {
    return andThen(this.replace(this.initial, null), () => this.settings);
  }

  /** Settings as a profile makes them: the defaults and the profile's blocks, switched on. */
  applyProfile(profile: ChaosProfile): Awaitable<void> {
    const { fault_injection, traffic_shaping, rate_limit } = profile.chaos_config;
    const patch: ChaosPatch = { enabled: true, fault_injection, traffic_shaping, rate_limit };
    const problems = checkChaosPatch(patch, `profile ${profile.name}`);
    if (problems.length > 0) throw new ChaosSettingsError(problems);
    return this.replace(mergeChaos(DEFAULT_CHAOS, patch), profile.name);
  }

  profiles(): ChaosProfile[] {
    return [...BUILTIN_PROFILES, ...this.custom.get()];
  }

  profile(name: string): ChaosProfile | undefined {
    return BUILTIN_PROFILES.find((p) => p.name === name) ?? this.custom.get().find((p) => p.name === name);
  }

  /**
   * Adds or replaces a custom profile; built-in names are refused, and so is a profile past the
   * limits (ChaosLimitError naming the setting).
   */
  saveProfile(profile: ChaosProfile): Awaitable<void> {
    if (BUILTIN_PROFILES.some((p) => p.name === profile.name)) throw new ChaosSettingsError([`profile ${profile.name} is built in and cannot be replaced; choose another name`]);
    const { name, description, tags, chaos_config } = profile;
    const problems = checkProfile({ name, description, tags, chaos_config }, `profile ${name}`);
    if (problems.length > 0) throw new ChaosSettingsError(problems);
    const bytes = Buffer.byteLength(JSON.stringify({ name, description, tags, chaos_config }));
    if (bytes > this.profileLimits.bytes) {
      throw new ChaosLimitError('size', `chaos profile ${name} takes ${bytes} bytes as JSON, more than admin.limits.max_chaos_profile_bytes (${this.profileLimits.bytes}); make it smaller or raise the limit`);
    }
    const custom = this.custom.get();
    const at = custom.findIndex((p) => p.name === name);
    if (at < 0 && custom.length >= this.profileLimits.count) {
      throw new ChaosLimitError('count', `the server already keeps ${custom.length} custom chaos profiles, the most admin.limits.max_chaos_profiles (${this.profileLimits.count}) allows; delete one or raise the limit`);
    }
    return this.custom.set(at < 0 ? [...custom, { ...profile, builtin: false }] : custom.map((p, i) => (i === at ? { ...profile, builtin: false } : p)));
  }

  /** False when there is no such custom profile; throws for a built-in one. */
  deleteProfile(name: string): Awaitable<boolean> {
    if (BUILTIN_PROFILES.some((p) => p.name === name)) throw new ChaosSettingsError([`profile ${name} is built in and cannot be deleted`]);
    const custom = this.custom.get();
    const kept = custom.filter((p) => p.name !== name);
    if (kept.length === custom.length) return false;
    return andThen(this.custom.set(kept), () => true);
  }

  routeChaos(key: string): RouteChaos | undefined {
    return this.routeOverrides.get().find(([route]) => route === key)?.[1];
  }

  routeChaosList(): Array<{ route: string } & RouteChaos> {
    return this.routeOverrides.get().map(([route, chaos]) => ({ route, ...chaos }));
  }

  setRouteChaos(key: string, chaos: RouteChaos | null): Awaitable<void> {
    const kept = this.routeOverrides.get().filter(([route]) => route !== key);
    return this.routeOverrides.set(chaos === null ? kept : [...kept, [key, chaos]]);
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

  /** Settles once the store holds the settings; a shared store that is lost refuses the write (StoreUnavailable) and the settings stay as they were. */
  private replace(settings: ChaosSettings, profile: string | null): Awaitable<void> {
    return andThen(this.chosen.set({ settings, profile }), () => this.machinery.startOver());
  }

  private rebuild(): void {
    this.machinery = new Machinery(this.settings, this.random, this.now, { buckets: this.buckets, breakers: this.breakers, patterns: this.patterns });
  }

  private announce(): void {
    for (const listener of this.watchers) listener();
  }
}

/** What the settings build; built anew on every change (the buckets and the breaker start over). */
export class Machinery {
  readonly matches: (req: MatchableRequest) => boolean;
  readonly errorPattern: FaultPattern | undefined;
  readonly limiter: BucketTable;
  readonly breaker: CircuitBreaker;
  readonly bulkhead: Bulkhead;

  constructor(settings: ChaosSettings, random: Random, now: () => number, stores: { buckets: Store<BucketRecord>; breakers: Store<BreakerRecord>; patterns: Store<PatternRecord> }) {
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
            { random, now, store: stores.patterns },
          );
    const { requests_per_second, burst_size } = settings.rate_limit;
    this.limiter = new BucketTable(new TokenBucket({ ratePerSecond: requests_per_second, burst: burst_size, now }), stores.buckets);
    const { failure_threshold, success_threshold, timeout_ms } = settings.circuit_breaker;
    this.breaker = new CircuitBreaker({ failureThreshold: failure_threshold, successThreshold: success_threshold, timeoutMs: timeout_ms, now }, stores.breakers);
    this.bulkhead = new Bulkhead({ maxConcurrent: settings.bulkhead.max_concurrent_requests, maxQueue: settings.bulkhead.max_queue_size });
  }

  /**
   * The pattern, buckets and breaker start over: done by the instance that changed the settings,
   * once they are stored, not by every instance that hears of the change (in a shared store, a late
   * listener would empty buckets other instances had already started to fill under the new settings).
   */
  startOver(): void {
    this.errorPattern?.reset();
    void this.limiter.reset();
    void this.breaker.reset();
  }
}

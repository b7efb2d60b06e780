import { ChaosState, type ChaosProfile, type ChaosStateOptions } from '../chaos/index.js';
import { MockError } from '../../../common/errors.js';
import { MockStore, mocksBudget } from '../mocks/index.js';
import { DEFAULT_ADMIN_LIMITS, type AdminLimits } from '../../serve-options.js';
import { OverrideSet, type OverrideRule } from '../overrides/index.js';
import { VirtualClock, type ClockOptions } from '../../clock/index.js';
import { ContinuumState, type ContinuumOptions } from '../continuum/index.js';
import { DEFAULT_FAULTS, DEFAULT_LATENCY, DEFAULT_PROXY, type FaultConfig, type LatencyConfig, type ProxyConfig } from './runtime-config.js';
import { Cell, MemoryStores, settingsBudget, type Awaitable, type Store, type StoreFactory } from '../../store/index.js';

export interface LiveStateOptions {
  latency?: LatencyConfig;
  faults?: FaultConfig;
  proxy?: ProxyConfig;
  overrides?: OverrideRule[];
  chaos?: ChaosStateOptions;
  /** admin.limits on runtime mocks, override rules and custom chaos profiles; default: the configuration's defaults. */
  limits?: Pick<AdminLimits, 'max_mocks' | 'max_mock_bytes' | 'max_override_rules' | 'max_chaos_profiles' | 'max_chaos_profile_bytes'>;
  /** --now / the seed's instant and time_travel: the process's one clock. */
  clock?: ClockOptions;
  /** reality_continuum and the seed of its draws; absent: the continuum is off. */
  continuum?: Omit<ContinuumOptions, 'clock'>;
  /** Where the settings and runtime mocks are kept (the process's stores); default: in memory. */
  stores?: StoreFactory;
}

/** What a change touched; the request chain's stages watch their own. */
export type LiveAspect = 'latency' | 'faults' | 'proxy' | 'mocks' | 'overrides' | 'continuum';

/**
 * What the admin API changes while the server runs: runtime mocks, override rules, latency,
 * faults, the proxy and the reality continuum. It outlives a server restart. Every change is
 * announced to the watchers of its aspect (the request chain recompiles the routes it touches);
 * no caller has to say so.
 */
export class LiveState {
  readonly mocks: MockStore;
  readonly overrides: OverrideSet;
  /** observability.chaos, its profiles and counters; its stages watch it directly. */
  readonly chaos: ChaosState;
  /** The one clock of generated data, templates, timed transitions and the continuum: virtual while time travel is on. */
  readonly clock: VirtualClock;
  /** The reality continuum: on/off, its ratios and draws (/__mock/continuum/*). */
  readonly continuum: ContinuumState;
  /** Requests sent to an upstream (the proxy, its rules, the continuum). */
  requestsProxied = 0;
  /** Requests answered with an injected fault. */
  faultsInjected = 0;
  /** The process's stores (runtime/store): every piece of state a request or the admin API changes. */
  readonly stores: StoreFactory;
  /** Settles once what the start configured is in the store (the chaos profile of mock.yaml); a shared store that cannot take it rejects. */
  readonly ready: Promise<void>;
  /** The `settings` store: every setting the admin API changes, one key each. */
  readonly settings: Store<unknown>;
  private readonly latencyCell: Cell<LatencyConfig>;
  private readonly faultCell: Cell<FaultConfig>;
  private readonly proxyCell: Cell<ProxyConfig>;
  private readonly watchers = new Map<LiveAspect, Array<() => void>>();

  constructor(options: LiveStateOptions = {}) {
    const stores = (this.stores = options.stores ?? new MemoryStores());
    this.settings = stores.open('settings', settingsBudget);
    this.latencyCell = this.cell('latency', options.latency ?? DEFAULT_LATENCY);
    this.faultCell = this.cell('faults', options.faults ?? DEFAULT_FAULTS);
    this.proxyCell = this.cell('proxy', options.proxy ?? DEFAULT_PROXY);
    const limits = options.limits ?? DEFAULT_ADMIN_LIMITS;
    this.clock = new VirtualClock(options.clock, this.settings);
    this.continuum = new ContinuumState({ ...options.continuum, clock: this.clock.read, settings: this.settings });
    const mockLimits = { maxMocks: limits.max_mocks, maxMockBytes: limits.max_mock_bytes };
    this.mocks = new MockStore(mockLimits, stores.open('runtime-mocks', mocksBudget(mockLimits)));
    this.overrides = new OverrideSet(options.overrides ?? [], limits.max_override_rules, this.settings);
    this.chaos = new ChaosState({ ...options.chaos, stores, profileLimits: { count: limits.max_chaos_profiles, bytes: limits.max_chaos_profile_bytes } });
    const start = options.chaos?.profile;
    let applied: Awaitable<void> = undefined;
    if (start !== undefined) {
      const profile = this.chaos.profile(start);
      if (profile === undefined) throw new MockError('MOCK_ERR_CONFIG_INVALID', `observability.chaos.profile: no chaos profile ${JSON.stringify(start)} (built in: ${this.chaos.profiles().map((p) => p.name).join(', ')})`);
      applied = this.applyChaosProfile(profile);
    }
    this.ready = Promise.resolve(applied);
    this.mocks.onChange(() => this.announce('mocks'));
    this.overrides.onChange(() => this.announce('overrides'));
    this.continuum.onChange(() => this.announce('continuum'));
  }

  watch(aspect: LiveAspect, listener: () => void): void {
    const list = this.watchers.get(aspect);
    if (list === undefined) this.watchers.set(aspect, [listener]);
    else list.push(listener);
  }

  get latency(): LatencyConfig {
    return this.latencyCell.get();
  }

  get faults(): FaultConfig {
    return this.faultCell.get();
  }

  get proxy(): ProxyConfig {
    return this.proxyCell.get();
  }

  /** True when requests go to the upstream. */
  get proxying(): boolean {
    const proxy = this.proxyCell.get();
    return proxy.enabled && proxy.upstream_url !== null;
  }

  /** Each setter settles once the store holds the setting (every instance sharing the store has it then). */
  setLatency(latency: LatencyConfig): Awaitable<void> {
    return this.latencyCell.set(latency);
  }

  setFaults(faults: FaultConfig): Awaitable<void> {
    return this.faultCell.set(faults);
  }

  setProxy(proxy: ProxyConfig): Awaitable<void> {
    return this.proxyCell.set(proxy);
  }

  /** A chaos profile applied: the chaos blocks it names, and the global latency it sets (off when it has none). */
  applyChaosProfile(profile: ChaosProfile): Awaitable<void> {
    const latency = profile.chaos_config.latency;
    const next: LatencyConfig =
      latency?.enabled === true
        ? { enabled: true, base_ms: latency.fixed_delay_ms ?? 0, jitter_ms: latency.jitter_ms ?? 0, tag_overrides: {}, probability: latency.probability }
        : { enabled: false, base_ms: 0, jitter_ms: 0, tag_overrides: {} };
    const applied = this.chaos.applyProfile(profile);
    return applied instanceof Promise ? applied.then(() => this.setLatency(next)) : this.setLatency(next);
  }

  /** The setting `aspect` in the settings store, its watchers told of every change wherever it was made. */
  private cell<T>(aspect: LiveAspect, initial: T): Cell<T> {
    const cell = new Cell(this.settings as Store<T>, aspect, initial);
    cell.onChange(() => this.announce(aspect));
    return cell;
  }

  private announce(aspect: LiveAspect): void {
    for (const listener of this.watchers.get(aspect) ?? []) listener();
  }
}

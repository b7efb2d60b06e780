import { MockStore } from '../mocks/index.js';
import { OverrideSet, type OverrideRule } from '../overrides/index.js';
import { DEFAULT_FAULTS, DEFAULT_LATENCY, DEFAULT_PROXY, type FaultConfig, type LatencyConfig, type ProxyConfig } from './runtime-config.js';

export interface LiveStateOptions {
  latency?: LatencyConfig;
  faults?: FaultConfig;
  proxy?: ProxyConfig;
  overrides?: OverrideRule[];
}

/** What a change touched; the request chain's stages watch their own. */
export type LiveAspect = 'latency' | 'faults' | 'proxy' | 'mocks' | 'overrides';

/**
 * What the admin API changes while the server runs: runtime mocks, override rules, latency,
 * faults and the proxy. It outlives a server restart. Every change is announced to the watchers
 * of its aspect (the request chain recompiles the routes it touches); no caller has to say so.
 */
export class LiveState {
  readonly mocks = new MockStore();
  readonly overrides: OverrideSet;
  /** Requests answered by the upstream. */
  requestsProxied = 0;
  /** Requests answered with an injected fault. */
  faultsInjected = 0;
  private latencyConfig: LatencyConfig;
  private faultConfig: FaultConfig;
  private proxyConfig: ProxyConfig;
  private readonly watchers = new Map<LiveAspect, Array<() => void>>();

  constructor(options: LiveStateOptions = {}) {
    this.latencyConfig = options.latency ?? DEFAULT_LATENCY;
    this.faultConfig = options.faults ?? DEFAULT_FAULTS;
    this.proxyConfig = options.proxy ?? DEFAULT_PROXY;
    this.overrides = new OverrideSet(options.overrides ?? []);
    this.mocks.onChange(() => this.announce('mocks'));
    this.overrides.onChange(() => this.announce('overrides'));
  }

  watch(aspect: LiveAspect, listener: () => void): void {
    const list = this.watchers.get(aspect);
    if (list === undefined) this.watchers.set(aspect, [listener]);
    else list.push(listener);
  }

  get latency(): LatencyConfig {
    return this.latencyConfig;
  }

  get faults(): FaultConfig {
    return this.faultConfig;
  }

  get proxy(): ProxyConfig {
    return this.proxyConfig;
  }

  /** True when requests go to the upstream. */
  get proxying(): boolean {
    return this.proxyConfig.enabled && this.proxyConfig.upstream_url !== null;
  }

  setLatency(latency: LatencyConfig): void {
    this.latencyConfig = latency;
    this.announce('latency');
  }

  setFaults(faults: FaultConfig): void {
    this.faultConfig = faults;
    this.announce('faults');
  }

  setProxy(proxy: ProxyConfig): void {
    this.proxyConfig = proxy;
    this.announce('proxy');
  }

  private announce(aspect: LiveAspect): void {
    for (const listener of this.watchers.get(aspect) ?? []) listener();
  }
}

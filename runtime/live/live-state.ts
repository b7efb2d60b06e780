import { MockStore } from '../mocks/index.js';
import { OverrideSet, type OverrideRule } from '../overrides/index.js';
import { DEFAULT_FAULTS, DEFAULT_LATENCY, DEFAULT_PROXY, type FaultConfig, type LatencyConfig, type ProxyConfig } from './runtime-config.js';

export interface LiveStateOptions {
  latency?: LatencyConfig;
  faults?: FaultConfig;
  proxy?: ProxyConfig;
  overrides?: OverrideRule[];
}

/**
 * What the admin API changes while the server runs: runtime mocks, override rules, latency,
 * faults and the proxy. It outlives a server restart. The HTTP server reads `idle` once per
 * request and takes its synchronous path when nothing here is on.
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
  private quiet = true;

  constructor(options: LiveStateOptions = {}) {
    this.latencyConfig = options.latency ?? DEFAULT_LATENCY;
    this.faultConfig = options.faults ?? DEFAULT_FAULTS;
    this.proxyConfig = options.proxy ?? DEFAULT_PROXY;
    this.overrides = new OverrideSet(options.overrides ?? []);
    this.changed();
  }

  /** True when no runtime setting changes answers. */
  get idle(): boolean {
    return this.quiet;
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
    this.changed();
  }

  setFaults(faults: FaultConfig): void {
    this.faultConfig = faults;
    this.changed();
  }

  setProxy(proxy: ProxyConfig): void {
    this.proxyConfig = proxy;
    this.changed();
  }

  /** Call after changing mocks or overrides. */
  changed(): void {
    this.quiet = this.mocks.size === 0 && !this.overrides.active && !this.latencyConfig.enabled && !this.faultConfig.enabled && !this.proxying;
  }
}

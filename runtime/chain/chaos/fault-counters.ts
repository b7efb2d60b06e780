/** Every kind of fault chaos injects or protection causes, as X-Mock-Fault, the Chaos API and Prometheus name them. */
export const FAULT_KINDS = [
  'http_error',
  'connection_error',
  'tcp_reset',
  'tcp_close',
  'timeout',
  'partial_response',
  'payload_corruption',
  'packet_loss',
  'rate_limited',
  'connection_limit',
  'circuit_open',
  'bulkhead_rejected',
  'latency',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Fault counts for /api/chaos/stats. Listeners hear each fault as it is counted, which is how the
 * Prometheus counters follow without this module knowing about them; reset() zeroes the counts and
 * keeps the listeners.
 */
export class FaultCounters {
  private counts = zeroes();
  private sum = 0;
  private readonly listeners = new Set<(kind: FaultKind) => void>();

  add(kind: FaultKind): void {
    this.counts[kind]++;
    this.sum++;
    for (const listener of this.listeners) listener(kind);
  }

  get total(): number {
    return this.sum;
  }

  snapshot(): { total_faults: number; by_type: Record<FaultKind, number> } {
    return { total_faults: this.sum, by_type: { ...this.counts } };
  }

  /** Returns a function that stops the listener, for a server that stops before the counters do. */
  onAdd(listener: (kind: FaultKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  reset(): void {
    this.counts = zeroes();
    this.sum = 0;
  }
}

const zeroes = (): Record<FaultKind, number> => Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;

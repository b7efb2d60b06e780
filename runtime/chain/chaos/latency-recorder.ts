/** Percentiles are taken over this many most recent samples, so stats() costs the same after a day as after a minute. */
const PERCENTILE_WINDOW = 1000;

export interface LatencyStats {
  avg_latency_ms: number;
  min_latency_ms: number;
  max_latency_ms: number;
  total_requests: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

/**
 * Injected latency for the Chaos API (memory only): samples() lists the last `keep` (100, the
 * spec's figure) with their time, oldest first; stats() gives the average, minimum, maximum and
 * count over everything recorded since start or reset(), and nearest-rank p50/p95/p99 over the
 * last 1000 samples. With nothing recorded every figure is 0.
 */
export class LatencyRecorder {
  private readonly keep: number;
  private readonly now: () => number;
  /** A ring of the most recent samples, large enough for both samples() and the percentiles. */
  private readonly at: Float64Array;
  private readonly ms: Float64Array;
  private next = 0;
  private held = 0;
  private total = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;

  /** `now` in epoch milliseconds (Date.now unless given). */
  constructor(o: { keep?: number; now?: () => number } = {}) {
    this.keep = o.keep ?? 100;
    if (!(Number.isInteger(this.keep) && this.keep >= 0)) throw new RangeError(`a latency recorder needs keep >= 0 (got ${this.keep})`);
    this.now = o.now ?? Date.now;
    const size = Math.max(this.keep, PERCENTILE_WINDOW);
    this.at = new Float64Array(size);
    this.ms = new Float64Array(size);
  }

  record(latencyMs: number): void {
    this.at[this.next] = this.now();
    this.ms[this.next] = latencyMs;
    this.next = (this.next + 1) % this.ms.length;
    this.held = Math.min(this.held + 1, this.ms.length);
    this.total++;
    this.sum += latencyMs;
    this.min = Math.min(this.min, latencyMs);
    this.max = Math.max(this.max, latencyMs);
  }

  samples(): Array<{ timestamp: string; latency_ms: number }> {
    return this.recent(this.keep).map((i) => ({ timestamp: new Date(this.at[i]!).toISOString(), latency_ms: this.ms[i]! }));
  }

  stats(): LatencyStats {
    if (this.total === 0) return { avg_latency_ms: 0, min_latency_ms: 0, max_latency_ms: 0, total_requests: 0, p50_ms: 0, p95_ms: 0, p99_ms: 0 };
    const sorted = Float64Array.from(this.recent(PERCENTILE_WINDOW), (i) => this.ms[i]!).sort();
    const rank = (p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
    return {
      avg_latency_ms: this.sum / this.total,
      min_latency_ms: this.min,
      max_latency_ms: this.max,
      total_requests: this.total,
      p50_ms: rank(50),
      p95_ms: rank(95),
      p99_ms: rank(99),
    };
  }

  reset(): void {
    this.next = 0;
    this.held = 0;
    this.total = 0;
    this.sum = 0;
    this.min = Infinity;
    this.max = -Infinity;
  }

  /** Ring indices of the last `n` samples held, oldest first. */
  private recent(n: number): number[] {
    const count = Math.min(n, this.held);
    const size = this.ms.length;
    return Array.from({ length: count }, (_, k) => (this.next - count + k + size) % size);
  }
}

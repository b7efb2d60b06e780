/** Values below this are counted exactly; above it, in buckets of 1/SUB_BUCKETS of their power of two. */
const SUB_BUCKETS = 1024;
const EXACT = 2 * SUB_BUCKETS;

/**
 * Counts of non-negative integers (microseconds) with three significant digits, the scheme of
 * HdrHistogram: exact below 2048, then 1024 buckets per power of two (at most 0.1 % wide), so
 * 2^32 takes about 24,000 slots. Recording is a few arithmetic operations and one array write.
 * Written here rather than taken from hdr-histogram-js, whose WebAssembly build cost every server
 * about 8 MB of memory at start for a handful of percentiles.
 */
export class LatencyHistogram {
  private readonly counts: Float64Array;
  private total = 0;

  constructor(private readonly highest: number) {
    this.counts = new Float64Array(LatencyHistogram.slot(highest) + 1);
  }

  get totalCount(): number {
    return this.total;
  }

  /** Values above the highest trackable one count as it. */
  record(value: number): void {
    const v = value > this.highest ? this.highest : value > 0 ? Math.floor(value) : 0;
    this.counts[LatencyHistogram.slot(v)]++;
    this.total++;
  }

  reset(): void {
    this.counts.fill(0);
    this.total = 0;
  }

  /** The smallest recorded value (bucket-rounded up) at or below which `percentile` % of the values lie; 0 when empty. */
  valueAtPercentile(percentile: number): number {
    if (this.total === 0) return 0;
    const wanted = Math.max(1, Math.ceil((percentile / 100) * this.total));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i];
      if (seen >= wanted) return LatencyHistogram.upper(i);
    }
    return this.highest;
  }

  /**
   * The same over the values recorded since `mark` (a copy of the counts this returned before;
   * none: since the start). Reads the whole array, so it is for a once-a-second reader (the
   * dashboards' live percentiles), never the request path.
   */
  sinceMark(mark: Float64Array | undefined, percentiles: readonly number[]): { mark: Float64Array; count: number; values: number[] } {
    const now = Float64Array.from(this.counts);
    const window = new LatencyHistogram(this.highest);
    let count = 0;
    for (let i = 0; i < now.length; i++) {
      const n = now[i] - (mark === undefined ? 0 : mark[i]);
      // a reset since the mark leaves negative differences: count those slots from zero
      window.counts[i] = n >= 0 ? n : now[i];
      count += window.counts[i];
    }
    window.total = count;
    return { mark: now, count, values: percentiles.map((p) => window.valueAtPercentile(p)) };
  }

  /** The counts as [slot, count] pairs of the slots that hold any: what another process's histogram adds (mock serve --workers). */
  sparse(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i] > 0) out.push([i, this.counts[i]]);
    return out;
  }

  /** Adds counts that sparse() gave (of a histogram with the same highest value). */
  add(sparse: ReadonlyArray<readonly [number, number]>): void {
    for (const [slot, count] of sparse) {
      if (slot < 0 || slot >= this.counts.length) continue;
      this.counts[slot] += count;
      this.total += count;
    }
  }

  private static slot(v: number): number {
    if (v < EXACT) return v;
    // the power of two below v, counted from 2^11: each has SUB_BUCKETS slots
    const shift = 31 - Math.clz32(v) - 10;
    return EXACT + (shift - 1) * SUB_BUCKETS + ((v >>> shift) - SUB_BUCKETS);
  }

  /** The largest value a slot holds. */
  private static upper(slot: number): number {
    if (slot < EXACT) return slot;
    const shift = Math.floor((slot - EXACT) / SUB_BUCKETS) + 1;
    const sub = ((slot - EXACT) % SUB_BUCKETS) + SUB_BUCKETS;
    return (sub + 1) * 2 ** shift - 1;
  }
}

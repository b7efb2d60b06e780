// Latency histograms (hdr-histogram-js), recorded in microseconds in the workers, shipped to the
// main thread as compressed base64 and merged there, so percentiles are over every request of
// every worker, not averages of per-worker percentiles.
import * as hdr from 'hdr-histogram-js';

export type Histogram = hdr.Histogram;

/** One microsecond resolution up to one hour, three significant digits. */
export function createHistogram(): Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
}

export function encodeHistogram(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

/** Adds every encoded histogram into a fresh one. */
export function mergeHistograms(encoded: Iterable<string | Histogram>): Histogram {
  const total = createHistogram();
  for (const item of encoded) total.add(typeof item === 'string' ? hdr.decodeFromCompressedBase64(item) : item);
  return total;
}

export interface LatencySummary {
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

const ms = (us: number): number => Math.round(us) / 1000;

/** Milliseconds, microsecond precision; all zero when nothing was recorded. */
export function summarize(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { min: 0, mean: 0, p50: 0, p90: 0, p95: 0, p99: 0, max: 0 };
  return {
    min: ms(h.minNonZeroValue),
    mean: ms(h.mean),
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p95: ms(h.getValueAtPercentile(95)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
  };
}

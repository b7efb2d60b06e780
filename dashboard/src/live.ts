import { Observable } from './observable';
import { RingBuffer } from './ring-buffer';
import { openStream, type StreamMode } from './stream';
import type { LogEntry, StreamMetrics } from './types';

/** Entries the live log holds; older ones are overwritten. */
export const LOG_CAPACITY = 10_000;
/** Points the charts keep: five minutes at one a second. */
const HISTORY = 300;

/** Columns as uPlot takes them: time (seconds), rate, error rate (%), p50, p95, p99. */
export type Series = [number[], number[], number[], Array<number | null>, Array<number | null>, Array<number | null>];

const logBuffer = new RingBuffer<LogEntry>(LOG_CAPACITY);
/** Notified on every batch of entries; views redraw at most once a frame and ten times a second (useFrameThrottled). */
export const logs = new Observable(logBuffer);
export const latest = new Observable<StreamMetrics | null>(null);
export const history = new Observable<Series>([[], [], [], [], [], []]);
export const streamMode = new Observable<StreamMode>('connecting');
/** Entries nothing matched, counted as they arrive: the unmatched page refreshes when it grows. */
export const unmatchedSeen = new Observable(0);

function record(m: StreamMetrics): void {
  const series = history.value;
  const point = [Date.parse(m.ts) / 1000, m.requests_per_second, m.error_rate * 100, m.response_time_ms.p50, m.response_time_ms.p95, m.response_time_ms.p99];
  series.forEach((column, i) => {
    (column as Array<number | null>).push(point[i]);
    if (column.length > HISTORY) column.shift();
  });
  history.notify();
  latest.set(m);
}

/** Starts the feed once for the page's life: every page reads the same buffer and history. */
export function startLive(): void {
  openStream({
    metrics: record,
    logs(entries) {
      let unmatched = 0;
      for (const entry of entries) {
        logBuffer.push(entry);
        if (entry.route === null) unmatched++;
      }
      logs.notify();
      if (unmatched > 0) unmatchedSeen.set(unmatchedSeen.value + unmatched);
    },
    mode: (mode) => streamMode.set(mode),
  });
}

export function clearLog(): void {
  logBuffer.clear();
  logs.notify();
}

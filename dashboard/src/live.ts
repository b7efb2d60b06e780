import { get } from './api';
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
/** Entries the server's stream left out for its rate limit (1,000 a second), since the log was last cleared. */
export const skipped = new Observable(0);
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

/** What the server's request log keeps, and so what GET /__mock/logs can fill in. */
const SERVER_KEEPS = 1000;
/** Entries the stream delivers while the log is being filled in; null when no fill runs. */
let held: LogEntry[] | null = null;
let fillAgain = false;

function take(entries: LogEntry[]): void {
  let unmatched = 0;
  for (const entry of entries) {
    logBuffer.push(entry);
    if (entry.route === null) unmatched++;
  }
  logs.notify();
  if (unmatched > 0) unmatchedSeen.set(unmatchedSeen.value + unmatched);
}

/**
 * Fills in what the stream did not bring (before the page opened, while the tab was hidden): the
 * server's newest entries not held yet, oldest first, then what the stream brought meanwhile.
 */
async function fillIn(): Promise<void> {
  // one fill at a time; a subscription meanwhile (the tab hidden and shown again) asks for one more
  if (held !== null) return void (fillAgain = true);
  held = [];
  const recent = await get<LogEntry[]>(`logs?limit=${SERVER_KEEPS}`).catch(() => []);
  const known = new Set(held.map((e) => e.id));
  for (let i = 0; i < Math.min(logBuffer.size, SERVER_KEEPS); i++) known.add(logBuffer.at(i).id);
  const arrived = held;
  held = null;
  take(recent.filter((e) => !known.has(e.id)).reverse());
  take(arrived);
  if (fillAgain) {
    fillAgain = false;
    await fillIn();
  }
}

/**
 * Starts the feed once for the page's life: every page reads the same buffer and history. A hidden
 * tab stops the log entries (the server then serialises nothing for it) and fills in on its return.
 */
export function startLive(): void {
  const stream = openStream({
    metrics: record,
    logs(entries, dropped) {
      if (dropped > 0) skipped.set(skipped.value + dropped);
      if (held === null) take(entries);
      else for (const entry of entries) held.push(entry);
    },
    mode: (mode) => streamMode.set(mode),
    subscribed: () => void fillIn(),
  });
  const follow = (): void => stream.logs(!document.hidden);
  document.addEventListener('visibilitychange', follow);
  follow();
}

export function clearLog(): void {
  logBuffer.clear();
  skipped.set(0);
  logs.notify();
}

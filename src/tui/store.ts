import { Ring } from './ring.js';
import type { LogEntry, MetricsSample, StreamStatus } from './types.js';

/** What the views read of the live data: one immutable snapshot per redraw. */
export interface LiveState {
  /** The newest request log entries, oldest first (at most the store's log capacity). */
  logs: readonly LogEntry[];
  /** Entries received since start (the log keeps only the newest). */
  received: number;
  /** Entries the stream left out for its rate limit since start (the metrics count them). */
  skipped: number;
  /** Metrics samples, oldest first (at most the store's sample capacity). */
  samples: readonly MetricsSample[];
  stream: StreamStatus;
}

export interface LiveStoreOptions {
  logCapacity?: number;
  sampleCapacity?: number;
  /** The shortest time between two snapshots (redraws): 100 ms, at most 10 a second. */
  minIntervalMs?: number;
}

/**
 * The live data of the terminal dashboard. Entries and samples arrive as fast as the stream sends
 * them; listeners hear of them at most once per `minIntervalMs`, with everything that came
 * meanwhile in one snapshot, so a flood of requests costs one redraw per interval, never one per
 * entry.
 */
export class LiveStore {
  private readonly logs: Ring<LogEntry>;
  private readonly samples: Ring<MetricsSample>;
  private received = 0;
  private skipped = 0;
  private stream: StreamStatus = { mode: 'connecting' };
  private snapshot: LiveState;
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private lastFlush = 0;
  private readonly minIntervalMs: number;
  /** Snapshots published: what the throttle is measured by. */
  flushes = 0;

  constructor(options: LiveStoreOptions = {}) {
    this.logs = new Ring(options.logCapacity ?? 1000);
    this.samples = new Ring(options.sampleCapacity ?? 300);
    this.minIntervalMs = options.minIntervalMs ?? 100;
    this.snapshot = this.build();
  }

  addLogs(entries: readonly LogEntry[]): void {
    if (entries.length === 0) return;
    for (const entry of entries) this.logs.push(entry);
    this.received += entries.length;
    this.changed();
  }

  addSkipped(count: number): void {
    if (count <= 0) return;
    this.skipped += count;
    this.changed();
  }

  addSample(sample: MetricsSample): void {
    this.samples.push(sample);
    this.changed();
  }

  setStream(stream: StreamStatus): void {
    if (stream.mode === this.stream.mode && stream.detail === this.stream.detail) return;
    this.stream = stream;
    this.changed();
  }

  getSnapshot = (): LiveState => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Publishes what is pending now (tests, and the last redraw). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.lastFlush = Date.now();
    this.flushes += 1;
    this.snapshot = this.build();
    for (const listener of this.listeners) listener();
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  private changed(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastFlush + this.minIntervalMs - Date.now());
    // even with no wait, a timer: what arrives in this event-loop turn joins the same snapshot
    this.timer = setTimeout(() => this.flush(), wait);
  }

  private build(): LiveState {
    return { logs: this.logs.toArray(), received: this.received, skipped: this.skipped, samples: this.samples.toArray(), stream: this.stream };
  }
}

import type { DriftMismatch, DriftObservation } from './observation.js';
import { MAX_CAPTURE_IDS, type WebhookPayload } from './payload.js';

/** Identical mismatches seen within one window: the first one's details, how many, when. */
export type Burst = WebhookPayload['data'];

/**
 * Identical mismatches (same method, path, type, field and location) seen within `windowMs` of
 * the first become one burst, handed to `close` when the window ends: a client repeating a bad
 * request a thousand times makes one event with a count. The window is fixed from the first
 * mismatch, so a steady stream still reports once a window.
 */
export class Debouncer {
  private readonly open = new Map<string, { burst: Burst; timer: NodeJS.Timeout }>();

  constructor(
    private readonly windowMs: number,
    private readonly close: (burst: Burst) => void,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** Counts the mismatch into its open burst: true; false when it would open a new one (the caller decides whether it may). */
  add(observation: DriftObservation, mismatch: DriftMismatch, now: Date, mayOpen: () => boolean): boolean {
    const key = JSON.stringify([observation.method.toUpperCase(), observation.path, mismatch.type, mismatch.field, mismatch.location]);
    const known = this.open.get(key);
    if (known !== undefined) {
      const data = known.burst;
      data.count++;
      data.last_seen = now.toISOString();
      if (data.capture_ids.length < MAX_CAPTURE_IDS && !data.capture_ids.includes(observation.capture_id)) data.capture_ids.push(observation.capture_id);
      return true;
    }
    if (!mayOpen()) return false;
    const seen = now.toISOString();
    const burst: Burst = {
      method: observation.method.toUpperCase(),
      path: observation.path,
      ...(observation.operation === undefined ? {} : { operation: observation.operation }),
      mismatch: { type: mismatch.type, field: mismatch.field, location: mismatch.location, message: mismatch.message, severity: mismatch.severity },
      count: 1,
      first_seen: seen,
      last_seen: seen,
      capture_ids: [observation.capture_id],
    };
    const timer = setTimeout(() => this.end(key), this.windowMs);
    this.open.set(key, { burst, timer });
    return true;
  }

  /** Ends every open window now. */
  flush(): void {
    for (const key of [...this.open.keys()]) this.end(key);
  }

  /** Forgets the open windows without reporting them. */
  clear(): void {
    for (const { timer } of this.open.values()) clearTimeout(timer);
    this.open.clear();
  }

  private end(key: string): void {
    const entry = this.open.get(key);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.open.delete(key);
    this.close(entry.burst);
  }
}

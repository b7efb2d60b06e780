import { andThen, MemoryStore, smallRecordsBudget, type Awaitable, type Store } from '../../store/index.js';

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerSnapshot {
  state: BreakerState;
  consecutive_failures: number;
  consecutive_successes: number;
  /** When it last opened, while open or half-open; null when closed. */
  opened_at: string | null;
  /** When an open breaker starts letting probes through; null unless open. */
  next_attempt_at: string | null;
  /** Times it opened. */
  trips: number;
  /** Requests admit() refused. */
  rejected: number;
}

/** A breaker's changing numbers, as the `circuit-breakers` store holds them. */
export interface BreakerRecord {
  state: BreakerState;
  failures: number;
  successes: number;
  /** Probes in flight while half-open. */
  probes: number;
  openedAt: number | null;
  trips: number;
  rejected: number;
}

/** The `circuit-breakers` store's budget: one small record per breaker (one per server today), refused past it. */
export const breakerBudget = smallRecordsBudget<BreakerRecord>('observability.chaos.circuit_breaker');

const closed = (): BreakerRecord => ({ state: 'closed', failures: 0, successes: 0, probes: 0, openedAt: null, trips: 0, rejected: 0 });

/**
 * circuit_breaker: closed until failureThreshold consecutive failures, then open (every request
 * refused) for timeoutMs, then half-open: at most successThreshold probes in flight at a time;
 * successThreshold consecutive successes close it, any failure opens it again with a new timeout.
 *
 * A server calls admit() for each request and record() with the outcome of each one admitted.
 * Outcomes arriving while open, or while half-open with no probe in flight, belong to requests
 * admitted before the breaker opened and are ignored. `now` is epoch milliseconds: snapshot()
 * reports times as ISO strings of it. Its numbers live in the `circuit-breakers` store under `key`,
 * each step one Store.update, so instances sharing the store share the breaker.
 */
export class CircuitBreaker {
  private readonly o: { failureThreshold: number; successThreshold: number; timeoutMs: number; now: () => number };

  constructor(
    o: { failureThreshold: number; successThreshold: number; timeoutMs: number; now: () => number },
    private readonly store: Store<BreakerRecord> = new MemoryStore('circuit-breakers', breakerBudget),
    private readonly key = 'server',
  ) {
    for (const key of ['failureThreshold', 'successThreshold'] as const) {
      if (!(Number.isInteger(o[key]) && o[key] >= 1)) throw new RangeError(`a circuit breaker needs ${key} >= 1 (got ${o[key]})`);
    }
    if (!(o.timeoutMs >= 0)) throw new RangeError(`a circuit breaker needs timeoutMs >= 0 (got ${o.timeoutMs})`);
    this.o = o;
  }

  get state(): Awaitable<BreakerState> {
    return andThen(this.snapshot(), (snapshot) => snapshot.state);
  }

  admit(): Awaitable<boolean> {
    let admitted = false;
    const stored = this.store.update(this.key, (record = closed()) => {
      this.advance(record);
      if (record.state === 'closed') admitted = true;
      else if (record.state === 'half_open' && record.probes < this.o.successThreshold) {
        record.probes++;
        admitted = true;
      } else record.rejected++;
      return record;
    });
    return andThen(stored, () => admitted);
  }

  record(failed: boolean): Awaitable<void> {
    const stored = this.store.update(this.key, (record = closed()) => {
      this.advance(record);
      if (record.state === 'open' || (record.state === 'half_open' && record.probes === 0)) return record;
      if (record.state === 'half_open') record.probes--;
      if (failed) {
        record.failures++;
        record.successes = 0;
        if (record.state === 'half_open' || record.failures >= this.o.failureThreshold) this.open(record);
      } else {
        record.successes++;
        record.failures = 0;
        if (record.state === 'half_open' && record.successes >= this.o.successThreshold) record.state = 'closed';
      }
      return record;
    });
    return andThen(stored, () => undefined);
  }

  snapshot(): Awaitable<BreakerSnapshot> {
    return andThen(this.store.get(this.key), (held = closed()) => {
      const record = { ...held };
      this.advance(record);
      const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
      return {
        state: record.state,
        consecutive_failures: record.failures,
        consecutive_successes: record.successes,
        opened_at: record.state === 'closed' ? null : iso(record.openedAt),
        next_attempt_at: record.state === 'open' ? iso(record.openedAt! + this.o.timeoutMs) : null,
        trips: record.trips,
        rejected: record.rejected,
      };
    });
  }

  /** Starts over, closed (the settings changed). */
  reset(): Awaitable<boolean> {
    return this.store.delete(this.key);
  }

  private open(record: BreakerRecord): void {
    record.state = 'open';
    record.openedAt = this.o.now();
    record.probes = 0;
    record.trips++;
  }

  /** Open turns half-open once the timeout has passed, checked whenever the breaker is used or read. */
  private advance(record: BreakerRecord): void {
    if (record.state === 'open' && this.o.now() - record.openedAt! >= this.o.timeoutMs) {
      record.state = 'half_open';
      record.failures = 0;
      record.successes = 0;
    }
  }
}

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

/**
 * circuit_breaker: closed until failureThreshold consecutive failures, then open (every request
 * refused) for timeoutMs, then half-open: at most successThreshold probes in flight at a time;
 * successThreshold consecutive successes close it, any failure opens it again with a new timeout.
 *
 * A server calls admit() for each request and record() with the outcome of each one admitted.
 * Outcomes arriving while open, or while half-open with no probe in flight, belong to requests
 * admitted before the breaker opened and are ignored. `now` is epoch milliseconds: snapshot()
 * reports times as ISO strings of it.
 */
export class CircuitBreaker {
  private current: BreakerState = 'closed';
  private failures = 0;
  private successes = 0;
  private probes = 0;
  private openedAt: number | null = null;
  private trips = 0;
  private rejected = 0;
  private readonly o: { failureThreshold: number; successThreshold: number; timeoutMs: number; now: () => number };

  constructor(o: { failureThreshold: number; successThreshold: number; timeoutMs: number; now: () => number }) {
    for (const key of ['failureThreshold', 'successThreshold'] as const) {
      if (!(Number.isInteger(o[key]) && o[key] >= 1)) throw new RangeError(`a circuit breaker needs ${key} >= 1 (got ${o[key]})`);
    }
    if (!(o.timeoutMs >= 0)) throw new RangeError(`a circuit breaker needs timeoutMs >= 0 (got ${o.timeoutMs})`);
    this.o = o;
  }

  get state(): BreakerState {
    this.advance();
    return this.current;
  }

  admit(): boolean {
    this.advance();
    if (this.current === 'closed') return true;
    if (this.current === 'half_open' && this.probes < this.o.successThreshold) {
      this.probes++;
      return true;
    }
    this.rejected++;
    return false;
  }

  record(failed: boolean): void {
    this.advance();
    if (this.current === 'open' || (this.current === 'half_open' && this.probes === 0)) return;
    if (this.current === 'half_open') this.probes--;
    if (failed) {
      this.failures++;
      this.successes = 0;
      if (this.current === 'half_open' || this.failures >= this.o.failureThreshold) this.open();
    } else {
      this.successes++;
      this.failures = 0;
      if (this.current === 'half_open' && this.successes >= this.o.successThreshold) this.current = 'closed';
    }
  }

  snapshot(): BreakerSnapshot {
    const state = this.state;
    const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
    return {
      state,
      consecutive_failures: this.failures,
      consecutive_successes: this.successes,
      opened_at: state === 'closed' ? null : iso(this.openedAt),
      next_attempt_at: state === 'open' ? iso(this.openedAt! + this.o.timeoutMs) : null,
      trips: this.trips,
      rejected: this.rejected,
    };
  }

  private open(): void {
    this.current = 'open';
    this.openedAt = this.o.now();
    this.probes = 0;
    this.trips++;
  }

  /** Open turns half-open once the timeout has passed, checked whenever the breaker is used or read. */
  private advance(): void {
    if (this.current === 'open' && this.o.now() - this.openedAt! >= this.o.timeoutMs) {
      this.current = 'half_open';
      this.failures = 0;
      this.successes = 0;
    }
  }
}

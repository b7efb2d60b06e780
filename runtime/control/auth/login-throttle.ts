/**
 * Failed logins per key (a username, a client address). Five failures within a minute lock the
 * key for 2 s; every failure after that locks it again for twice as long, up to 15 minutes. A
 * success clears the key; a key with no failure for an hour is forgotten. Guessing a password thus
 * slows to about four tries an hour, while a user who mistyped waits seconds.
 */
export interface ThrottleLimits {
  window_ms: number;
  free_failures: number;
  first_lock_ms: number;
  max_lock_ms: number;
  /** Quiet time after which a key starts afresh. */
  forget_ms: number;
  /** Keys kept at most: a client spraying usernames cannot grow the table without bound. */
  max_keys: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { window_ms: 60_000, free_failures: 5, first_lock_ms: 2_000, max_lock_ms: 15 * 60_000, forget_ms: 60 * 60_000, max_keys: 10_000 };

interface Strikes {
  /** Times of the failures within the window, oldest first. */
  failures: number[];
  /** Locks served so far: the next one lasts first_lock_ms · 2^locks. */
  locks: number;
  lockedUntil: number;
}

export class LoginThrottle {
  private readonly keys = new Map<string, Strikes>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {}

  /** Whole seconds until every key may try again; 0 when none is locked. */
  retryAfterSeconds(keys: readonly string[]): number {
    const now = this.now();
    let until = now;
    for (const key of keys) until = Math.max(until, this.keys.get(key)?.lockedUntil ?? now);
    return Math.ceil((until - now) / 1000);
  }

  failed(keys: readonly string[]): void {
    const now = this.now();
    for (const key of keys) {
      const known = this.keys.get(key);
      const strikes = known === undefined || this.quiet(known, now) ? { failures: [], locks: 0, lockedUntil: 0 } : known;
      strikes.failures = strikes.failures.filter((at) => now - at < this.limits.window_ms);
      strikes.failures.push(now);
      if (strikes.locks > 0 || strikes.failures.length >= this.limits.free_failures) {
        strikes.lockedUntil = now + Math.min(this.limits.first_lock_ms * 2 ** strikes.locks, this.limits.max_lock_ms);
        strikes.locks++;
      }
      // re-inserted, so the map's order is least recently failed first
      this.keys.delete(key);
      this.keys.set(key, strikes);
    }
    this.forget(now);
  }

  succeeded(keys: readonly string[]): void {
    for (const key of keys) this.keys.delete(key);
  }

  private quiet(strikes: Strikes, now: number): boolean {
    return now - (strikes.failures.at(-1) ?? 0) > this.limits.forget_ms && strikes.lockedUntil <= now;
  }

  /** Oldest first: quiet keys, and the least recently failed ones past max_keys. */
  private forget(now: number): void {
    for (const [key, strikes] of this.keys) {
      if (!this.quiet(strikes, now) && this.keys.size <= this.limits.max_keys) break;
      this.keys.delete(key);
    }
  }
}

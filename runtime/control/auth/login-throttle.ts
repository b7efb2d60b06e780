import { createHash } from 'node:crypto';
import type { Store, StoreBudget } from '../../store/index.js';

/**
 * Failed logins per key (a username, a client address). Five failures within a minute lock the
 * key for 2 s; every failure after that locks it again for twice as long, up to 15 minutes. A
 * success clears the key; a key with no failure for an hour starts afresh. Guessing a password thus
 * slows to about four tries an hour, while a user who mistyped waits seconds.
 */
export interface ThrottleLimits {
  window_ms: number;
  free_failures: number;
  first_lock_ms: number;
  max_lock_ms: number;
  /** Quiet time after which a key starts afresh. */
  forget_ms: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { window_ms: 60_000, free_failures: 5, first_lock_ms: 2_000, max_lock_ms: 15 * 60_000, forget_ms: 60 * 60_000 };

/** One key's failures, in the `admin-login-throttle` store. */
export interface Strikes {
  /** Times of the last failures within the window, oldest first, at most free_failures. */
  failures: number[];
  /** Locks served so far: the next one lasts first_lock_ms · 2^locks. */
  locks: number;
  lockedUntil: number;
}

/** What one key costs besides its name: its strikes, the LRU's and the order's entries. */
const STRIKES_OVERHEAD = 320;
/** The most keys the throttle keeps, about: a client spraying usernames cannot grow it without bound. */
export const MAX_THROTTLE_KEYS = 10_000;

/**
 * The `admin-login-throttle` store's budget: keys are made up by whoever tries to log in, so past it
 * the least recently failed is forgotten and starts again with its free tries, as a quiet key does.
 * Forgetting errs towards letting a login be tried, never towards letting one in: the password is
 * checked all the same.
 */
export const throttleBudget = (maxKeys = MAX_THROTTLE_KEYS): StoreBudget<Strikes> => ({
  maxBytes: maxKeys * (STRIKES_OVERHEAD + 2 * 48),
  past: 'evict',
  setting: 'the login throttle (about 10,000 usernames and addresses)',
  forgotten: 'the failed logins of usernames and addresses',
  afterwards: ', which start again with their free tries',
  sizeOf: (key) => STRIKES_OVERHEAD + 2 * key.length,
});

/** The throttle's key of a username or address; a long one (no username is) by its digest, so that a key stays small. */
export function throttleKey(kind: 'user' | 'address', value: string): string {
  return `${kind}:${value.length <= 64 ? value : createHash('sha256').update(value).digest('base64url')}`;
}

/** Counts failures in the `admin-login-throttle` store, which instances and workers share: a guesser spreading tries over them gains nothing. */
export class LoginThrottle {
  constructor(
    private readonly store: Store<Strikes>,
    private readonly now: () => number = Date.now,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {}

  /** Whole seconds until every key may try again; 0 when none is locked. */
  async retryAfterSeconds(keys: readonly string[]): Promise<number> {
    const held = await Promise.all(keys.map((key) => this.store.get(key)));
    const now = this.now();
    let until = now;
    for (const strikes of held) until = Math.max(until, strikes?.lockedUntil ?? now);
    return Math.ceil((until - now) / 1000);
  }

  /** One more failure of each key, each as one step on the shared store. */
  async failed(keys: readonly string[]): Promise<void> {
    const now = this.now();
    const { window_ms, free_failures, first_lock_ms, max_lock_ms } = this.limits;
    await Promise.all(
      keys.map((key) =>
        this.store.update(key, (known) => {
          const strikes = known === undefined || this.quiet(known, now) ? { failures: [], locks: 0, lockedUntil: 0 } : known;
          const failures = [...strikes.failures.filter((at) => now - at < window_ms), now].slice(-free_failures);
          if (strikes.locks === 0 && failures.length < free_failures) return { failures, locks: 0, lockedUntil: strikes.lockedUntil };
          return { failures, locks: strikes.locks + 1, lockedUntil: now + Math.min(first_lock_ms * 2 ** strikes.locks, max_lock_ms) };
        }),
      ),
    );
  }

  async succeeded(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.store.delete(key)));
  }

  private quiet(strikes: Strikes, now: number): boolean {
    return now - (strikes.failures.at(-1) ?? 0) > this.limits.forget_ms && strikes.lockedUntil <= now;
  }
}

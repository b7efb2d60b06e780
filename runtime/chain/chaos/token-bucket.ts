/**
 * The rate limit's token bucket: holds max(burst, 1) tokens, starts full and refills continuously
 * at ratePerSecond, so the first second admits burst + rate requests and every later one the rate
 * (spec, "Limits"). A request takes a token or is refused with the exact wait for the next one.
 *
 * Kept as its equivalent GCRA form: one number, the time at which the bucket will be full again
 * (BucketRecord.full), instead of a token count refilled on each call; the tokens held at t are
 * capacity - (full - t) / interval. The number lives in the `rate-limits` store (BucketTable), so
 * instances sharing the store share the bucket; this class is the policy that moves it.
 *
 * For the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), a bucket has no
 * fixed window, so policy() states its sustainable pace: `quota` requests per `windowSeconds`, the
 * whole seconds it takes to refill from empty; a client keeping to it is never refused. state()
 * gives the whole tokens held now (`remaining`) and the seconds until the bucket is full again
 * (`resetSeconds`).
 */
/** A bucket's one changing number: the instant (ms on the bucket's clock) it will be full again; 0 for a new bucket (full). */
export interface BucketRecord {
  full: number;
}

export class TokenBucket {
  readonly ratePerSecond: number;
  readonly capacity: number;
  /** Milliseconds per token. */
  private readonly interval: number;
  private readonly now: () => number;

  /** `now` in milliseconds (a monotonic clock in a server, a fake one in tests). */
  constructor(o: { ratePerSecond: number; burst: number; now: () => number }) {
    if (!(o.ratePerSecond > 0 && Number.isFinite(o.ratePerSecond))) throw new RangeError(`a token bucket needs ratePerSecond > 0 (got ${o.ratePerSecond})`);
    this.ratePerSecond = o.ratePerSecond;
    this.capacity = Math.max(o.burst, 1);
    this.interval = 1000 / o.ratePerSecond;
    this.now = o.now;
  }

  /** Takes a token from the bucket `record` holds, moving it (the caller stores it) when one is taken. */
  take(record: BucketRecord): Taken {
    const t = this.now();
    const full = Math.max(record.full, t);
    // Refused while less than one whole token is held, i.e. full - t > (capacity - 1) · interval.
    const retryAfterMs = full - t - (this.capacity - 1) * this.interval;
    if (retryAfterMs > SLACK_MS) return { ok: false, retryAfterMs };
    record.full = full + this.interval;
    return { ok: true, remaining: this.remainingAt(record, t) };
  }

  policy(): { quota: number; windowSeconds: number } {
    // The 1e-9s: 2000 tokens at 1000/60 a second is 119.99999999999999 seconds in doubles.
    const windowSeconds = Math.max(1, Math.ceil(this.capacity / this.ratePerSecond - 1e-9));
    return { quota: Math.floor(this.ratePerSecond * windowSeconds + 1e-9), windowSeconds };
  }

  state(record: BucketRecord): { remaining: number; resetSeconds: number } {
    const t = this.now();
    return { remaining: this.remainingAt(record, t), resetSeconds: Math.max(0, Math.ceil((record.full - t - SLACK_MS) / 1000)) };
  }

  private remainingAt(record: BucketRecord, t: number): number {
    return Math.floor(this.capacity - Math.max(0, record.full - t) / this.interval + SLACK_MS / this.interval);
  }
}

export type Taken = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

// Sums of 1000/rate drift by a few ulps; a microsecond's slack keeps whole-millisecond boundaries
// where arithmetic says they are.
const SLACK_MS = 1e-3;

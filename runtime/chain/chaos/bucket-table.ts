import { andThen, MemoryStore, type Awaitable, type Store, type StoreBudget } from '../../store/index.js';
import type { BucketRecord, Taken, TokenBucket } from './token-bucket.js';

/** What one bucket costs besides its key: the record, the LRU's and the order's entries. */
const BUCKET_OVERHEAD = 128;
/** The most distinct keys (client addresses, routes) the rate limiter keeps a bucket for, about. */
export const MAX_BUCKETS = 10_000;

/**
 * The `rate-limits` store's budget: buckets are made up by clients (one per address for per_ip), so
 * past it the least recently used is forgotten, and comes back with a full bucket: eviction errs
 * on the side of admitting. About MAX_BUCKETS buckets of short keys.
 */
export const bucketBudget = (maxBytes = MAX_BUCKETS * (BUCKET_OVERHEAD + 2 * 48)): StoreBudget<BucketRecord> => ({
  maxBytes,
  past: 'evict',
  setting: 'the rate limiter (about 10,000 client addresses or routes)',
  forgotten: 'the rate-limit buckets',
  sizeOf: (key) => BUCKET_OVERHEAD + 2 * key.length,
});

/**
 * One token bucket per key (client address for per_ip, route for per_endpoint), held in the
 * `rate-limits` store, all moved by one policy. Taking is one Store.update, so instances sharing
 * the store share the limit.
 */
export class BucketTable {
  constructor(
    readonly policy: TokenBucket,
    private readonly store: Store<BucketRecord> = new MemoryStore('rate-limits', bucketBudget()),
  ) {}

  take(key: string): Awaitable<Taken> {
    let taken: Taken | undefined;
    const stored = this.store.update(key, (record = { full: 0 }) => {
      taken = this.policy.take(record);
      return taken.ok ? record : undefined;
    });
    return andThen(stored, () => taken!);
  }

  /** The key's bucket now (a key never seen: full). */
  state(key: string): Awaitable<{ remaining: number; resetSeconds: number }> {
    return andThen(this.store.get(key), (record = { full: 0 }) => this.policy.state(record));
  }

  /** Every bucket starts over (the settings changed). */
  reset(): Awaitable<number> {
    return this.store.clear();
  }

  get size(): number {
    return this.store.usage().entries;
  }
}

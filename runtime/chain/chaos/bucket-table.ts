import type { TokenBucket } from './token-bucket.js';

/**
 * One token bucket per key (client address for per_ip, route for per_endpoint), at most maxKeys of
 * them: the least recently used is evicted, so a million distinct addresses cannot grow memory
 * without bound. A Map iterates in insertion order, and a key is re-inserted on every use, so the
 * first key is always the least recently used. An evicted key that comes back starts with a full
 * bucket: eviction errs on the side of admitting.
 */
export class BucketTable {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly maxKeys: number;
  private readonly make: () => TokenBucket;

  constructor(o: { maxKeys: number; make: () => TokenBucket }) {
    if (!(Number.isInteger(o.maxKeys) && o.maxKeys >= 1)) throw new RangeError(`a bucket table needs maxKeys >= 1 (got ${o.maxKeys})`);
    this.maxKeys = o.maxKeys;
    this.make = o.make;
  }

  take(key: string): ReturnType<TokenBucket['take']> {
    return this.bucket(key).take();
  }

  /** The key's bucket, created when missing and marked most recently used (for policy() and state()). */
  bucket(key: string): TokenBucket {
    let bucket = this.buckets.get(key);
    if (bucket !== undefined) {
      this.buckets.delete(key);
    } else {
      bucket = this.make();
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, bucket);
    return bucket;
  }

  get size(): number {
    return this.buckets.size;
  }
}

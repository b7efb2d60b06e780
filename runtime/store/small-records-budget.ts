import type { StoreBudget } from './store.js';

/**
 * The budget of a store of a few small fixed-size records (one per server today: the breaker, the
 * error pattern's position): 1 MiB, refused past it, each record 256 bytes and its key.
 * `setting`: what configures the records, named in the refusal.
 */
export const smallRecordsBudget = <V>(setting: string): StoreBudget<V> => ({
  maxBytes: 1024 * 1024,
  past: 'refuse',
  setting,
  sizeOf: (key) => 256 + 2 * key.length,
});

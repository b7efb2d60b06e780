import type { Random } from './random.js';

/** A specialised generator emitted at build time; `d` is the nesting depth of its value. */
export type Generate = (d: number) => unknown;

export interface CollectionPrimitives {
  pick<T>(values: readonly T[]): T;
  /** Between min and max distinct elements of `values`. */
  sample<T>(values: readonly T[], min: number, max: number): T[];
  /** Between min and max items made by `item(d)`. */
  array(item: Generate, d: number, min: number, max: number): unknown[];
  /** Like array(), but items are distinct by JSON value (fewer if `item` cannot vary enough). */
  uniqueArray(item: Generate, d: number, min: number, max: number): unknown[];
  /** An object with between min and max entries under distinct word keys, values from `value(d)`. */
  record(value: Generate, d: number, min: number, max: number): Record<string, unknown>;
  /** Sets a discriminator on an object-valued variant (leaves other values alone). */
  tag(value: unknown, property: string, tagValue: string): unknown;
  /** A fresh copy of a shared literal (non-scalar enum members). */
  clone<T>(value: T): T;
}

const ATTEMPTS_PER_ITEM = 10;

export function collectionPrimitives(random: Random): CollectionPrimitives {
  const { int, pick } = random;
  const nouns = random.faker.definitions.word.noun ?? [];
  const keyOf = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : value);

  return {
    pick,
    sample(values, min, max) {
      // Partial Fisher-Yates on a copy: the first n slots end up a uniform distinct sample.
      const pool = values.slice();
      const n = Math.min(int(min, max), pool.length);
      for (let i = 0; i < n; i++) {
        const j = int(i, pool.length - 1);
        const swap = pool[i]!;
        pool[i] = pool[j]!;
        pool[j] = swap;
      }
      pool.length = n;
      return pool;
    },
    array(item, d, min, max) {
      const out: unknown[] = [];
      for (let n = int(min, max); n > 0; n--) out.push(item(d));
      return out;
    },
    uniqueArray(item, d, min, max) {
      const out: unknown[] = [];
      const seen = new Set<unknown>();
      const n = int(min, max);
      for (let attempts = n * ATTEMPTS_PER_ITEM; out.length < n && attempts > 0; attempts--) {
        const value = item(d);
        const key = keyOf(value);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(value);
      }
      return out;
    },
    record(value, d, min, max) {
      const out: Record<string, unknown> = {};
      const n = int(min, max);
      for (let i = 0; i < n; i++) {
        let key = pick(nouns).replace(/[^A-Za-z0-9]/g, '').toLowerCase();
        // A collision (or __proto__, which would not be an own key) falls back to a numbered key.
        if (key === '' || key in out) key = `key${i + 1}`;
        out[key] = value(d);
      }
      return out;
    },
    tag(value, property, tagValue) {
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        (value as Record<string, unknown>)[property] = tagValue;
      }
      return value;
    },
    clone: (value) => structuredClone(value),
  };
}

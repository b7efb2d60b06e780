import type { CollectionPrimitives } from '../contract/index.js';
import type { Random } from './random.js';

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
    array(item, d, min, max, first = []) {
      const out = first;
      for (let n = int(min, max) - out.length; n > 0; n--) out.push(item(d));
      return out;
    },
    uniqueArray(item, d, min, max, first = []) {
      const out: unknown[] = [];
      const seen = new Set<unknown>();
      for (const value of first) {
        const key = keyOf(value);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(value);
      }
      const n = Math.max(int(min, max), out.length);
      for (let attempts = n * ATTEMPTS_PER_ITEM; out.length < n && attempts > 0; attempts--) {
        const value = item(d);
        const key = keyOf(value);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(value);
      }
      return out;
    },
    record(value, d, min, max, key) {
      const out: Record<string, unknown> = {};
      const n = int(min, max);
      if (key) {
        // Keys the schema constrains (propertyNames, a pattern) may repeat: draw again, a few times.
        for (let count = 0, attempts = n * ATTEMPTS_PER_ITEM; count < n && attempts > 0; attempts--) {
          const name = String(key(d));
          if (name === '__proto__' || Object.hasOwn(out, name)) continue;
          out[name] = value(d);
          count++;
        }
        return out;
      }
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

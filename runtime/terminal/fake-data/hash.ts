/**
 * The 32-bit hashes every mocked value derives from. A value is a function of (seed, type, object,
 * field, arguments) and never of how many values came before it, so a field added to a query
 * leaves the others as they were. No allocation: these run once or more per field.
 */

/** murmur3's finaliser over h combined with v: a well-spread, order-sensitive combination. */
export function mix(h: number, v: number): number {
  let x = (Math.imul(h, 0x9e3779b1) + v) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** A string folded into h (FNV-1a over UTF-16 code units, then mixed). */
export function hashString(h: number, s: string): number {
  let x = (h ^ 0x811c9dc5) | 0;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 0x01000193);
  return mix(x, s.length);
}

/** Any JSON-like value (field arguments, representations) folded into h; object keys in their order. */
export function hashValue(h: number, value: unknown): number {
  return fold(h, value, false);
}

/**
 * A protobuf message (in protobufjs' object form) folded into h: the same message gives the same
 * hash in every process (bytes by content); keys sorted, as proto-loader's objects and hand-written
 * ones list fields in different orders.
 */
export function hashMessage(h: number, value: unknown): number {
  return fold(h, value, true);
}

/** One walk for both: a message hashes every number as text, bytes by content, and no bigints (proto-loader gives longs as strings). */
function fold(h: number, value: unknown, message: boolean): number {
  switch (typeof value) {
    case 'string':
      return hashString(mix(h, 1), value);
    case 'number':
      if (message) return hashString(mix(h, 2), String(value));
      return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? mix(mix(h, 2), value | 0) : hashString(mix(h, 3), String(value));
    case 'boolean':
      return mix(h, value ? 5 : 6);
    case 'bigint':
      return message ? h : hashString(mix(h, 7), value.toString());
    case 'object': {
      if (value === null) return mix(h, 8);
      if (message && value instanceof Uint8Array) {
        let x = mix(h, 11);
        for (let i = 0; i < value.length; i++) x = mix(x, value[i]!);
        return mix(x, value.length);
      }
      if (Array.isArray(value)) {
        let x = mix(h, 9);
        for (const item of value) x = fold(x, item, message);
        return mix(x, value.length);
      }
      let x = mix(h, 10);
      if (message) for (const key of Object.keys(value).sort()) x = foldEntry(x, value as Record<string, unknown>, key, true);
      else for (const key in value) x = foldEntry(x, value as Record<string, unknown>, key, false);
      return x;
    }
    default:
      return h;
  }
}

function foldEntry(h: number, record: Record<string, unknown>, key: string, message: boolean): number {
  const item = record[key];
  return item === undefined ? h : fold(hashString(h, key), item, message);
}

/** A float in [0, 1) from a hash. */
export const unit = (h: number): number => h / 4294967296;

/** An integer in [min, max] from a hash. */
export const between = (h: number, min: number, max: number): number => min + Math.floor(unit(h) * (max - min + 1));

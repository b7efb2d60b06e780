import type { Random } from './random.js';

export type CorruptionType = 'random_bytes' | 'truncate' | 'bit_flip';

/**
 * payload_corruption: a damaged copy of `body` (the input is never changed) and a detail for
 * X-Mock-Fault that says exactly what was done, so a client's checksum test can be checked:
 *
 * - bit_flip: n distinct bits flipped, n from 1 to min(8, bits): `bit_flip;bits=n`.
 * - random_bytes: k distinct bytes, k from 1 to min(16, length), each replaced by a different
 *   value: `random_bytes;bytes=k`.
 * - truncate: the first m bytes kept, m from 0 to length - 1: `truncate;kept=m`.
 *
 * An empty body has nothing to damage: it comes back as is, detail `<type>;empty`.
 */
export function corrupt(body: Uint8Array, type: CorruptionType, random: Random): { body: Uint8Array; detail: string } {
  if (body.length === 0) return { body, detail: `${type};empty` };
  const pick = (most: number): number => 1 + Math.floor(random.next() * most);
  switch (type) {
    case 'truncate': {
      const kept = Math.floor(random.next() * body.length);
      // Copied: Buffer's slice() would share the input's memory.
      return { body: new Uint8Array(body.subarray(0, kept)), detail: `truncate;kept=${kept}` };
    }
    case 'bit_flip': {
      const copy = new Uint8Array(body);
      const bits = distinctPositions(random, pick(Math.min(8, copy.length * 8)), copy.length * 8);
      for (const bit of bits) copy[bit >> 3]! ^= 1 << (bit & 7);
      return { body: copy, detail: `bit_flip;bits=${bits.length}` };
    }
    case 'random_bytes': {
      const copy = new Uint8Array(body);
      const bytes = distinctPositions(random, pick(Math.min(16, copy.length)), copy.length);
      // Adding 1-255 modulo 256: uniform over the 255 other values.
      for (const at of bytes) copy[at] = (copy[at]! + 1 + Math.floor(random.next() * 255)) & 0xff;
      return { body: copy, detail: `random_bytes;bytes=${bytes.length}` };
    }
  }
}

/**
 * `count` distinct integers of [0, range) by Floyd's algorithm: exactly `count` draws, whatever
 * the generator returns, where redrawing duplicates could loop.
 */
function distinctPositions(random: Random, count: number, range: number): number[] {
  const chosen = new Set<number>();
  for (let j = range - count; j < range; j++) {
    const candidate = Math.floor(random.next() * (j + 1));
    chosen.add(chosen.has(candidate) ? j : candidate);
  }
  return [...chosen];
}

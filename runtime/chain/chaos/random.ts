import { createFastRandomizer } from '../../../common/generate/fast-randomizer.js';

/**
 * Uniform draws in [0, 1): every random decision of chaos takes one, so a seed (`--seed`) makes a
 * run's latencies and faults repeatable and tests use a seeded one. common/generate's Random
 * satisfies it, so chaos may share the run's stream or keep its own.
 */
export interface Random {
  next(): number;
}

/** sfc32 (common/generate/fast-randomizer.ts); without a seed, a random one. */
export function seededRandom(seed?: number): Random {
  const randomizer = createFastRandomizer(seed);
  return { next: () => randomizer.next() };
}

export function pickOne<T>(random: Random, list: readonly T[]): T {
  if (list.length === 0) throw new RangeError('pickOne needs a non-empty list');
  return list[Math.floor(random.next() * list.length)]!;
}

/**
 * True with probability p. Always one draw, even for p <= 0 or p >= 1, so that changing a
 * probability does not shift every later decision of the same stream.
 */
export function chance(random: Random, p: number): boolean {
  return random.next() < p;
}

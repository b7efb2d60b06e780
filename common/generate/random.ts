import type { Faker } from '@faker-js/faker';
import { englishFaker } from '../english-faker.js';
import { createFastRandomizer } from './fast-randomizer.js';

/**
 * The one seeded source every primitive draws from: faker, randexp and our own helpers all
 * consume the same stream, so a seed fixes the whole sequence of generated values.
 */
export interface Random {
  readonly faker: Faker;
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(values: readonly T[]): T;
  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string;
}

export function createRandom(seed?: number): Random {
  const randomizer = createFastRandomizer(seed);
  const faker = englishFaker(randomizer);
  return {
    faker,
    next: () => randomizer.next(),
    // Clamped because (max - min + 1) is not exact beyond 2^53 and could overshoot max.
    int: (min, max) => Math.min(max, min + Math.floor(randomizer.next() * (max - min + 1))),
    pick: (values) => values[Math.floor(randomizer.next() * values.length)]!,
    chars(alphabet, length) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(randomizer.next() * alphabet.length)];
      return out;
    },
  };
}

import type { Faker } from '@faker-js/faker';
import { englishFaker } from '../english-faker.js';

/** Faker methods reachable by name, as template tokens address them. */
export type FakerModules = Record<string, Record<string, () => unknown>>;

/**
 * One Faker per runtime so a seed makes its output repeatable without touching the shared
 * default instance. `base` backs `en` for locale-neutral data (mime types, time zones...),
 * without which many `faker.<module>.<method>` tokens would throw.
 */
export function createFaker(seed?: number): Faker {
  const faker = englishFaker();
  if (seed !== undefined) faker.seed(seed);
  return faker;
}

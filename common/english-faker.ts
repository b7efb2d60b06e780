import type { Faker, Randomizer } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';

/**
 * A new Faker with the English locale (and `base`, which backs locale-neutral data such as mime
 * types and time zones). Built from the `locale/en` entry: the package's main entry loads every
 * locale, about 30 MB of memory a mock server never uses. Same definitions, same output per seed.
 */
export function englishFaker(randomizer?: Randomizer): Faker {
  const FakerClass = english.constructor as new (options: { locale: Faker['rawDefinitions']; randomizer?: Randomizer }) => Faker;
  return new FakerClass({ locale: english.rawDefinitions, randomizer });
}

import type { Faker, LocaleDefinition, Randomizer } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';
import { RESERVED_DOMAINS } from './reserved-domains.js';

/**
 * English, with the reserved domains as every e-mail provider and domain suffix: the locale's
 * are gmail.com, hotmail.com, yahoo.com and real suffixes, so `{{faker.email}}` (and
 * faker.internet.url, domainName …) named addresses that may belong to someone.
 */
const definitions: LocaleDefinition = {
  ...english.rawDefinitions,
  internet: { ...english.rawDefinitions.internet, free_email: [...RESERVED_DOMAINS], domain_suffix: [...RESERVED_DOMAINS] },
};

/**
 * A new Faker with the English locale (and `base`, which backs locale-neutral data such as mime
 * types and time zones). Built from the `locale/en` entry: the package's main entry loads every
 * locale, about 30 MB of memory a mock server never uses. Same definitions, same output per seed.
 */
export function englishFaker(randomizer?: Randomizer): Faker {
  const FakerClass = english.constructor as new (options: { locale: LocaleDefinition; randomizer?: Randomizer }) => Faker;
  return new FakerClass({ locale: definitions, randomizer });
}

import type { StringPrimitives } from '../contract/index.js';
import type { Random } from './random.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const LINKS = ['for', 'with', 'of', 'and'];
const LOCALES = ['en-US', 'en-GB', 'fr-FR', 'de-DE', 'es-ES', 'it-IT', 'ja-JP', 'pt-BR', 'nl-NL', 'sv-SE'];

export function stringPrimitives(random: Random): StringPrimitives {
  const { faker, int, pick, chars } = random;
  const definitions = faker.definitions;
  // Pools are read once: picking from an array is far cheaper than faker's option-parsing methods.
  const nouns = definitions.word.noun ?? [];
  const adjectives = definitions.word.adjective ?? [];
  const firstNames = definitions.person.first_name.generic ?? [];
  const lastNames = definitions.person.last_name.generic ?? [];
  const cities = definitions.location.city_name ?? [];
  const countries = definitions.location.country ?? [];
  const countryCodes = (definitions.location.country_code ?? []).map((code) => code.alpha2);
  const states = definitions.location.state ?? [];
  const timeZones = definitions.location.time_zone ?? [];

  const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const word = () => pick(nouns);
  const lettersOnly = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');
  const fit = (value: string, min: number, max: number) =>
    value.length > max ? value.slice(0, max) : value.length < min ? value + chars(LETTERS, min - value.length) : value;

  return {
    word,
    text(min, max) {
      let out = word();
      for (let words = int(1, 3); words > 1 || out.length < min; words--) out += ' ' + word();
      return fit(out, min, max);
    },
    sentence: () => capitalise(`${pick(adjectives)} ${word()} ${pick(LINKS)} ${pick(adjectives)} ${word()}.`),
    title: () => `${capitalise(pick(adjectives))} ${capitalise(word())}`,
    fit,
    firstName: () => pick(firstNames),
    lastName: () => pick(lastNames),
    fullName: () => `${pick(firstNames)} ${pick(lastNames)}`,
    username: () => lettersOnly(pick(firstNames)) + int(1, 99),
    company: () => faker.company.name(),
    city: () => pick(cities),
    country: () => pick(countries),
    countryCode: () => pick(countryCodes),
    state: () => pick(states),
    street: () => faker.location.streetAddress(),
    postcode: () => chars('0123456789', 5),
    phone: () => '+1' + int(2, 9) + chars('0123456789', 9),
    currency: () => faker.finance.currencyCode(),
    locale: () => pick(LOCALES),
    timeZone: () => pick(timeZones),
    mimeType: () => faker.system.mimeType(),
    shortId: () => chars(ALPHANUMERIC, 10),
    slug: () => `${pick(adjectives)}-${word()}`.toLowerCase().replace(/[^a-z0-9-]/g, ''),
    token: () => chars(HEX, 32),
    color: () => '#' + chars(HEX, 6),
    version: () => `${int(0, 9)}.${int(0, 20)}.${int(0, 50)}`,
  };
}

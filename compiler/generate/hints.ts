import { numberRange, textKind, type TextKind } from '../../common/field-kinds.js';

/**
 * Realistic values chosen from a property (or definition) name when the schema itself says
 * nothing more specific, by the field-name rules the GraphQL and gRPC mocks share
 * (common/field-kinds.ts). Callers still apply the schema's own bounds on top.
 */

/** The runtime call for each kind of text; undefined: the default text (English words). */
const CALLS: Record<TextKind, string | undefined> = {
  email: 'g.email()', url: 'g.url()', imageUrl: 'g.url()', avatarUrl: 'g.url()', domainName: 'g.hostname()',
  firstName: 'g.firstName()', lastName: 'g.lastName()', fullName: 'g.fullName()', userName: 'g.username()', jobTitle: 'g.title()', sex: undefined,
  phone: 'g.phone()', city: 'g.city()', country: 'g.country()', countryCode: 'g.countryCode()', state: 'g.state()', stateAbbr: 'g.state()', county: 'g.state()', zipCode: 'g.postcode()',
  streetAddress: 'g.street()', secondaryAddress: 'g.street()', fullAddress: 'g.street()', streetName: 'g.street()', timeZone: 'g.timeZone()', locale: 'g.locale()',
  companyName: 'g.company()', catchPhrase: 'g.sentence()', productName: 'g.title()', productCategory: 'g.word()', productMaterial: 'g.word()', thingName: 'g.title()', bookTitle: 'g.title()', title: 'g.title()',
  currencyCode: 'g.currency()', currencyName: undefined, currencySymbol: undefined, iban: undefined, bic: undefined, bitcoinAddress: undefined, creditCard: undefined,
  hexColor: 'g.color()', colorName: 'g.word()', ipv4: 'g.ipv4()', ipv6: 'g.ipv6()', macAddress: undefined, userAgent: undefined, password: 'g.password()', hex: 'g.token()', jwt: 'g.token()',
  slug: 'g.slug()', semver: 'g.version()', mimeType: 'g.mimeType()', fileName: undefined, fileExt: undefined, filePath: undefined,
  uuid: 'g.uuid()', objectId: 'g.token()', cursor: 'g.token()', code: undefined, duration: undefined,
  word: 'g.word()', words: undefined, sentence: 'g.sentence()', sentences: 'g.sentence()', paragraph: 'g.sentence()', paragraphs: 'g.sentence()',
  pastDateTime: 'g.dateTime()', recentDateTime: 'g.dateTime()', futureDateTime: 'g.dateTime()', birthDate: 'g.date()', pastDate: 'g.date()', futureDate: 'g.date()',
  identifier: 'g.shortId()', money: undefined, latitude: undefined, longitude: undefined, status: undefined,
};

/** `start_date`, `birthDate`: a date without a time, where the shared rules give an instant. */
const DATE_ONLY = /(?:^|[_-]|[a-z0-9])(?:date|Date)$/;

function hintOf(name: string): string | undefined {
  const kind = textKind(name);
  if (kind === undefined) return undefined;
  const call = CALLS[kind];
  return call === 'g.dateTime()' && (DATE_ONLY.test(name) || name === 'date') ? 'g.date()' : call;
}

/** The runtime call for a string named `name` (plurals, array items, count as their singular). */
export function stringHint(name: string | undefined): string | undefined {
  return name === undefined ? undefined : hintOf(name);
}

/** A realistic range for an unbounded number named `name`, by the shared rules. */
export function numberHint(name: string | undefined, integer: boolean): readonly [number, number] | undefined {
  const range = name === undefined ? undefined : numberRange(name, integer);
  return range === undefined ? undefined : [range.min, range.max];
}

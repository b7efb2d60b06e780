import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import { englishFaker } from '../../../common/english-faker.js';
import { createFastRandomizer } from '../../../common/generate/fast-randomizer.js';
import { RESERVED_DOMAINS } from '../../../common/reserved-domains.js';
import { between, hashString, mix, unit } from './hash.js';

/**
 * Fake values as functions of a hash. Text comes from pools: POOL_SIZE values per kind drawn once
 * from a faker seeded with (seed, kind, locale), built on first use, then indexed by the hash, so a
 * request costs an array read rather than a faker call. Numbers, dates, identifiers and codes
 * are computed from the hash directly.
 */
const POOL_SIZE = 256;

type Producer = (f: Faker) => string;

/** Kinds whose values come from faker, pooled. */
const POOLED = {
  firstName: (f) => f.person.firstName(),
  lastName: (f) => f.person.lastName(),
  fullName: (f) => f.person.fullName(),
  userName: (f) => f.internet.username(),
  email: (f) => f.internet.email(),
  url: (f) => f.internet.url(),
  domainName: (f) => f.internet.domainName(),
  imageUrl: (f) => f.image.url({ width: 640, height: 480 }),
  avatarUrl: (f) => f.image.avatar(),
  phone: (f) => f.phone.number(),
  city: (f) => f.location.city(),
  country: (f) => f.location.country(),
  state: (f) => f.location.state(),
  stateAbbr: (f) => f.location.state({ abbreviated: true }),
  county: (f) => f.location.county(),
  streetName: (f) => f.location.street(),
  streetAddress: (f) => f.location.streetAddress(),
  fullAddress: (f) => f.location.streetAddress({ useFullAddress: true }),
  secondaryAddress: (f) => f.location.secondaryAddress(),
  zipCode: (f) => f.location.zipCode(),
  timeZone: (f) => f.location.timeZone(),
  companyName: (f) => f.company.name(),
  catchPhrase: (f) => f.company.catchPhrase(),
  buzzPhrase: (f) => f.company.buzzPhrase(),
  jobTitle: (f) => f.person.jobTitle(),
  productName: (f) => f.commerce.productName(),
  productCategory: (f) => f.commerce.department(),
  productMaterial: (f) => f.commerce.productMaterial(),
  productAdjective: (f) => f.commerce.productAdjective(),
  productDescription: (f) => f.commerce.productDescription(),
  colorName: (f) => f.color.human(),
  currencyName: (f) => f.finance.currencyName(),
  currencySymbol: (f) => f.finance.currencySymbol(),
  accountName: (f) => f.finance.accountName(),
  transactionType: (f) => f.finance.transactionType(),
  bitcoinAddress: (f) => f.finance.bitcoinAddress(),
  iban: (f) => f.finance.iban(),
  bic: (f) => f.finance.bic(),
  creditCard: (f) => f.finance.creditCardNumber(),
  hackerAbbr: (f) => f.hacker.abbreviation(),
  hackerPhrase: (f) => f.hacker.phrase(),
  userAgent: (f) => f.internet.userAgent(),
  macAddress: (f) => f.internet.mac(),
  ipv6: (f) => f.internet.ipv6(),
  password: (f) => f.internet.password(),
  // free text in English words (lorem ipsum read as Latin in answers); the lorem kinds are for @fake(type: lorem)
  word: (f) => f.word.noun(),
  words: (f) => `${f.word.adjective()} ${f.word.noun()}${f.datatype.boolean() ? ` ${f.word.preposition()} ${f.word.noun()}` : ''}`,
  thingName: (f) => capitalizeWords(`${f.word.adjective()} ${f.word.noun()}`),
  title: (f) => capitalizeWords(`${f.word.adjective()} ${f.word.noun()}`),
  sentence: (f) => f.hacker.phrase(),
  sentences: (f) => phrases(f, 2, 4),
  paragraph: (f) => phrases(f, 3, 5),
  paragraphs: (f) => `${phrases(f, 3, 5)}\n\n${phrases(f, 3, 5)}`,
  slug: (f) => `${f.word.adjective()}-${f.word.noun()}`.toLowerCase().replace(/[^a-z0-9-]/g, ''),
  loremWord: (f) => f.lorem.word(),
  loremWords: (f) => f.lorem.words({ min: 2, max: 4 }),
  loremSentence: (f) => f.lorem.sentence(),
  loremSentences: (f) => f.lorem.sentences({ min: 2, max: 4 }),
  loremParagraph: (f) => f.lorem.paragraph(),
  loremParagraphs: (f) => f.lorem.paragraphs({ min: 2, max: 3 }),
  semver: (f) => f.system.semver(),
  fileName: (f) => f.system.fileName(),
  commonFileName: (f) => f.system.commonFileName(),
  mimeType: (f) => f.system.mimeType(),
  fileExt: (f) => f.system.fileExt(),
  fileType: (f) => f.system.fileType(),
  filePath: (f) => f.system.filePath(),
  dbColumn: (f) => f.database.column(),
  dbType: (f) => f.database.type(),
  dbCollation: (f) => f.database.collation(),
  dbEngine: (f) => f.database.engine(),
  sex: (f) => f.person.sex(),
  bookTitle: (f) => f.book.title(),
} satisfies Record<string, Producer>;

export type PooledKind = keyof typeof POOLED;

const COUNTRY_CODES = ['US', 'GB', 'FR', 'DE', 'ES', 'IT', 'JP', 'BR', 'CA', 'AU', 'IN', 'NL', 'SE', 'CH', 'MX'];
const CURRENCY_CODES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'SEK', 'BRL', 'INR'];
const LOCALES = ['en-US', 'en-GB', 'fr-FR', 'de-DE', 'es-ES', 'it-IT', 'ja-JP', 'pt-BR', 'nl-NL', 'sv-SE'];
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DAY = 86_400_000;

/** Computed kinds: a value straight from the hash. */
export type ComputedKind =
  | 'uuid'
  | 'objectId'
  | 'hex'
  | 'code'
  | 'cursor'
  | 'base64'
  | 'jwt'
  | 'hexColor'
  | 'ipv4'
  | 'countryCode'
  | 'currencyCode'
  | 'locale'
  | 'pastDateTime'
  | 'recentDateTime'
  | 'futureDateTime'
  | 'birthDate'
  | 'pastDate'
  | 'futureDate'
  | 'time'
  | 'duration'
  | 'epochSeconds'
  | 'epochMillis'
  | 'jsonObject'
  | 'boolean'
  | 'true'
  | 'false';

export type FakeKind = PooledKind | ComputedKind;

export const isPooledKind = (kind: string): kind is PooledKind => Object.hasOwn(POOLED, kind);

export type Gen = (h: number) => unknown;

/** Numeric generators: inclusive bounds, `decimals` for floats (undefined: integers). */
export interface NumberSpec {
  min: number;
  max: number;
  decimals?: number;
  /** Answer as a string ("12.50"): Decimal scalars, prices in String fields. */
  asString?: boolean;
}

export class Fakes {
  private readonly pools = new Map<string, readonly string[]>();
  private readonly fakers = new Map<string, Faker>();

  constructor(
    private readonly seed: number,
    private readonly now: () => number,
  ) {}

  /** A generator of one kind; `locale` (a @faker-js/faker locale name) for pooled kinds. */
  gen(kind: FakeKind, locale?: string): Gen {
    if (isPooledKind(kind)) return this.pooled(kind, locale);
    return this.computed(kind);
  }

  number(spec: NumberSpec): Gen {
    const { min, max, decimals, asString } = spec;
    if (decimals === undefined) {
      const lo = Math.ceil(min);
      const hi = Math.floor(max);
      return asString ? (h) => String(between(h, lo, hi)) : (h) => between(h, lo, hi);
    }
    const scale = 10 ** decimals;
    return (h) => {
      const value = Math.round((min + unit(h) * (max - min)) * scale) / scale;
      return asString ? value.toFixed(decimals) : value;
    };
  }

  /** One of `values`, by hash. */
  pick<T>(values: readonly T[]): (h: number) => T {
    const n = values.length;
    return (h) => values[h % n]!;
  }

  private pooled(kind: PooledKind, locale: string | undefined): Gen {
    const key = locale === undefined ? kind : `${kind}@${locale}`;
    let pool: readonly string[] | undefined;
    return (h) => (pool ??= this.pool(key, kind, locale))[h & (POOL_SIZE - 1)];
  }

  private pool(key: string, kind: PooledKind, locale: string | undefined): readonly string[] {
    let pool = this.pools.get(key);
    if (pool === undefined) {
      const faker = this.faker(locale);
      faker.seed(hashString(this.seed, key));
      const produce: Producer = POOLED[kind];
      const values: string[] = [];
      for (let i = 0; i < POOL_SIZE; i++) values.push(produce(faker));
      this.pools.set(key, (pool = values));
    }
    return pool;
  }

  private faker(locale: string | undefined): Faker {
    const name = locale ?? 'en';
    let faker = this.fakers.get(name);
    if (faker === undefined) {
      faker = name === 'en' ? englishFaker(createFastRandomizer(this.seed)) : localeFaker(name) ?? this.faker(undefined);
      faker.setDefaultRefDate(() => new Date(this.now()));
      this.fakers.set(name, faker);
    }
    return faker;
  }

  private computed(kind: ComputedKind): Gen {
    const now = this.now;
    // Dates count from the start of the clock's current day (UTC): the same object answers the
    // same instant all day, and time travel moves it.
    const today = (): number => Math.floor(now() / DAY) * DAY;
    switch (kind) {
      case 'uuid':
        return (h) => uuidOf(h, mix(h, 0x51ed27));
      case 'objectId':
        return (h) => hexOf(h, 8) + hexOf(mix(h, 1), 8) + hexOf(mix(h, 2), 8);
      case 'hex':
        return (h) => hexOf(h, 8) + hexOf(mix(h, 1), 8) + hexOf(mix(h, 2), 8) + hexOf(mix(h, 3), 8) + hexOf(mix(h, 4), 8);
      case 'code':
        return (h) => `${BASE62[26 + (h % 26)]}${BASE62[26 + ((h >>> 5) % 26)]}-${String(mix(h, 1) % 100000).padStart(5, '0')}`.toUpperCase();
      case 'cursor':
        return (h) => Buffer.from(`cursor:${h.toString(36)}`).toString('base64');
      case 'base64':
        return (h) => Buffer.from(hexOf(h, 8) + hexOf(mix(h, 1), 8), 'hex').toString('base64');
      case 'jwt':
        return (h) => `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(`{"sub":"${h.toString(36)}"}`).toString('base64url')}.${base62Of(mix(h, 1), 43)}`;
      case 'hexColor':
        return (h) => `#${hexOf(h, 6)}`;
      case 'ipv4':
        return (h) => `${10 + (h % 200)}.${(h >>> 8) & 255}.${(h >>> 16) & 255}.${1 + (((h >>> 24) & 255) % 254)}`;
      case 'countryCode':
        return this.pick(COUNTRY_CODES);
      case 'currencyCode':
        return this.pick(CURRENCY_CODES);
      case 'locale':
        return this.pick(LOCALES);
      case 'pastDateTime':
        return (h) => new Date(today() - (h % (365 * 86_400)) * 1000 - DAY).toISOString();
      case 'recentDateTime':
        return (h) => new Date(today() - (h % (7 * 86_400)) * 1000).toISOString();
      case 'futureDateTime':
        return (h) => new Date(today() + (h % (365 * 86_400)) * 1000 + DAY).toISOString();
      case 'birthDate':
        return (h) => new Date(today() - (18 * 365 + (h % (60 * 365))) * DAY).toISOString().slice(0, 10);
      case 'pastDate':
        return (h) => new Date(today() - (1 + (h % 730)) * DAY).toISOString().slice(0, 10);
      case 'futureDate':
        return (h) => new Date(today() + (1 + (h % 365)) * DAY).toISOString().slice(0, 10);
      case 'time':
        return (h) => new Date((h % 86_400) * 1000).toISOString().slice(11, 19);
      case 'duration':
        return (h) => `PT${1 + (h % 8)}H${(h >>> 8) % 60}M`;
      case 'epochSeconds':
        return (h) => Math.floor(today() / 1000) - (h % (365 * 86_400));
      case 'epochMillis':
        return (h) => today() - (h % (365 * 86_400)) * 1000;
      case 'jsonObject':
        return jsonObjectGen(this.pooled('word', undefined));
      case 'boolean':
        return (h) => (h & 1) === 1;
      case 'true':
        return () => true;
      case 'false':
        return () => false;
    }
  }
}

/** A small, plausible JSON object (JSON and JSONObject scalars). */
function jsonObjectGen(word: Gen): Gen {
  return (h) => ({ id: h % 10000, key: word(mix(h, 1)), value: word(mix(h, 2)), enabled: (h & 1) === 1 });
}

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex8 = (x: number): string => BYTE_HEX[x >>> 24]! + BYTE_HEX[(x >>> 16) & 255]! + BYTE_HEX[(x >>> 8) & 255]! + BYTE_HEX[x & 255]!;
const hex4 = (x: number): string => BYTE_HEX[(x >>> 8) & 255]! + BYTE_HEX[x & 255]!;

/**
 * A version 4 UUID that carries the two lanes it was made from and a tag of its type:
 * `aaaaaaaa-BBBB-4bbb-Vccc-TTTTdddddddd` holds a and b whole (b's low 4 bits in the variant
 * group), the type tag T, and a check of both lanes (c, d). So a lookup by a generated id finds the
 * generated object's lanes without hashing the text (and an object is made without building its
 * id until the id is read), and `node(id:)` finds the type the id was made for.
 */
export function uuidOf(a: number, b: number, tag = 0): string {
  const c = mix(a, b);
  const d = mix(b, a);
  return `${hex8(a)}-${hex4(b >>> 16)}-4${hex4((b >>> 4) & 0xfff).slice(1)}-${hex4(0x8000 | ((b & 0xf) << 10) | (c & 0x3ff))}-${hex4(tag & 0xffff)}${hex8(d)}`;
}

/** The lanes and type tag of a uuidOf id (decodedA, decodedB, decodedTag), or false for any other value. */
export let decodedA = 0;
export let decodedB = 0;
export let decodedTag = 0;
export function decodeUuid(id: unknown): boolean {
  if (typeof id !== 'string' || id.length !== 36 || id.charCodeAt(14) !== 52 /* 4 */ || id.charCodeAt(8) !== 45 || id.charCodeAt(23) !== 45) return false;
  const a = parseInt(id.slice(0, 8), 16);
  const g4 = parseInt(id.slice(19, 23), 16);
  const b = ((parseInt(id.slice(9, 13), 16) << 16) | (parseInt(id.slice(15, 18), 16) << 4) | ((g4 >>> 10) & 0xf)) >>> 0;
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  if ((g4 & 0x3ff) !== (mix(a, b) & 0x3ff) || parseInt(id.slice(28), 16) !== mix(b, a)) return false;
  decodedA = a >>> 0;
  decodedB = b;
  decodedTag = parseInt(id.slice(24, 28), 16);
  return true;
}

function hexOf(value: number, digits: number): string {
  return digits === 8 ? hex8(value >>> 0) : hex8(value >>> 0).slice(8 - digits);
}

function base62Of(h: number, length: number): string {
  let out = '';
  let x = h;
  for (let i = 0; i < length; i++) {
    x = mix(x, i);
    out += BASE62[x % 62];
  }
  return out;
}

/** English sentences: faker's hacker phrases, which read as plain English, `min` to `max` of them. */
function phrases(f: Faker, min: number, max: number): string {
  const out: string[] = [];
  for (let i = f.number.int({ min, max }); i > 0; i--) out.push(f.hacker.phrase());
  return out.join(' ');
}

function capitalizeWords(text: string): string {
  return text.replace(/(^|\s)(\S)/g, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** graphql-faker's (faker.js 4) locale names, where @faker-js/faker's differ. */
const LOCALE_NAMES: Record<string, string> = { cz: 'cs_CZ', en_IND: 'en_IN', en_au_ocker: 'en_AU_ocker', ge: 'ka_GE', nep: 'ne' };

const requireLocale = createRequire(import.meta.url);

/**
 * A faker for another locale, loaded when a @fake(locale:) first needs it (each locale is a few MB,
 * so none is loaded before). E-mail and URL kinds keep English's reserved domains. Undefined when
 * there is no such locale.
 */
function localeFaker(name: string): Faker | undefined {
  const locale = LOCALE_NAMES[name] ?? name;
  if (!/^[a-z]{2}(_[A-Za-z]+)*$/.test(locale)) return undefined;
  try {
    const module = requireLocale(`@faker-js/faker/locale/${locale}`) as { faker?: Faker };
    const faker = module.faker;
    if (faker === undefined) return undefined;
    const FakerClass = faker.constructor as new (options: { locale: unknown[] }) => Faker;
    const english = englishFaker().rawDefinitions;
    const internet = { ...faker.rawDefinitions.internet, free_email: [...RESERVED_DOMAINS], domain_suffix: [...RESERVED_DOMAINS] };
    return new FakerClass({ locale: [{ ...faker.rawDefinitions, internet }, english] });
  } catch {
    return undefined;
  }
}

/** What each `format` becomes: runtime calls for strings, ranges for numbers. */
import { fullFormats } from 'ajv-formats/dist/formats.js';

export interface StringFormat {
  /** Runtime call producing the value. */
  readonly call: string;
  /**
   * Shortest and longest value the call produces. Formats the validator does not check are
   * simply trimmed or padded into the schema's length bounds.
   */
  readonly length: readonly [number, number];
}

const uuid = { call: 'g.uuid()', length: [36, 36] } as const;
const dateTime = { call: 'g.dateTime()', length: [24, 24] } as const;
const time = { call: 'g.time()', length: [9, 9] } as const;
const email = { call: 'g.email()', length: [14, 40] } as const;
const url = { call: 'g.url()', length: [26, 60] } as const;
const hostname = { call: 'g.hostname()', length: [13, 40] } as const;
const base64 = { call: 'g.base64()', length: [8, 24] } as const;
const integerString = { call: 'g.digits(1, 9)', length: [1, 9] } as const;
const decimal = { call: 'g.decimal()', length: [4, 6] } as const;
const phone = { call: 'g.phone()', length: [12, 12] } as const;
const currency = { call: 'g.currency()', length: [3, 3] } as const;
const countryCode = { call: 'g.countryCode()', length: [2, 2] } as const;
const locale = { call: 'g.locale()', length: [5, 5] } as const;
const timeZone = { call: 'g.timeZone()', length: [3, 30] } as const;

const STRING_FORMATS: Record<string, StringFormat> = {
  uuid, uuid4: uuid, guid: uuid,
  'date-time': dateTime, 'iso-date-time': dateTime, datetime: dateTime,
  date: { call: 'g.date()', length: [10, 10] },
  time, 'iso-time': time,
  email, 'idn-email': email,
  uri: url, url, 'uri-reference': url, iri: url, 'iri-reference': url,
  hostname, 'idn-hostname': hostname, domain: hostname,
  ipv4: { call: 'g.ipv4()', length: [7, 15] }, ip: { call: 'g.ipv4()', length: [7, 15] },
  ipv6: { call: 'g.ipv6()', length: [39, 39] },
  cidr: { call: 'g.cidr()', length: [11, 14] },
  mac: { call: 'g.mac()', length: [17, 17] },
  byte: base64, base64,
  binary: { call: 'g.word()', length: [2, 20] },
  password: { call: 'g.password()', length: [12, 12] },
  duration: { call: 'g.duration()', length: [3, 5] },
  'uri-template': { call: 'g.uriTemplate()', length: [25, 50] },
  'json-pointer': { call: 'g.jsonPointer()', length: [4, 30] },
  'relative-json-pointer': { call: 'g.relativeJsonPointer()', length: [3, 30] },
  regex: { call: 'g.regex()', length: [7, 14] },
  snowflake: { call: 'g.digits(17, 19)', length: [17, 19] },
  nonce: { call: 'g.digits(17, 19)', length: [17, 19] },
  int32: integerString, int64: integerString, uint32: integerString, uint64: integerString, integer: integerString,
  decimal, double: decimal, float: decimal, number: decimal,
  phone, 'phone-number': phone, tel: phone,
  currency, 'currency-code': currency, iso4217: currency,
  country: countryCode, 'country-code': countryCode, 'iso3166-alpha2': countryCode,
  locale, language: locale, 'language-code': locale, bcp47: locale,
  timezone: timeZone, 'time-zone': timeZone,
  color: { call: 'g.color()', length: [7, 7] }, 'hex-color': { call: 'g.color()', length: [7, 7] },
  semver: { call: 'g.version()', length: [5, 8] }, version: { call: 'g.version()', length: [5, 8] },
  slug: { call: 'g.slug()', length: [5, 30] },
};

export function stringFormat(format: unknown): StringFormat | undefined {
  return typeof format === 'string' && Object.hasOwn(STRING_FORMATS, format) ? STRING_FORMATS[format] : undefined;
}

type FormatCheck = RegExp | ((value: string) => boolean) | { validate?: unknown; type?: string } | boolean;
const CHECKED = fullFormats as unknown as Record<string, FormatCheck>;

/** Whether Ajv with ajv-formats would check `format` on strings (unknown formats pass). */
export function isCheckedFormat(format: unknown): boolean {
  if (typeof format !== 'string' || !Object.hasOwn(CHECKED, format)) return false;
  const check = CHECKED[format]!;
  return check !== true && !(typeof check === 'object' && !(check instanceof RegExp) && check.type === 'number');
}

/** Whether `value` passes ajv-formats' check for `format` (used to vet examples at build time). */
export function formatAccepts(format: unknown, value: string): boolean {
  if (!isCheckedFormat(format)) return true;
  let check = CHECKED[format as string];
  if (typeof check === 'object' && !(check instanceof RegExp)) check = check.validate as FormatCheck;
  if (check instanceof RegExp) return check.test(value);
  return typeof check === 'function' ? check(value) : true;
}

/** Integer formats and the range they imply. */
const INTEGER_FORMATS: Record<string, readonly [number, number]> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 2 ** 32 - 1],
  uint64: [0, Number.MAX_SAFE_INTEGER],
  integer: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

export function integerFormatRange(format: unknown): readonly [number, number] | undefined {
  return typeof format === 'string' && Object.hasOwn(INTEGER_FORMATS, format) ? INTEGER_FORMATS[format] : undefined;
}

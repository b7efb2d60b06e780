import type { FormatPrimitives } from '../contract/index.js';
import { RESERVED_DOMAINS as DOMAINS } from '../reserved-domains.js';
import type { Random } from './random.js';

const HEX = '0123456789abcdef';
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => HEX[i >> 4] + HEX[i & 15]);
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PASSWORD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&*';
const DIGITS = '0123456789';
const DAY_MS = 86_400_000;
const DURATIONS = [['P', 30, 'D'], ['PT', 23, 'H'], ['PT', 59, 'M'], ['P', 12, 'M']] as const;
const REGEXES = ['^[a-z]+$', '^\\d{3}-\\d{4}$', '^[A-Z][a-z]*$'];

export function formatPrimitives(random: Random, now: () => number): FormatPrimitives {
  const { int, pick, chars } = random;
  // Hostname labels must be [a-z0-9-] and mailbox names [a-z]; some nouns and names carry spaces
  // or capitals. Cleaned once: a pick from the same-sized pool draws what picking and cleaning would.
  const labels = (random.faker.definitions.word.noun ?? []).map((noun) => noun.toLowerCase().replace(/[^a-z0-9]/g, '') || 'item');
  const mailboxes = (random.faker.definitions.person.first_name.generic ?? []).map((name) => name.toLowerCase().replace(/[^a-z]/g, '') || 'user');

  const two = (n: number) => (n < 10 ? '0' : '') + n;
  const label = () => pick(labels);
  const hex4 = () => chars(HEX, 4);

  // one ISO string per millisecond: under load many responses share the same instant
  let lastMs = -1;
  let lastIso = '';
  const bits32 = (): number => Math.floor(random.next() * 4294967296);
  const hex16 = (r: number): string => BYTE_HEX[(r >>> 8) & 255] + BYTE_HEX[r & 255];
  const hex12 = (r: number): string => HEX[(r >>> 8) & 15] + BYTE_HEX[r & 255];

  return {
    // version 4, variant 10xx: 122 random bits
    uuid: () => {
      const x = bits32();
      const y = bits32();
      const z = bits32();
      const w = bits32();
      const variant = HEX[int(8, 11)];
      return `${hex16(x >>> 16)}${hex16(x)}-${hex16(y >>> 16)}-4${hex12(y)}-${variant}${hex12(z >>> 16)}-${hex16(z)}${hex16(w >>> 16)}${hex16(w)}`;
    },
    dateTime: () => {
      const ms = now();
      if (ms !== lastMs) {
        lastMs = ms;
        lastIso = new Date(ms).toISOString();
      }
      return lastIso;
    },
    date: () => new Date(now() - int(0, 730) * DAY_MS).toISOString().slice(0, 10),
    time: () => `${two(int(0, 23))}:${two(int(0, 59))}:${two(int(0, 59))}Z`,
    email: () =>
      `${pick(mailboxes)}.${label()}@${pick(DOMAINS)}`,
    url: () => `https://${pick(DOMAINS)}/${label()}/${label()}`,
    hostname: () => `${label()}.${pick(DOMAINS)}`,
    ipv4: () => `${int(1, 223)}.${int(0, 255)}.${int(0, 255)}.${int(1, 254)}`,
    ipv6: () => `2001:db8:${hex4()}:${hex4()}:${hex4()}:${hex4()}:${hex4()}:${hex4()}`,
    cidr: () => `10.${int(0, 255)}.${int(0, 255)}.0/24`,
    mac: () => `${chars(HEX, 2)}:${chars(HEX, 2)}:${chars(HEX, 2)}:${chars(HEX, 2)}:${chars(HEX, 2)}:${chars(HEX, 2)}`,
    // Whole 4-character groups, so no padding is ever needed.
    base64: () => chars(BASE64, 4 * int(2, 6)),
    password: () => chars(PASSWORD, 12),
    duration: () => {
      const [prefix, count, unit] = pick(DURATIONS);
      return `${prefix}${int(1, count)}${unit}`;
    },
    uriTemplate: () => `https://${pick(DOMAINS)}/${label()}/{id}`,
    jsonPointer: () => `/${label()}/${int(0, 9)}`,
    relativeJsonPointer: () => `${int(0, 3)}/${label()}`,
    regex: () => pick(REGEXES),
    digits: (min, max) => String(int(1, 9)) + chars(DIGITS, int(min, max) - 1),
    decimal: () => `${int(0, 999)}.${two(int(0, 99))}`,
  };
}

import {
  GraphQLEnumType,
  valueFromASTUntyped,
  type ConstDirectiveNode,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLNamedType,
} from 'graphql';
import { between, mix, unit, type FakeKind, type Fakes, type Gen } from '../fake-data/index.js';

/**
 * The SDL's own say on values: GraphQL Faker's `@fake(type:, options:, locale:)` and
 * `@examples(values:)` on a field or a scalar, and `@listLength(min:, max:)` on a field. Arguments
 * are read from the AST as written (`type: email` or `type: "email"`), since SDL validation does
 * not check their types.
 */

type Args = Record<string, unknown>;

function directiveArgs(nodes: readonly (ConstDirectiveNode | undefined)[] | undefined, name: string): Args | undefined {
  for (const node of nodes ?? []) {
    if (node?.name.value !== name) continue;
    const args: Args = {};
    for (const arg of node.arguments ?? []) args[arg.name.value] = valueFromASTUntyped(arg.value);
    return args;
  }
  return undefined;
}

function typeDirectives(type: GraphQLNamedType): ConstDirectiveNode[] {
  return [...(type.astNode?.directives ?? []), ...type.extensionASTNodes.flatMap((n) => n.directives ?? [])];
}

export interface ValueDirectives {
  fake?: Args;
  examples?: readonly unknown[];
}

/** `@fake` / `@examples` of a field, else of its scalar. */
export function valueDirectives(field: GraphQLField<unknown, unknown>, named: GraphQLNamedType): ValueDirectives {
  const own = field.astNode?.directives;
  const fromType = named.astNode === undefined && named.extensionASTNodes.length === 0 ? undefined : typeDirectives(named);
  const examples = directiveArgs(own, 'examples') ?? directiveArgs(fromType, 'examples');
  const fake = directiveArgs(own, 'fake') ?? directiveArgs(fromType, 'fake');
  const values = examples?.values;
  return {
    ...(fake !== undefined && typeof fake.type === 'string' ? { fake } : {}),
    ...(Array.isArray(values) && values.length > 0 ? { examples: values } : values !== undefined && values !== null && !Array.isArray(values) ? { examples: [values] } : {}),
  };
}

/** `@listLength(min, max)` of a field, clamped to sane bounds (0 … 1000). */
export function listLengthOf(field: GraphQLField<unknown, unknown>): { min: number; max: number } | undefined {
  const args = directiveArgs(field.astNode?.directives, 'listLength');
  if (args === undefined) return undefined;
  const min = Number(args.min);
  const max = Number(args.max ?? args.min);
  if (!Number.isFinite(min) || !Number.isFinite(max)) return undefined;
  const lo = Math.max(0, Math.min(1000, Math.floor(Math.min(min, max))));
  const hi = Math.max(0, Math.min(1000, Math.floor(Math.max(min, max))));
  return { min: lo, max: hi };
}

/** GraphQL Faker's fake types → the mock's kinds (the rest are handled in fakeGen). */
const FAKE_KINDS: Record<string, FakeKind> = {
  zipCode: 'zipCode', city: 'city', cityPrefix: 'city', citySuffix: 'city', streetName: 'streetName', streetSuffix: 'streetName', streetPrefix: 'streetName',
  secondaryAddress: 'secondaryAddress', county: 'county', country: 'country', countryCode: 'countryCode', state: 'state', stateAbbr: 'stateAbbr',
  colorName: 'colorName', productCategory: 'productCategory', productName: 'productName', product: 'productName', productMaterial: 'productMaterial',
  productAdjective: 'productAdjective', companyName: 'companyName', companySuffix: 'companyName', companySuffixes: 'companyName',
  companyCatchPhrase: 'catchPhrase', companyBS: 'buzzPhrase', catchPhraseAdjective: 'word', catchPhraseDescriptor: 'word', catchPhraseNoun: 'word', bsAdjective: 'word',
  dbColumn: 'dbColumn', dbType: 'dbType', dbCollation: 'dbCollation', dbEngine: 'dbEngine',
  financeAccountName: 'accountName', financeTransactionType: 'transactionType', currencyCode: 'currencyCode', currencyName: 'currencyName',
  currencySymbol: 'currencySymbol', bitcoinAddress: 'bitcoinAddress', internationalBankAccountNumber: 'iban', bankIdentifierCode: 'bic',
  hackerAbbr: 'hackerAbbr', hackerPhrase: 'hackerPhrase', avatarUrl: 'avatarUrl', url: 'url', domainName: 'domainName',
  ipv4Address: 'ipv4', ipv6Address: 'ipv6', userAgent: 'userAgent', colorHex: 'hexColor', macAddress: 'macAddress',
  firstName: 'firstName', lastName: 'lastName', fullName: 'fullName', name: 'fullName', jobTitle: 'jobTitle', userName: 'userName',
  phoneNumber: 'phone', phone: 'phone', uuid: 'uuid', word: 'word', words: 'words', locale: 'locale', sentence: 'sentence', paragraph: 'paragraph',
  filename: 'fileName', fileName: 'fileName', commonFileName: 'commonFileName', mimeType: 'mimeType', commonFileType: 'fileType', fileType: 'fileType',
  commonFileExt: 'fileExt', fileExt: 'fileExt', fileExtension: 'fileExt', semver: 'semver',
  pastDate: 'pastDateTime', futureDate: 'futureDateTime', recentDate: 'recentDateTime', date: 'pastDate', dateTime: 'pastDateTime',
};

// @fake(type: lorem) asks for lorem ipsum: the other text kinds are English
const LOREM: Record<string, FakeKind> = { word: 'loremWord', words: 'loremWords', sentence: 'loremSentence', sentences: 'loremSentences', paragraph: 'loremParagraph', paragraphs: 'loremParagraphs' };

const num = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/** The generator `@fake` asks for, its values coerced to the field's leaf type; undefined for an unknown fake type. */
export function fakeGen(fakes: Fakes, args: Args, leaf: GraphQLLeafType): Gen | undefined {
  const type = String(args.type);
  const options = (typeof args.options === 'object' && args.options !== null ? args.options : {}) as Args;
  const locale = typeof args.locale === 'string' ? args.locale : undefined;
  const numeric = leaf.name === 'Int' || leaf.name === 'Float';
  let gen: Gen | undefined;
  switch (type) {
    case 'money':
    case 'price': {
      const decimals = leaf.name === 'Int' ? undefined : num(options.decimalPlaces ?? options.dec, 2);
      gen = fakes.number({ min: num(options.minMoney, 0), max: num(options.maxMoney, 1000), decimals, asString: !numeric });
      if (typeof options.symbol === 'string' && !numeric) {
        const inner = gen;
        const symbol = options.symbol;
        gen = (h) => symbol + String(inner(h));
      }
      break;
    }
    case 'number': {
      const precision = num(options.precisionNumber, leaf.name === 'Float' ? 0.01 : 1);
      const decimals = leaf.name === 'Int' || precision >= 1 ? undefined : Math.min(10, Math.max(0, Math.round(-Math.log10(precision))));
      gen = fakes.number({ min: num(options.minNumber, 0), max: num(options.maxNumber, leaf.name === 'Float' ? 1000 : 99999), decimals, asString: !numeric });
      break;
    }
    case 'latitude':
      gen = fakes.number({ min: -90, max: 90, decimals: 6, asString: !numeric });
      break;
    case 'longitude':
      gen = fakes.number({ min: -180, max: 180, decimals: 6, asString: !numeric });
      break;
    case 'streetAddress':
      gen = fakes.gen(options.useFullAddress === true ? 'fullAddress' : 'streetAddress', locale);
      break;
    case 'lorem':
      gen = fakes.gen(LOREM[String(options.loremSize)] ?? 'loremSentence', locale);
      break;
    case 'imageUrl': {
      const width = Math.max(1, Math.floor(num(options.imageWidth, 640)));
      const height = Math.max(1, Math.floor(num(options.imageHeight, 480)));
      gen = (h) => `https://picsum.photos/seed/${h.toString(36)}/${width}/${height}`;
      break;
    }
    case 'email': {
      if (typeof options.emailProvider === 'string' && options.emailProvider !== '') {
        const user = fakes.gen('userName');
        const provider = options.emailProvider;
        gen = (h) => `${String(user(h))}@${provider}`;
      } else {
        gen = fakes.gen('email');
      }
      break;
    }
    case 'password': {
      const length = Math.max(1, Math.min(256, Math.floor(num(options.passwordLength, 15))));
      const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
      gen = (h) => {
        let out = '';
        for (let i = 0, x = h; i < length; i++) out += ALPHABET[(x = mix(x, i)) % ALPHABET.length];
        return out;
      };
      break;
    }
    default: {
      const kind = FAKE_KINDS[type];
      if (kind === undefined) return undefined;
      gen = fakes.gen(kind, locale);
      if (typeof options.dateFormat === 'string' && /Date/i.test(type)) {
        const inner = gen;
        const format = options.dateFormat;
        gen = (h) => formatDate(String(inner(h)), format);
      }
    }
  }
  return coerceGen(gen, leaf);
}

/** moment's common tokens (YYYY MM DD HH mm ss SSS), which GraphQL Faker's `dateFormat` used. */
function formatDate(iso: string, format: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return format.replace(/YYYY|MM|DD|HH|mm|ss|SSS/g, (token) => {
    switch (token) {
      case 'YYYY':
        return String(date.getUTCFullYear());
      case 'MM':
        return pad(date.getUTCMonth() + 1);
      case 'DD':
        return pad(date.getUTCDate());
      case 'HH':
        return pad(date.getUTCHours());
      case 'mm':
        return pad(date.getUTCMinutes());
      case 'ss':
        return pad(date.getUTCSeconds());
      default:
        return pad(date.getUTCMilliseconds(), 3);
    }
  });
}

/** A generator's values in the leaf type's terms: numbers for Int/Float, text for String and ID. */
export function coerceGen(gen: Gen, leaf: GraphQLLeafType): Gen {
  if (leaf instanceof GraphQLEnumType) {
    const values = leaf.getValues().map((v) => v.name);
    return (h) => {
      const value = gen(h);
      return typeof value === 'string' && values.includes(value) ? value : values[h % values.length];
    };
  }
  switch (leaf.name) {
    case 'String':
    case 'ID':
      return (h) => {
        const value = gen(h);
        return typeof value === 'string' ? value : value === null || value === undefined ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
      };
    case 'Int':
      return (h) => {
        const value = Number(gen(h));
        return Number.isFinite(value) ? Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, Math.round(value))) : between(h, 1, 1000);
      };
    case 'Float':
      return (h) => {
        const value = Number(gen(h));
        return Number.isFinite(value) ? value : Math.round(unit(h) * 100000) / 100;
      };
    case 'Boolean':
      return (h) => {
        const value = gen(h);
        return typeof value === 'boolean' ? value : (h & 1) === 1;
      };
    default:
      return gen;
  }
}

/** `@examples` on a leaf: one of the values. */
export function examplesGen(values: readonly unknown[]): Gen {
  const n = values.length;
  return (h) => values[h % n];
}

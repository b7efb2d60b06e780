import type { FakeKind, Fakes, Gen } from './fakes.js';

/**
 * Which fake value a leaf field gets, decided once per field from its name, its type and its
 * parent type's name (`User.email` an address, `Film.title` a book title, `createdAt` a past
 * instant, `expiresAt` a future one, `price: Float` money, `DateTime` an ISO timestamp).
 */

export interface LeafField {
  /** The field's name as written. */
  name: string;
  /** The object type it belongs to. */
  parent: string;
}

/** lowercase words of a name: `avatarURL` → avatar url, `created_at` → created at. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

const PERSON_TYPES = /(user|person|people|author|customer|member|employee|owner|contact|account|profile|character|human|player|student|teacher|patient|driver|artist|actor|admin|staff|viewer|creator|client|guest|speaker|friend|follower|assignee|reporter)/i;
const COMPANY_TYPES = /(company|organi[sz]ation|org$|business|brand|vendor|merchant|employer|agency|supplier|partner|publisher|manufacturer|store|shop|bank)/i;
const PRODUCT_TYPES = /(product|item|article|good|offer|listing|variant|sku)/i;
const CREATIVE_TYPES = /(book|film|movie|song|album|track|show|episode|series|novel|game|podcast|video)/i;

const FUTURE_WORDS = new Set(['expires', 'expiry', 'expiration', 'expire', 'due', 'deadline', 'ends', 'end', 'until', 'scheduled', 'next', 'upcoming', 'starts', 'renews', 'renewal', 'valid', 'estimated', 'planned', 'eta']);
const RECENT_WORDS = new Set(['updated', 'modified', 'last', 'seen', 'changed', 'edited', 'synced', 'refreshed', 'accessed']);

/** Exact joined names (`avatarurl`) → kind, for strings. */
const STRING_NAMES: Record<string, FakeKind> = {
  email: 'email', emailaddress: 'email', mail: 'email',
  firstname: 'firstName', givenname: 'firstName', forename: 'firstName', middlename: 'firstName',
  lastname: 'lastName', surname: 'lastName', familyname: 'lastName',
  username: 'userName', login: 'userName', handle: 'userName', screenname: 'userName', nickname: 'userName', nick: 'userName',
  fullname: 'fullName', displayname: 'fullName', realname: 'fullName', author: 'fullName', owner: 'fullName',
  jobtitle: 'jobTitle', position: 'jobTitle', occupation: 'jobTitle', profession: 'jobTitle', role: 'jobTitle',
  avatar: 'avatarUrl', avatarurl: 'avatarUrl', profilepicture: 'avatarUrl', profileimage: 'avatarUrl', profilephoto: 'avatarUrl', gravatar: 'avatarUrl',
  image: 'imageUrl', imageurl: 'imageUrl', photo: 'imageUrl', photourl: 'imageUrl', picture: 'imageUrl', thumbnail: 'imageUrl', thumbnailurl: 'imageUrl',
  logo: 'imageUrl', logourl: 'imageUrl', icon: 'imageUrl', iconurl: 'imageUrl', cover: 'imageUrl', coverurl: 'imageUrl', banner: 'imageUrl', img: 'imageUrl', src: 'imageUrl',
  phone: 'phone', phonenumber: 'phone', mobile: 'phone', mobilenumber: 'phone', cell: 'phone', fax: 'phone', telephone: 'phone', tel: 'phone',
  city: 'city', town: 'city', country: 'country', countryname: 'country', countrycode: 'countryCode', countryiso: 'countryCode', nationality: 'country',
  state: 'state', province: 'state', region: 'state', statecode: 'stateAbbr', county: 'county',
  zip: 'zipCode', zipcode: 'zipCode', postalcode: 'zipCode', postcode: 'zipCode',
  address: 'streetAddress', streetaddress: 'streetAddress', address1: 'streetAddress', addressline1: 'streetAddress', line1: 'streetAddress', street1: 'streetAddress',
  address2: 'secondaryAddress', addressline2: 'secondaryAddress', line2: 'secondaryAddress', street2: 'secondaryAddress',
  fulladdress: 'fullAddress', street: 'streetName', streetname: 'streetName',
  company: 'companyName', companyname: 'companyName', organization: 'companyName', organisation: 'companyName', employer: 'companyName', org: 'companyName',
  catchphrase: 'catchPhrase', slogan: 'catchPhrase', motto: 'catchPhrase', tagline: 'catchPhrase',
  currency: 'currencyCode', currencycode: 'currencyCode', currencyname: 'currencyName', currencysymbol: 'currencySymbol',
  color: 'hexColor', colour: 'hexColor', hexcolor: 'hexColor', colorhex: 'hexColor', colorname: 'colorName',
  ip: 'ipv4', ipaddress: 'ipv4', ipv4: 'ipv4', ipv4address: 'ipv4', ipv6: 'ipv6', ipv6address: 'ipv6', mac: 'macAddress', macaddress: 'macAddress',
  useragent: 'userAgent', password: 'password', passwd: 'password', secret: 'password',
  token: 'hex', accesstoken: 'hex', refreshtoken: 'hex', apikey: 'hex', secretkey: 'hex', hash: 'hex', sha: 'hex', checksum: 'hex', signature: 'hex',
  etag: 'hex', digest: 'hex', fingerprint: 'hex', nonce: 'hex', jwt: 'jwt', idtoken: 'jwt',
  slug: 'slug', locale: 'locale', language: 'locale', lang: 'locale', timezone: 'timeZone', tz: 'timeZone',
  version: 'semver', semver: 'semver', appversion: 'semver',
  mimetype: 'mimeType', contenttype: 'mimeType', mime: 'mimeType', filename: 'fileName', file: 'fileName', extension: 'fileExt', fileext: 'fileExt', ext: 'fileExt',
  path: 'filePath', filepath: 'filePath', directory: 'filePath', dir: 'filePath',
  domain: 'domainName', domainname: 'domainName', hostname: 'domainName', host: 'domainName',
  uuid: 'uuid', guid: 'uuid', objectid: 'objectId', cursor: 'cursor', startcursor: 'cursor', endcursor: 'cursor',
  sku: 'code', identifier: 'code', isbn: 'code', barcode: 'code', serial: 'code', serialnumber: 'code', reference: 'code', ref: 'code', confirmationcode: 'code', code: 'code',
  gender: 'sex', sex: 'sex', iban: 'iban', bic: 'bic', swift: 'bic', bitcoinaddress: 'bitcoinAddress', creditcard: 'creditCard', cardnumber: 'creditCard',
  department: 'productCategory', category: 'productCategory', material: 'productMaterial',
  description: 'sentences', summary: 'sentences', bio: 'sentences', about: 'sentences', overview: 'sentences', excerpt: 'sentence', abstract: 'sentences',
  caption: 'sentence', comment: 'sentence', message: 'sentence', note: 'sentence', notes: 'sentence', reason: 'sentence', subtitle: 'sentence',
  headline: 'sentence', instructions: 'sentences', details: 'sentences', question: 'sentence', answer: 'sentence', quote: 'sentence',
  body: 'paragraphs', content: 'paragraphs', text: 'paragraph', html: 'paragraph', markdown: 'paragraph', paragraph: 'paragraph', article: 'paragraphs', story: 'paragraphs',
  word: 'word', tag: 'word', tags: 'word', label: 'word', labels: 'word', keyword: 'word', keywords: 'word', type: 'word', kind: 'word',
  duration: 'duration',
};

const URL_WORDS = new Set(['url', 'uri', 'link', 'href', 'website', 'homepage', 'permalink', 'site', 'web']);
const IMAGE_WORDS = new Set(['image', 'photo', 'picture', 'thumbnail', 'logo', 'icon', 'cover', 'banner', 'img', 'poster']);
const MONEY_WORDS = new Set(['price', 'amount', 'cost', 'total', 'subtotal', 'balance', 'salary', 'fee', 'tax', 'revenue', 'income', 'budget', 'payment', 'discount', 'spend', 'value']);
const STATUS = ['active', 'pending', 'inactive', 'archived'];

export type DateShape = 'datetime' | 'date' | 'epochSeconds' | 'epochMillis';

/** A date-like name (`createdAt`, `birthday`, `expiryDate`, `timestamp`): which instant; undefined otherwise. */
export function dateKind(words: readonly string[], shape: DateShape): FakeKind | undefined {
  const last = words.at(-1);
  const joined = words.join('');
  const dated =
    last === 'at' || last === 'on' || last === 'date' || last === 'time' || last === 'timestamp' || last === 'datetime' || last === 'day' ||
    joined === 'birthday' || joined === 'dob' || joined === 'birthdate' || joined === 'dateofbirth' || joined === 'since' || joined === 'when';
  if (!dated) return undefined;
  if (shape === 'epochSeconds' || shape === 'epochMillis') return shape;
  if (joined === 'birthday' || joined === 'dob' || words.includes('birth')) return 'birthDate';
  const future = words.some((w) => FUTURE_WORDS.has(w));
  const recent = !future && words.some((w) => RECENT_WORDS.has(w));
  if (shape === 'date' || (last === 'date' && shape !== 'datetime') || last === 'day' || last === 'on') return future ? 'futureDate' : 'pastDate';
  return future ? 'futureDateTime' : recent ? 'recentDateTime' : 'pastDateTime';
}

/** A String field (or a custom scalar the mock has no better idea for). */
export function stringGen(fakes: Fakes, field: LeafField): Gen {
  const words = wordsOf(field.name);
  const joined = words.join('');
  const last = words.at(-1) ?? '';
  const kind = STRING_NAMES[joined];
  if (kind !== undefined && !(kind === 'jobTitle' && joined === 'role' && !PERSON_TYPES.test(field.parent))) return fakes.gen(kind);
  const date = dateKind(words, 'datetime');
  if (date !== undefined) return fakes.gen(date);
  if (words.includes('email') || words.includes('mail')) return fakes.gen('email');
  if (URL_WORDS.has(last)) {
    if (words.includes('avatar') || words.includes('profile')) return fakes.gen('avatarUrl');
    return fakes.gen(words.some((w) => IMAGE_WORDS.has(w)) ? 'imageUrl' : 'url');
  }
  if (last === 'avatar') return fakes.gen('avatarUrl');
  if (IMAGE_WORDS.has(last)) return fakes.gen('imageUrl');
  if (words.includes('phone') || words.includes('mobile') || words.includes('fax')) return fakes.gen('phone');
  if (last === 'name') return nameGen(fakes, words, field.parent);
  if (last === 'title') {
    if (words.includes('job') || PERSON_TYPES.test(field.parent)) return fakes.gen('jobTitle');
    return fakes.gen(CREATIVE_TYPES.test(field.parent) ? 'bookTitle' : 'title');
  }
  if (last === 'id' || last === 'ids' || last === 'uuid') return fakes.gen('uuid');
  if (last === 'code' && words.includes('country')) return fakes.gen('countryCode');
  if (last === 'code' && words.includes('currency')) return fakes.gen('currencyCode');
  if (last === 'code' || last === 'number' || last === 'sku') return fakes.gen('code');
  if (last === 'color' || last === 'colour') return fakes.gen('hexColor');
  if (last === 'address') return fakes.gen(words.includes('email') ? 'email' : words.includes('ip') ? 'ipv4' : 'streetAddress');
  if (last === 'city') return fakes.gen('city');
  if (last === 'country') return fakes.gen('country');
  if (last === 'token' || last === 'key' || last === 'hash' || last === 'secret') return fakes.gen('hex');
  if (last === 'description' || last === 'summary' || last === 'bio') return fakes.gen('sentences');
  if (last === 'message' || last === 'comment' || last === 'note' || last === 'text') return fakes.gen('sentence');
  if (last === 'body' || last === 'content') return fakes.gen('paragraphs');
  if (MONEY_WORDS.has(last)) return fakes.number({ min: 1, max: 1000, decimals: 2, asString: true });
  if (last === 'latitude' || last === 'lat') return fakes.number({ min: -90, max: 90, decimals: 6, asString: true });
  if (last === 'longitude' || last === 'lng' || last === 'lon') return fakes.number({ min: -180, max: 180, decimals: 6, asString: true });
  if (last === 'status') return fakes.pick(STATUS);
  if (last === 'type' || last === 'kind' || last === 'category' || last === 'tag' || last === 'tags') return fakes.gen('word');
  if (last === 'version') return fakes.gen('semver');
  if (last === 'path') return fakes.gen('filePath');
  return fakes.gen('words');
}

function nameGen(fakes: Fakes, words: readonly string[], parent: string): Gen {
  const prefix = words.slice(0, -1).join('');
  if (prefix === '') {
    if (PERSON_TYPES.test(parent)) return fakes.gen('fullName');
    if (COMPANY_TYPES.test(parent)) return fakes.gen('companyName');
    if (PRODUCT_TYPES.test(parent)) return fakes.gen('productName');
    if (/city/i.test(parent)) return fakes.gen('city');
    if (/country/i.test(parent)) return fakes.gen('country');
    if (/file|attachment|document|asset/i.test(parent)) return fakes.gen('fileName');
    return fakes.gen('thingName');
  }
  if (/^(company|organi[sz]ation|org|business|brand|employer|vendor|merchant|publisher)$/.test(prefix)) return fakes.gen('companyName');
  if (/^(product|item)$/.test(prefix)) return fakes.gen('productName');
  if (prefix === 'city') return fakes.gen('city');
  if (prefix === 'country') return fakes.gen('country');
  if (prefix === 'file') return fakes.gen('fileName');
  if (prefix === 'job') return fakes.gen('jobTitle');
  if (prefix === 'street') return fakes.gen('streetName');
  if (prefix === 'state') return fakes.gen('state');
  if (prefix === 'user' || prefix === 'screen' || prefix === 'nick') return fakes.gen('userName');
  if (prefix === 'display' || PERSON_TYPES.test(prefix)) return fakes.gen('fullName');
  return fakes.gen('thingName');
}

/** An Int field. */
export function intGen(fakes: Fakes, field: LeafField): Gen {
  const words = wordsOf(field.name);
  const last = words.at(-1) ?? '';
  const date = dateKind(words, 'epochSeconds');
  if (date !== undefined) return fakes.gen(date);
  const range = (min: number, max: number): Gen => fakes.number({ min, max });
  switch (last) {
    case 'age':
      return range(18, 90);
    case 'year':
      return range(1990, 2030);
    case 'month':
      return range(1, 12);
    case 'day':
      return range(1, 28);
    case 'hour':
    case 'hours':
      return range(0, 23);
    case 'minute':
    case 'minutes':
    case 'second':
    case 'seconds':
      return range(0, 59);
    case 'rating':
    case 'stars':
      return range(1, 5);
    case 'score':
    case 'percent':
    case 'percentage':
    case 'progress':
      return range(0, 100);
    case 'port':
      return range(1024, 65535);
    case 'width':
    case 'height':
      return range(100, 2000);
    case 'ms':
    case 'millis':
    case 'milliseconds':
      return range(1, 60000);
    case 'duration':
      return range(1, 3600);
    case 'priority':
    case 'rank':
    case 'order':
    case 'position':
    case 'index':
    case 'level':
    case 'sort':
      return range(0, 10);
    case 'zip':
    case 'zipcode':
      return range(10000, 99999);
    case 'cents':
      return range(100, 100000);
    default:
      break;
  }
  if (MONEY_WORDS.has(last)) return range(1, 1000);
  if (last === 'count' || last === 'total' || last === 'quantity' || last === 'qty' || last === 'number' || last === 'num' || last === 'size') return range(0, 100);
  return range(1, 1000);
}

/** A Float field. */
export function floatGen(fakes: Fakes, field: LeafField): Gen {
  const words = wordsOf(field.name);
  const last = words.at(-1) ?? '';
  const date = dateKind(words, 'epochMillis');
  if (date !== undefined) return fakes.gen(date);
  const range = (min: number, max: number, decimals: number): Gen => fakes.number({ min, max, decimals });
  if (MONEY_WORDS.has(last)) return range(1, 1000, 2);
  if (last === 'latitude' || last === 'lat') return range(-90, 90, 6);
  if (last === 'longitude' || last === 'lng' || last === 'lon') return range(-180, 180, 6);
  if (last === 'rating' || last === 'stars') return range(1, 5, 1);
  if (last === 'score' || last === 'percent' || last === 'percentage' || last === 'progress') return range(0, 100, 1);
  if (last === 'ratio' || last === 'rate' || last === 'probability' || last === 'share' || last === 'fraction' || last === 'confidence') return range(0, 1, 4);
  if (last === 'temperature' || last === 'temp') return range(-20, 40, 1);
  if (/^(priority|rank|level|order|position|index|sort)$/.test(last)) return range(0, 10, 1);
  if (/^(estimate|points|effort)$/.test(last)) return range(0, 20, 1);
  if (/^(weight|height|width|length|distance|size|depth|area|volume|radius)$/.test(last)) return range(0.1, 100, 2);
  return range(0, 1000, 2);
}

export function booleanGen(fakes: Fakes, field: LeafField): Gen {
  const joined = wordsOf(field.name).join('');
  if (/^(success|successful|succeeded|ok|valid)$/.test(joined)) return fakes.gen('true');
  return fakes.gen('boolean');
}

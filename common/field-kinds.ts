/**
 * The one set of field-name rules both generators follow (the GraphQL and gRPC mocks in
 * runtime/terminal/fake-data, the OpenAPI generator in compiler/generate/hints.ts): which kind of
 * text a string field gets from its name and, where known, its parent type's name. `User.email`
 * an address, `Film.director` and `Issue.assignee` a person's name, `Film.title` a book title,
 * `description` English sentences, `createdAt` a past instant, `expiresAt` a future one. Each
 * generator turns a kind into a value its own way; undefined is "nothing known": a few English words.
 */
export type TextKind =
  | 'email' | 'url' | 'imageUrl' | 'avatarUrl' | 'domainName'
  | 'firstName' | 'lastName' | 'fullName' | 'userName' | 'jobTitle' | 'sex'
  | 'phone' | 'city' | 'country' | 'countryCode' | 'state' | 'stateAbbr' | 'county' | 'zipCode'
  | 'streetAddress' | 'secondaryAddress' | 'fullAddress' | 'streetName' | 'timeZone' | 'locale'
  | 'companyName' | 'catchPhrase' | 'productName' | 'productCategory' | 'productMaterial' | 'thingName' | 'bookTitle' | 'title'
  | 'currencyCode' | 'currencyName' | 'currencySymbol' | 'iban' | 'bic' | 'bitcoinAddress' | 'creditCard'
  | 'hexColor' | 'colorName' | 'ipv4' | 'ipv6' | 'macAddress' | 'userAgent' | 'password' | 'hex' | 'jwt'
  | 'slug' | 'semver' | 'mimeType' | 'fileName' | 'fileExt' | 'filePath'
  | 'uuid' | 'objectId' | 'cursor' | 'code' | 'duration'
  | 'word' | 'words' | 'sentence' | 'sentences' | 'paragraph' | 'paragraphs'
  | 'pastDateTime' | 'recentDateTime' | 'futureDateTime' | 'birthDate' | 'pastDate' | 'futureDate'
  /** An identifier (`id`, `userId`): each generator has its own form (the GraphQL mock's ids carry the object they name). */
  | 'identifier'
  /** Numbers as text: a price (`"12.50"`), a latitude, a longitude. */
  | 'money' | 'latitude' | 'longitude'
  /** A state name (`active`, `pending` …). */
  | 'status';

/** lowercase words of a name: `avatarURL` → avatar url, `created_at` → created at. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

export const PERSON_TYPES = /(user|person|people|author|customer|member|employee|owner|contact|account|profile|character|human|player|student|teacher|patient|driver|artist|actor|admin|staff|viewer|creator|client|guest|speaker|friend|follower|assignee|reporter)/i;
const COMPANY_TYPES = /(company|organi[sz]ation|org$|business|brand|vendor|merchant|employer|agency|supplier|partner|publisher|manufacturer|store|shop|bank)/i;
const PRODUCT_TYPES = /(product|item|article|good|offer|listing|variant|sku)/i;
const CREATIVE_TYPES = /(book|film|movie|song|album|track|show|episode|series|novel|game|podcast|video)/i;

/** A string field named for a person's role holds that person's name (`director`, `assignee`, `createdBy`). */
const PERSON_WORDS = new Set([
  'author', 'owner', 'director', 'producer', 'writer', 'editor', 'creator', 'manager', 'assignee', 'reporter', 'reviewer', 'approver',
  'organizer', 'organiser', 'host', 'speaker', 'composer', 'artist', 'actor', 'actress', 'narrator', 'illustrator', 'photographer',
  'customer', 'client', 'contact', 'sender', 'recipient', 'founder', 'teacher', 'instructor', 'coach', 'captain', 'pilot', 'doctor',
  'physician', 'nurse', 'lead', 'maintainer', 'submitter', 'requester', 'requestor', 'buyer', 'seller', 'landlord', 'tenant', 'driver',
  'commenter', 'moderator', 'supervisor', 'employee', 'member', 'guest', 'presenter', 'singer', 'designer', 'developer', 'engineer',
  'agent', 'representative', 'winner', 'person', 'user', 'player', 'student', 'patient', 'passenger', 'attendee', 'participant',
]);

const FUTURE_WORDS = new Set(['expires', 'expiry', 'expiration', 'expire', 'due', 'deadline', 'ends', 'end', 'until', 'scheduled', 'next', 'upcoming', 'starts', 'renews', 'renewal', 'valid', 'estimated', 'planned', 'eta']);
const RECENT_WORDS = new Set(['updated', 'modified', 'last', 'seen', 'changed', 'edited', 'synced', 'refreshed', 'accessed']);

/** Exact joined names (`avatarurl`) → kind. */
const NAMES: Record<string, TextKind> = {
  email: 'email', emailaddress: 'email', mail: 'email',
  firstname: 'firstName', givenname: 'firstName', forename: 'firstName', middlename: 'firstName',
  lastname: 'lastName', surname: 'lastName', familyname: 'lastName',
  username: 'userName', login: 'userName', handle: 'userName', screenname: 'userName', nickname: 'userName', nick: 'userName',
  fullname: 'fullName', displayname: 'fullName', realname: 'fullName', contactname: 'fullName', ownername: 'fullName',
  jobtitle: 'jobTitle', position: 'jobTitle', occupation: 'jobTitle', profession: 'jobTitle', role: 'jobTitle',
  avatar: 'avatarUrl', avatarurl: 'avatarUrl', profilepicture: 'avatarUrl', profileimage: 'avatarUrl', profilephoto: 'avatarUrl', gravatar: 'avatarUrl',
  image: 'imageUrl', imageurl: 'imageUrl', photo: 'imageUrl', photourl: 'imageUrl', picture: 'imageUrl', thumbnail: 'imageUrl', thumbnailurl: 'imageUrl',
  logo: 'imageUrl', logourl: 'imageUrl', icon: 'imageUrl', iconurl: 'imageUrl', cover: 'imageUrl', coverurl: 'imageUrl', banner: 'imageUrl', img: 'imageUrl', src: 'imageUrl',
  phone: 'phone', phonenumber: 'phone', mobile: 'phone', mobilenumber: 'phone', cell: 'phone', cellphone: 'phone', fax: 'phone', telephone: 'phone', tel: 'phone',
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
  slug: 'slug', locale: 'locale', language: 'locale', lang: 'locale', languagecode: 'locale', timezone: 'timeZone', tz: 'timeZone',
  version: 'semver', semver: 'semver', appversion: 'semver',
  mimetype: 'mimeType', contenttype: 'mimeType', mediatype: 'mimeType', mime: 'mimeType', filename: 'fileName', file: 'fileName', extension: 'fileExt', fileext: 'fileExt', ext: 'fileExt',
  path: 'filePath', filepath: 'filePath', directory: 'filePath', dir: 'filePath',
  domain: 'domainName', domainname: 'domainName', hostname: 'domainName', host: 'domainName',
  uuid: 'uuid', guid: 'uuid', objectid: 'objectId', cursor: 'cursor', startcursor: 'cursor', endcursor: 'cursor',
  sku: 'code', identifier: 'code', isbn: 'code', barcode: 'code', serial: 'code', serialnumber: 'code', reference: 'code', ref: 'code', confirmationcode: 'code', code: 'code',
  gender: 'sex', sex: 'sex', iban: 'iban', bic: 'bic', swift: 'bic', bitcoinaddress: 'bitcoinAddress', creditcard: 'creditCard', cardnumber: 'creditCard',
  department: 'productCategory', category: 'productCategory', material: 'productMaterial',
  description: 'sentences', summary: 'sentences', bio: 'sentences', about: 'sentences', overview: 'sentences', excerpt: 'sentence', abstract: 'sentences', synopsis: 'sentences', plot: 'sentences',
  caption: 'sentence', comment: 'sentence', message: 'sentence', note: 'sentence', notes: 'sentence', reason: 'sentence', subtitle: 'sentence',
  headline: 'sentence', instructions: 'sentences', details: 'sentences', question: 'sentence', answer: 'sentence', quote: 'sentence', subject: 'title',
  body: 'paragraphs', content: 'paragraphs', text: 'paragraph', html: 'paragraph', markdown: 'paragraph', paragraph: 'paragraph', article: 'paragraphs', story: 'paragraphs',
  word: 'word', tag: 'word', tags: 'word', label: 'word', labels: 'word', keyword: 'word', keywords: 'word', type: 'word', kind: 'word',
  duration: 'duration',
};

const URL_WORDS = new Set(['url', 'uri', 'link', 'href', 'website', 'homepage', 'webpage', 'permalink', 'site', 'web']);
const IMAGE_WORDS = new Set(['image', 'photo', 'picture', 'thumbnail', 'logo', 'icon', 'cover', 'banner', 'img', 'poster']);
export const MONEY_WORDS = new Set(['price', 'amount', 'cost', 'total', 'subtotal', 'balance', 'salary', 'fee', 'tax', 'revenue', 'income', 'budget', 'payment', 'discount', 'spend', 'value']);

export type DateShape = 'datetime' | 'date' | 'epochSeconds' | 'epochMillis';
export type DateKind = 'pastDateTime' | 'recentDateTime' | 'futureDateTime' | 'birthDate' | 'pastDate' | 'futureDate' | 'epochSeconds' | 'epochMillis';

/** A date-like name (`createdAt`, `birthday`, `expiryDate`, `timestamp`): which instant; undefined otherwise. */
export function dateKind(words: readonly string[], shape: DateShape): DateKind | undefined {
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

/**
 * The kind of text a string field named `name` holds; `parent`, its type's name where the
 * generator knows it (a `name` of a User is a person's, of a Company a company's; unknown: a
 * person's). Undefined: nothing known (a few English words). Plurals (lists' items) read as their singular.
 */
export function textKind(name: string, parent?: string): TextKind | undefined {
  return kindOf(name, parent) ?? (name.length > 2 && name.endsWith('s') ? kindOf(name.slice(0, -1), parent) : undefined);
}

/** textKind of the name as written (a plural, such as a list's `producers`, is tried again as its singular). */
function kindOf(name: string, parent: string | undefined): TextKind | undefined {
  const words = wordsOf(name);
  const joined = words.join('');
  const last = words.at(-1) ?? '';
  const owner = parent ?? '';
  const kind = NAMES[joined];
  if (kind !== undefined && !(kind === 'jobTitle' && joined === 'role' && !PERSON_TYPES.test(owner))) return kind;
  if (PERSON_WORDS.has(joined) || (words.length > 1 && PERSON_WORDS.has(last) && !/^(id|ids)$/.test(last))) return 'fullName';
  // createdBy, approved_by, assignedTo: who did it
  if (words.length > 1 && (last === 'by' || (last === 'to' && words[0] === 'assigned'))) return 'fullName';
  if (last === 'id' || last === 'ids') return 'identifier';
  const date = dateKind(words, 'datetime');
  if (date !== undefined) return date as TextKind;
  if (words.includes('email') || words.includes('mail')) return 'email';
  if (URL_WORDS.has(last)) {
    if (words.includes('avatar') || words.includes('profile')) return 'avatarUrl';
    return words.some((w) => IMAGE_WORDS.has(w)) ? 'imageUrl' : 'url';
  }
  if (last === 'avatar') return 'avatarUrl';
  if (IMAGE_WORDS.has(last)) return 'imageUrl';
  if (words.includes('phone') || words.includes('mobile') || words.includes('fax')) return 'phone';
  if (last === 'name') return nameKind(words, parent);
  if (last === 'title') {
    if (words.includes('job') || PERSON_TYPES.test(owner)) return 'jobTitle';
    return CREATIVE_TYPES.test(owner) ? 'bookTitle' : 'title';
  }
  if (last === 'uuid') return 'uuid';
  if (last === 'code' && words.includes('country')) return 'countryCode';
  if (last === 'code' && words.includes('currency')) return 'currencyCode';
  if (last === 'code' || last === 'number' || last === 'sku') return 'code';
  if (last === 'color' || last === 'colour') return 'hexColor';
  if (last === 'address') return words.includes('email') ? 'email' : words.includes('ip') ? 'ipv4' : 'streetAddress';
  if (last === 'city') return 'city';
  if (last === 'country') return 'country';
  if (last === 'token' || last === 'key' || last === 'hash' || last === 'secret') return 'hex';
  if (/^(description|summary|bio|crawl|synopsis|plot|overview|abstract|blurb|intro|introduction|preface)$/.test(last)) return 'sentences';
  if (last === 'message' || last === 'comment' || last === 'note' || last === 'text') return 'sentence';
  if (last === 'body' || last === 'content') return 'paragraphs';
  if (MONEY_WORDS.has(last)) return 'money';
  if (last === 'latitude' || last === 'lat') return 'latitude';
  if (last === 'longitude' || last === 'lng' || last === 'lon') return 'longitude';
  if (last === 'status') return 'status';
  if (last === 'type' || last === 'kind' || last === 'category' || last === 'tag' || last === 'tags') return 'word';
  if (last === 'version') return 'semver';
  if (last === 'path') return 'filePath';
  return undefined;
}

function nameKind(words: readonly string[], parent: string | undefined): TextKind {
  const prefix = words.slice(0, -1).join('');
  if (prefix === '') {
    if (parent === undefined || PERSON_TYPES.test(parent)) return 'fullName';
    if (COMPANY_TYPES.test(parent)) return 'companyName';
    if (PRODUCT_TYPES.test(parent)) return 'productName';
    if (/city/i.test(parent)) return 'city';
    if (/country/i.test(parent)) return 'country';
    if (/file|attachment|document|asset/i.test(parent)) return 'fileName';
    return 'thingName';
  }
  if (/^(company|organi[sz]ation|org|business|brand|employer|vendor|merchant|publisher)$/.test(prefix)) return 'companyName';
  if (/^(product|item)$/.test(prefix)) return 'productName';
  if (prefix === 'city') return 'city';
  if (prefix === 'country') return 'country';
  if (prefix === 'file') return 'fileName';
  if (prefix === 'job') return 'jobTitle';
  if (prefix === 'street') return 'streetName';
  if (prefix === 'state') return 'state';
  if (prefix === 'user' || prefix === 'screen' || prefix === 'nick') return 'userName';
  if (prefix === 'display' || prefix === 'full' || PERSON_TYPES.test(prefix) || PERSON_WORDS.has(prefix)) return 'fullName';
  return 'thingName';
}

/** A realistic range for a number: inclusive bounds, `decimals` for a non-integer. */
export interface NumberRange {
  min: number;
  max: number;
  decimals?: number;
}

const INT_RANGES: Record<string, readonly [number, number]> = {
  age: [18, 90], year: [1990, 2030], month: [1, 12], day: [1, 28], hour: [0, 23], hours: [0, 23],
  minute: [0, 59], minutes: [0, 59], second: [0, 59], seconds: [0, 59], rating: [1, 5], stars: [1, 5],
  score: [0, 100], percent: [0, 100], percentage: [0, 100], progress: [0, 100], port: [1024, 65535],
  width: [100, 2000], height: [100, 2000], ms: [1, 60000], millis: [1, 60000], milliseconds: [1, 60000], duration: [1, 3600],
  priority: [0, 10], rank: [0, 10], order: [0, 10], position: [0, 10], index: [0, 10], level: [0, 10], sort: [0, 10],
  zip: [10000, 99999], zipcode: [10000, 99999], cents: [100, 100000],
  count: [0, 100], total: [0, 100], quantity: [0, 100], qty: [0, 100], number: [0, 100], num: [0, 100], size: [0, 100],
  latitude: [-90, 90], lat: [-90, 90], longitude: [-180, 180], lng: [-180, 180], lon: [-180, 180],
};

const FLOAT_RANGES: Record<string, NumberRange> = {
  latitude: { min: -90, max: 90, decimals: 6 }, lat: { min: -90, max: 90, decimals: 6 },
  longitude: { min: -180, max: 180, decimals: 6 }, lng: { min: -180, max: 180, decimals: 6 }, lon: { min: -180, max: 180, decimals: 6 },
  rating: { min: 1, max: 5, decimals: 1 }, stars: { min: 1, max: 5, decimals: 1 },
  age: { min: 18, max: 90, decimals: 1 }, year: { min: 1990, max: 2030, decimals: 0 }, port: { min: 1024, max: 65535, decimals: 0 },
  ...Object.fromEntries(['score', 'percent', 'percentage', 'progress'].map((w) => [w, { min: 0, max: 100, decimals: 1 }])),
  ...Object.fromEntries(['ratio', 'rate', 'probability', 'share', 'fraction', 'confidence'].map((w) => [w, { min: 0, max: 1, decimals: 4 }])),
  temperature: { min: -20, max: 40, decimals: 1 }, temp: { min: -20, max: 40, decimals: 1 },
  ...Object.fromEntries(['priority', 'rank', 'level', 'order', 'position', 'index', 'sort'].map((w) => [w, { min: 0, max: 10, decimals: 1 }])),
  ...Object.fromEntries(['estimate', 'points', 'effort'].map((w) => [w, { min: 0, max: 20, decimals: 1 }])),
  ...Object.fromEntries(['weight', 'height', 'width', 'length', 'distance', 'size', 'depth', 'area', 'volume', 'radius'].map((w) => [w, { min: 0.1, max: 100, decimals: 2 }])),
};

/**
 * A realistic range for a number named `name` (`age` 18 to 90, `latitude` ±90, `price` 1 to
 * 1000, `count` 0 to 100, `ratio` 0 to 1), by its last word; undefined: nothing known (each
 * generator has its default). Dates by name (epoch seconds, milliseconds) are dateKind's.
 */
export function numberRange(name: string, integer: boolean): NumberRange | undefined {
  const last = wordsOf(name).at(-1) ?? '';
  if (MONEY_WORDS.has(last)) return integer ? { min: 1, max: 1000 } : { min: 1, max: 1000, decimals: 2 };
  if (integer) {
    const range = INT_RANGES[last];
    return range === undefined ? undefined : { min: range[0], max: range[1] };
  }
  return FLOAT_RANGES[last];
}

/**
 * Realistic values chosen from a property (or definition) name when the schema itself says
 * nothing more specific. Callers still apply the schema's own bounds on top.
 */

const STRING_NAMES = new Map<string, string>();
const register = (call: string, names: string) => {
  for (const name of names.split(' ')) STRING_NAMES.set(name, call);
};
register('g.email()', 'email emailaddress mail');
register('g.url()', 'url uri href link website homepage webpage avatar image picture photo thumbnail icon logo');
register('g.firstName()', 'firstname givenname forename');
register('g.lastName()', 'lastname surname familyname');
register('g.fullName()', 'name fullname displayname realname contactname ownername author');
register('g.username()', 'username login handle nickname screenname');
register('g.phone()', 'phone phonenumber mobile telephone tel cellphone fax');
register('g.city()', 'city town');
register('g.country()', 'country countryname');
register('g.countryCode()', 'countrycode');
register('g.state()', 'state province region');
register('g.street()', 'street address streetaddress address1 addressline1 line1');
register('g.postcode()', 'zip zipcode postcode postalcode');
register('g.company()', 'company companyname organization organisation employer');
register('g.sentence()', 'description summary bio about comment message note notes text body content details reason');
register('g.title()', 'title subject headline caption');
register('g.shortId()', 'id');
register('g.uuid()', 'uuid guid');
register('g.slug()', 'slug');
register('g.token()', 'token accesstoken refreshtoken apikey secret hash sha checksum etag signature');
register('g.password()', 'password passwd');
register('g.color()', 'color colour');
register('g.currency()', 'currency currencycode');
register('g.locale()', 'locale language lang languagecode');
register('g.timeZone()', 'timezone tz');
register('g.ipv4()', 'ip ipaddress ipv4');
register('g.ipv6()', 'ipv6');
register('g.hostname()', 'host hostname domain');
register('g.version()', 'version semver');
register('g.mimeType()', 'mimetype contenttype mediatype');
register('g.date()', 'date birthdate birthday dob');
register('g.dateTime()', 'timestamp datetime');

/** Suffix rules on the name as written (camelCase or snake_case). */
const STRING_SUFFIXES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?:^|[_-])id$|[a-z0-9]Id$/, 'g.shortId()'],
  [/(?:url|uri|href)$/i, 'g.url()'],
  [/email$/i, 'g.email()'],
  [/phone$/i, 'g.phone()'],
  [/(?:_at|[a-z]At)$/, 'g.dateTime()'],
  [/(?:_date|[a-z]Date)$/, 'g.date()'],
  [/(?:description|summary)$/i, 'g.sentence()'],
  [/(?:token|secret|hash)$/i, 'g.token()'],
];

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The runtime call for a string named `name`; plurals (array items) count as their singular. */
export function stringHint(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const singular = name.endsWith('s') ? name.slice(0, -1) : name;
  for (const candidate of [name, singular]) {
    const hint = STRING_NAMES.get(normalise(candidate)) ?? STRING_SUFFIXES.find(([suffix]) => suffix.test(candidate))?.[1];
    if (hint !== undefined) return hint;
  }
  return undefined;
}

const NUMBER_RANGES = new Map<string, readonly [number, number]>([
  ['age', [18, 90]],
  ['year', [1990, 2030]],
  ['lat', [-90, 90]],
  ['latitude', [-90, 90]],
  ['lng', [-180, 180]],
  ['lon', [-180, 180]],
  ['longitude', [-180, 180]],
  ['port', [1024, 65535]],
  ['percent', [0, 100]],
  ['percentage', [0, 100]],
  ['rating', [1, 5]],
  ['price', [1, 500]],
  ['amount', [1, 500]],
]);

/** A realistic range for an unbounded number named `name`. */
export function numberHint(name: string | undefined): readonly [number, number] | undefined {
  return name === undefined ? undefined : NUMBER_RANGES.get(normalise(name));
}

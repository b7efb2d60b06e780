/**
 * Declarations the mock adds to a user's SDL when it uses a directive (or names a type) it does not
 * declare: GraphQL Faker's `@fake`, `@examples` and `@listLength`, and the Apollo Federation
 * subgraph vocabulary (v1 and v2). Each entry is added alone, with what it references, so an SDL
 * that uses none of them is served exactly as written.
 */

/**
 * GraphQL Faker's fake types: the union of its 1.x and 2.x enums (`money` was `price`, `filename`
 * was `fileName` …) plus a few names users write by analogy (`name`, `userName`, `sentence`,
 * `paragraph`, `date`, `dateTime`, `phone`). SDL validation does not type-check directive
 * arguments, so a value outside the enum (`type: "email"`) still builds; the enum is what tools
 * and IDEs see.
 */
export const FAKE_TYPES = [
  'zipCode', 'city', 'cityPrefix', 'citySuffix', 'streetName', 'streetAddress', 'streetSuffix', 'streetPrefix', 'secondaryAddress',
  'county', 'country', 'countryCode', 'state', 'stateAbbr', 'latitude', 'longitude',
  'colorName', 'productCategory', 'productName', 'money', 'price', 'productMaterial', 'product', 'productAdjective',
  'companyName', 'companySuffix', 'companySuffixes', 'companyCatchPhrase', 'companyBS', 'catchPhraseAdjective', 'catchPhraseDescriptor',
  'catchPhraseNoun', 'bsAdjective',
  'dbColumn', 'dbType', 'dbCollation', 'dbEngine',
  'pastDate', 'futureDate', 'recentDate', 'date', 'dateTime',
  'financeAccountName', 'financeTransactionType', 'currencyCode', 'currencyName', 'currencySymbol', 'bitcoinAddress',
  'internationalBankAccountNumber', 'bankIdentifierCode',
  'hackerAbbr', 'hackerPhrase',
  'imageUrl', 'avatarUrl', 'email', 'url', 'domainName', 'ipv4Address', 'ipv6Address', 'userAgent', 'colorHex', 'macAddress', 'password',
  'userName',
  'lorem', 'sentence', 'paragraph',
  'firstName', 'lastName', 'fullName', 'name', 'jobTitle',
  'phoneNumber', 'phone',
  'number', 'uuid', 'word', 'words', 'locale',
  'filename', 'fileName', 'commonFileName', 'mimeType', 'commonFileType', 'commonFileExt', 'fileType', 'fileExt', 'fileExtension', 'semver',
] as const;

/** GraphQL Faker's locales (faker.js 4 names); the mock maps them to @faker-js/faker's. */
export const FAKE_LOCALES = [
  'az', 'cz', 'de', 'de_AT', 'de_CH', 'en', 'en_AU', 'en_BORK', 'en_CA', 'en_GB', 'en_IE', 'en_IND', 'en_US', 'en_au_ocker', 'es', 'es_MX',
  'fa', 'fr', 'fr_CA', 'ge', 'id_ID', 'it', 'ja', 'ko', 'nb_NO', 'nep', 'nl', 'pl', 'pt_BR', 'ru', 'sk', 'sv', 'tr', 'uk', 'vi', 'zh_CN', 'zh_TW',
] as const;

const TYPE_SYSTEM_LOCATIONS =
  'SCHEMA | SCALAR | OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INTERFACE | UNION | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION';

/** One declaration: its SDL and the names of declarations it needs. */
interface Declaration {
  sdl: string;
  needs?: readonly string[];
}

/** Keys: `@name` for directives, the bare name for types. */
export const MOCK_DECLARATIONS: Readonly<Record<string, Declaration>> = {
  '@fake': {
    sdl: '"Fake data for this field or scalar (GraphQL Faker\'s @fake)."\ndirective @fake(type: fake__Types!, options: fake__options = {}, locale: fake__Locale) on FIELD_DEFINITION | SCALAR',
    needs: ['fake__Types', 'fake__options', 'fake__Locale'],
  },
  '@examples': {
    sdl: '"Values to answer with, one of them per object (GraphQL Faker\'s @examples)."\ndirective @examples(values: [examples__JSON]!) on FIELD_DEFINITION | SCALAR',
    needs: ['examples__JSON'],
  },
  '@listLength': { sdl: '"How many items this list field answers."\ndirective @listLength(min: Int!, max: Int!) on FIELD_DEFINITION' },
  fake__Types: { sdl: `enum fake__Types {\n${FAKE_TYPES.map((name) => `  ${name}`).join('\n')}\n}` },
  fake__Locale: { sdl: `enum fake__Locale {\n${FAKE_LOCALES.map((name) => `  ${name}`).join('\n')}\n}` },
  fake__imageCategory: { sdl: 'enum fake__imageCategory {\n  abstract\n  animals\n  business\n  cats\n  city\n  food\n  nightlife\n  fashion\n  people\n  nature\n  sports\n  technics\n  transport\n}' },
  fake__loremSize: { sdl: 'enum fake__loremSize {\n  word\n  words\n  sentence\n  sentences\n  paragraph\n  paragraphs\n}' },
  fake__color: { sdl: 'input fake__color {\n  red255: Int = 0\n  green255: Int = 0\n  blue255: Int = 0\n}' },
  fake__options: {
    sdl: [
      'input fake__options {',
      '  useFullAddress: Boolean',
      '  minMoney: Float',
      '  maxMoney: Float',
      '  decimalPlaces: Int',
      '  dec: Int',
      '  symbol: String',
      '  imageWidth: Int',
      '  imageHeight: Int',
      '  imageCategory: fake__imageCategory',
      '  randomizeImageUrl: Boolean',
      '  emailProvider: String',
      '  passwordLength: Int',
      '  loremSize: fake__loremSize',
      '  dateFormat: String',
      '  format: String',
      '  baseColor: fake__color',
      '  baseRed255: Int',
      '  baseGreen255: Int',
      '  baseBlue255: Int',
      '  mimeType: String',
      '  minNumber: Float',
      '  maxNumber: Float',
      '  precisionNumber: Float',
      '}',
    ].join('\n'),
    needs: ['fake__imageCategory', 'fake__loremSize', 'fake__color'],
  },
  examples__JSON: { sdl: 'scalar examples__JSON' },
};

/**
 * Federation v1 and v2 in one vocabulary: each directive takes the union of both versions'
 * arguments and locations (`@external(reason)` on OBJECT too, `@key(resolvable)`), so subgraphs
 * of either version build. The field-set scalar is `_FieldSet` (v1) or `FieldSet` (v2): the one
 * the SDL's own version uses (`%FIELDSET%`, replaced by assemble).
 */
export const FEDERATION_DECLARATIONS: Readonly<Record<string, Declaration>> = {
  '@key': { sdl: 'directive @key(fields: %FIELDSET%!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE', needs: ['%FIELDSET%'] },
  '@external': { sdl: 'directive @external(reason: String) on OBJECT | FIELD_DEFINITION' },
  '@requires': { sdl: 'directive @requires(fields: %FIELDSET%!) on FIELD_DEFINITION', needs: ['%FIELDSET%'] },
  '@provides': { sdl: 'directive @provides(fields: %FIELDSET%!) on FIELD_DEFINITION', needs: ['%FIELDSET%'] },
  '@extends': { sdl: 'directive @extends on OBJECT | INTERFACE' },
  '@shareable': { sdl: 'directive @shareable repeatable on OBJECT | FIELD_DEFINITION' },
  '@inaccessible': {
    sdl: 'directive @inaccessible on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION',
  },
  '@override': { sdl: 'directive @override(from: String!, label: String) on FIELD_DEFINITION' },
  '@tag': {
    sdl: 'directive @tag(name: String!) repeatable on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION | SCHEMA',
  },
  '@link': { sdl: 'directive @link(url: String!, as: String, for: link__Purpose, import: [link__Import]) repeatable on SCHEMA', needs: ['link__Purpose', 'link__Import'] },
  '@composeDirective': { sdl: 'directive @composeDirective(name: String!) repeatable on SCHEMA' },
  '@interfaceObject': { sdl: 'directive @interfaceObject on OBJECT' },
  '@authenticated': { sdl: 'directive @authenticated on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM' },
  '@requiresScopes': {
    sdl: 'directive @requiresScopes(scopes: [[federation__Scope!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM',
    needs: ['federation__Scope'],
  },
  '@policy': {
    sdl: 'directive @policy(policies: [[federation__Policy!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE | SCALAR | ENUM',
    needs: ['federation__Policy'],
  },
  _Any: { sdl: 'scalar _Any' },
  _FieldSet: { sdl: 'scalar _FieldSet' },
  FieldSet: { sdl: 'scalar FieldSet' },
  federation__FieldSet: { sdl: 'scalar federation__FieldSet' },
  federation__Scope: { sdl: 'scalar federation__Scope' },
  federation__Policy: { sdl: 'scalar federation__Policy' },
  link__Import: { sdl: 'scalar link__Import' },
  link__Purpose: { sdl: 'enum link__Purpose {\n  SECURITY\n  EXECUTION\n}' },
  _Service: { sdl: 'type _Service {\n  sdl: String\n}' },
};

/**
 * AWS AppSync's built-in scalars: AppSync schemas use them without declaring them, so they are
 * declared when named and not declared.
 */
export const APPSYNC_SCALARS = ['AWSDate', 'AWSTime', 'AWSDateTime', 'AWSTimestamp', 'AWSEmail', 'AWSJSON', 'AWSURL', 'AWSPhone', 'AWSIPAddress'] as const;

/** Every mock directive declared at once (documentation, editors); assemble adds them one by one. */
export const MOCK_DIRECTIVES_SDL: string = Object.values(MOCK_DECLARATIONS)
  .map((declaration) => declaration.sdl)
  .join('\n\n');

/** The federation vocabulary at once (v2 names: `FieldSet`). */
export const FEDERATION_SDL: string = Object.entries(FEDERATION_DECLARATIONS)
  .filter(([name]) => name !== '_FieldSet' && name !== 'federation__FieldSet')
  .map(([, declaration]) => declaration.sdl.replaceAll('%FIELDSET%', 'FieldSet'))
  .join('\n\n');

export { TYPE_SYSTEM_LOCATIONS };

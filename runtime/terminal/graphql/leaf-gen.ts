import { GraphQLEnumType, type GraphQLLeafType } from 'graphql';
import { booleanGen, dateKind, floatGen, intGen, stringGen, wordsOf, type DateShape, type FakeKind, type Fakes, type Gen, type LeafField, type NumberSpec } from '../fake-data/index.js';

/**
 * A GraphQL leaf field's fake value: by its type (enums, the built-in scalars, custom scalars by
 * their names' shapes), then by the field's name (../fake-data/name-kinds.ts).
 */

/** What a custom scalar's name says its values look like. */
export type ScalarShape =
  | { kind: 'string'; gen?: FakeKind }
  | { kind: 'date'; shape: DateShape }
  | { kind: 'time' }
  | { kind: 'number'; spec: NumberSpec }
  | { kind: 'bigint' }
  | { kind: 'json' }
  | { kind: 'void' };

/** By name, well-known custom scalars (graphql-scalars, AppSync, Hasura, Shopify, Linear …); others are strings. */
export function scalarShape(name: string): ScalarShape {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (n === 'void' || n === 'unit' || n === 'null') return { kind: 'void' };
  if (/^(json|jsonobject|jsonvalue|object|map|any|anyscalar|jsonb|awsjson|hstore|struct|dict|jsonstring)$/.test(n)) return { kind: 'json' };
  if (/^(uuid|guid|uuidv4|awsuuid)$/.test(n)) return { kind: 'string', gen: 'uuid' };
  if (/(datetimeorduration|datetime|timestamptz|timestamp|instant|iso8601|^iso$|zoneddatetime|offsetdatetime)/.test(n)) {
    if (n === 'awstimestamp' || n === 'unixtimestamp' || n === 'epochseconds') return { kind: 'date', shape: 'epochSeconds' };
    if (n === 'timestamp' || n === 'epochmillis') return { kind: 'date', shape: 'epochMillis' };
    return { kind: 'date', shape: 'datetime' };
  }
  if (/(date|day)$/.test(n) || /dateorduration$/.test(n) || n === 'localdate' || n === 'awsdate') return { kind: 'date', shape: 'date' };
  if (/^(time|localtime|awstime|timeofday)$/.test(n)) return { kind: 'time' };
  if (/duration|interval/.test(n)) return { kind: 'string', gen: 'duration' };
  if (/^(url|uri|awsurl|link|href|urlstring|httpurl|absoluteurl)$/.test(n) || n.endsWith('url')) return { kind: 'string', gen: 'url' };
  if (/email/.test(n)) return { kind: 'string', gen: 'email' };
  if (/phone/.test(n)) return { kind: 'string', gen: 'phone' };
  if (/^(bigint|biginteger|long|int64|int53|safeint|uint64|unsignedlong)$/.test(n)) return { kind: 'bigint' };
  if (/^(bigdecimal|decimal|numeric|money|currencyamount)$/.test(n)) return { kind: 'number', spec: { min: 1, max: 1000, decimals: 2, asString: true } };
  if (/^(positiveint|nonnegativeint|unsignedint|uint|uint32|byteint|naturalnumber)$/.test(n)) return { kind: 'number', spec: { min: 1, max: 1000 } };
  if (/^(negativeint|nonpositiveint)$/.test(n)) return { kind: 'number', spec: { min: -1000, max: -1 } };
  if (/^(int|integer|int32|short|int16)$/.test(n)) return { kind: 'number', spec: { min: 1, max: 1000 } };
  if (/^(float|double|float64|real|positivefloat|nonnegativefloat|formattednumber|number)$/.test(n)) return { kind: 'number', spec: { min: 0, max: 1000, decimals: 2 } };
  if (n === 'latitude') return { kind: 'number', spec: { min: -90, max: 90, decimals: 6 } };
  if (n === 'longitude') return { kind: 'number', spec: { min: -180, max: 180, decimals: 6 } };
  if (/^(port)$/.test(n)) return { kind: 'number', spec: { min: 1024, max: 65535 } };
  if (/^(hexcolor|hexcolorcode|color|rgb|hex)$/.test(n)) return { kind: 'string', gen: 'hexColor' };
  if (/^(ip|ipv4|ipaddress|awsipaddress)$/.test(n)) return { kind: 'string', gen: 'ipv4' };
  if (n === 'ipv6') return { kind: 'string', gen: 'ipv6' };
  if (n === 'mac') return { kind: 'string', gen: 'macAddress' };
  if (/countrycode|countryiso/.test(n)) return { kind: 'string', gen: 'countryCode' };
  if (/currency/.test(n)) return { kind: 'string', gen: 'currencyCode' };
  if (/^(locale|language|languagecode)$/.test(n)) return { kind: 'string', gen: 'locale' };
  if (/timezone/.test(n)) return { kind: 'string', gen: 'timeZone' };
  if (/cursor/.test(n)) return { kind: 'string', gen: 'cursor' };
  if (/^(html|markdown|richtext|md)$/.test(n)) return { kind: 'string', gen: 'paragraph' };
  if (n === 'jwt') return { kind: 'string', gen: 'jwt' };
  if (/^(byte|bytes|base64|blob|binary)$/.test(n)) return { kind: 'string', gen: 'base64' };
  if (n === 'objectid') return { kind: 'string', gen: 'objectId' };
  if (/^(upload|file)$/.test(n)) return { kind: 'string', gen: 'fileName' };
  if (/^(semver|version)$/.test(n)) return { kind: 'string', gen: 'semver' };
  if (n === 'slug') return { kind: 'string', gen: 'slug' };
  return { kind: 'string' };
}

/** The generator of a custom scalar field: its scalar's shape, then the field's name. */
export function customScalarGen(fakes: Fakes, shape: ScalarShape, field: LeafField): Gen {
  switch (shape.kind) {
    case 'void':
      return () => null;
    case 'json':
      return fakes.gen('jsonObject');
    case 'time':
      return fakes.gen('time');
    case 'bigint':
      return fakes.number({ min: 1_000_000, max: 9_000_000_000_000 });
    case 'number':
      return fakes.number(shape.spec);
    case 'date': {
      const words = wordsOf(field.name);
      const kind = dateKind(words, shape.shape) ?? dateKind(['created', 'at'], shape.shape)!;
      if (shape.shape === 'date' && !(kind === 'pastDate' || kind === 'futureDate' || kind === 'birthDate')) return fakes.gen('pastDate');
      return fakes.gen(kind);
    }
    case 'string':
      return shape.gen === undefined ? stringGen(fakes, field) : fakes.gen(shape.gen);
  }
}

/** The default generator of a leaf field: by its type, then its name. */
export function leafGen(fakes: Fakes, type: GraphQLLeafType, field: LeafField, identityField: boolean): Gen {
  if (type instanceof GraphQLEnumType) {
    // by hash; lists of enums take consecutive values instead (field-values.ts)
    return fakes.pick(type.getValues().map((v) => v.name));
  }
  switch (type.name) {
    case 'String':
      return stringGen(fakes, field);
    case 'ID':
      return identityField ? fakes.gen('uuid') : idLike(fakes, field);
    case 'Int':
      return intGen(fakes, field);
    case 'Float':
      return floatGen(fakes, field);
    case 'Boolean':
      return booleanGen(fakes, field);
    default:
      return customScalarGen(fakes, scalarShape(type.name), field);
  }
}

function idLike(fakes: Fakes, field: LeafField): Gen {
  const words = wordsOf(field.name);
  const last = words.at(-1);
  if (last === 'id' || last === 'ids' || last === 'uuid' || last === 'key') return fakes.gen('uuid');
  if (last === 'cursor') return fakes.gen('cursor');
  return stringGen(fakes, field);
}

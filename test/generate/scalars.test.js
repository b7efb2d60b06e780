// Strings, numbers, booleans, enums and consts: generated values validate and look realistic.
import t from 'tap';
import { build, checkMany, createAjv, validatorFor } from './fixtures/harness.js';

const ajv = createAjv();

/** Builds one generator per schema and checks 50 values of each. */
function checkAll(t, schemas, definitions = {}) {
  const { generators } = build(definitions, schemas, { seed: 3 });
  const values = {};
  for (const [name, entry] of Object.entries(schemas)) {
    const schema = Array.isArray(entry) ? entry[0] : entry;
    values[name] = checkMany(t, generators[name], validatorFor(ajv, definitions, schema), 50, name);
  }
  return values;
}

t.test('string formats', (t) => {
  const formats = [
    'uuid', 'uuid4', 'date-time', 'date', 'time', 'email', 'uri', 'url', 'uri-reference', 'hostname', 'ipv4', 'ipv6',
    'byte', 'binary', 'password', 'duration', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex',
    'int64', 'uint64', 'snowflake', 'nonce', 'phone-number', 'currency', 'cidr', 'mac', 'decimal', 'iso-date-time',
    'some-unknown-format',
  ];
  const values = checkAll(t, Object.fromEntries(formats.map((format) => [format, { type: 'string', format }])));
  t.match(values.uuid[0], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.match(values.uuid4[0], /^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  t.match(values.email[0], /^[a-z]+\.[a-z0-9]+@example\.(com|org|net)$/);
  t.match(values.uri[0], /^https:\/\//);
  t.match(values.snowflake[0], /^[1-9]\d{16,18}$/);
  t.match(values.int64[0], /^[1-9]\d*$/);
  t.match(values.date[0], /^\d{4}-\d{2}-\d{2}$/);
  t.end();
});

t.test('date-time is the current time', (t) => {
  const now = Date.UTC(2024, 4, 17, 12, 30, 0);
  const { generators } = build({}, { at: { type: 'string', format: 'date-time' } }, { now: () => now });
  t.equal(generators.at(), '2024-05-17T12:30:00.000Z');
  t.end();
});

t.test('string lengths, patterns and formats with bounds', (t) => {
  checkAll(t, {
    short: { type: 'string', maxLength: 3 },
    long: { type: 'string', minLength: 40 },
    exact: { type: 'string', minLength: 5, maxLength: 5 },
    code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
    digits: { type: 'string', pattern: '^\\d+$', minLength: 12, maxLength: 14 },
    unanchored: { type: 'string', pattern: '[a-z]{2}\\d' },
    color: { type: ['string', 'null'], maxLength: 7, pattern: '^#(([0-9a-fA-F]{2}){3}|([0-9a-fA-F]){3})$' },
    snowflake: { type: 'string', format: 'snowflake', pattern: '^(0|[1-9][0-9]*)$' },
    tightEmail: { type: 'string', format: 'email', maxLength: 64 },
    paddedUnknown: { type: 'string', format: 'nonce', maxLength: 5 },
  });
  t.end();
});

t.test('property-name hints give realistic values within the bounds', (t) => {
  const properties = {
    email: { type: 'string' },
    name: { type: 'string', maxLength: 5 },
    avatar_url: { type: 'string' },
    phone: { type: 'string' },
    city: { type: 'string' },
    country: { type: 'string' },
    description: { type: 'string', minLength: 60 },
    userId: { type: 'string' },
    created_at: { type: 'string' },
    age: { type: 'integer' },
    latitude: { type: 'number' },
  };
  const schema = { type: 'object', required: Object.keys(properties), properties };
  const [value] = checkAll(t, { person: schema }).person;
  t.match(value.email, /@example\./);
  t.ok(value.name.length <= 5);
  t.match(value.avatar_url, /^https:\/\//);
  t.match(value.phone, /^\+1\d{10}$/);
  t.ok(value.description.length >= 60);
  t.match(value.userId, /^[a-z0-9]{10}$/);
  t.match(value.created_at, /^\d{4}-\d\d-\d\dT/);
  t.ok(value.age >= 18 && value.age <= 90);
  t.ok(value.latitude >= -90 && value.latitude <= 90);
  t.end();
});

t.test('examples and defaults are used when valid', (t) => {
  const { generators } = build({}, {
    example: { type: 'string', example: 'doggie' },
    examples: { type: 'integer', examples: [42, 43] },
    fallback: { type: 'number', default: 1.5 },
    flag: { type: 'boolean', default: true },
    tooLong: { type: 'string', maxLength: 3, example: 'doggie' },
    badFormat: { type: 'string', format: 'email', example: 'not an email' },
    badPattern: { type: 'string', pattern: '^\\d+$', example: 'abc' },
    outOfRange: { type: 'integer', minimum: 10, example: 5 },
    wrongType: { type: 'integer', example: 'seven' },
  });
  t.equal(generators.example(), 'doggie');
  t.equal(generators.examples(), 42);
  t.equal(generators.fallback(), 1.5);
  t.equal(generators.flag(), true);
  t.ok(generators.tooLong().length <= 3);
  t.not(generators.badFormat(), 'not an email');
  t.match(generators.badPattern(), /^\d+$/);
  t.ok(generators.outOfRange() >= 10);
  t.equal(typeof generators.wrongType(), 'number');
  t.end();
});

t.test('numbers: bounds, exclusive bounds, multipleOf, formats', (t) => {
  const values = checkAll(t, {
    plain: { type: 'integer' },
    small: { type: 'integer', minimum: -3, maximum: 3 },
    exclusive: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 3 },
    high: { type: 'integer', minimum: 5000 },
    negative: { type: 'integer', maximum: -10 },
    stepped: { type: 'integer', minimum: 0, maximum: 100, multipleOf: 7 },
    bigStep: { type: 'integer', multipleOf: 5000 },
    int32: { type: 'integer', format: 'int32' },
    wideInt64: { type: 'integer', format: 'int64', minimum: -9223372036854775808, maximum: 9223372036854775807 },
    uint8: { type: 'integer', format: 'uint8', minimum: 100 },
    float: { type: 'number' },
    fraction: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    cents: { type: 'number', minimum: 0, maximum: 10, multipleOf: 0.01 },
    tenths: { type: 'number', multipleOf: 0.1 },
    numberInt32: { type: 'number', format: 'int32' },
    formatOnly: { format: 'int64' },
  });
  t.ok(values.plain.every((v) => v >= 1 && v <= 1000), 'unbounded integers stay small and positive');
  t.ok(values.wideInt64.every((v) => v >= 1 && v <= 1000), 'full int64 range is treated as unbounded');
  t.ok(values.uint8.every((v) => v >= 100 && v <= 255));
  t.ok(values.float.some((v) => !Number.isInteger(v)), 'numbers have decimals');
  t.end();
});

t.test('booleans, null, enums, consts, empty schemas', (t) => {
  const values = checkAll(t, {
    bool: { type: 'boolean' },
    nothing: { type: 'null' },
    status: { type: 'string', enum: ['available', 'pending', 'sold'] },
    nullableEnum: { type: ['string', 'null'], enum: ['a', 'b', null] },
    mixedEnum: { enum: [1, 'one', { n: 1 }] },
    constant: { const: 'fixed' },
    constObject: { const: { a: [1, 2] } },
    empty: {},
    anything: true,
    stringOrNull: { type: ['string', 'null'] },
    nullFirst: { type: ['null', 'integer'] },
  });
  t.same(new Set(values.status), new Set(['available', 'pending', 'sold']), 'every enum value shows up');
  t.ok(values.nullableEnum.every((v) => v !== null), 'non-null enum values are preferred');
  t.ok(values.empty.every((v) => typeof v === 'string' && v.length > 0), 'empty schema gives a short string');
  t.ok(values.stringOrNull.every((v) => typeof v === 'string'), 'the non-null type is preferred');
  t.ok(values.nullFirst.every((v) => Number.isInteger(v)));
  const [a, b] = values.constObject;
  t.not(a, b, 'object consts are fresh values');
  t.end();
});

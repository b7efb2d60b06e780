// Keywords of later drafts (as the IR lowers them) and the conditional ones: each is honoured,
// not merely survived. Ajv 2020 checks what draft-07 has no word for (minContains, unevaluated*).
import t from 'tap';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { build, checkMany, createAjv, validatorFor } from './fixtures/harness.js';

const draft7 = createAjv();
const ajv2020 = new Ajv2020({ strict: false, allErrors: true, logger: false });
addFormats(ajv2020);

function check(t, schema, { ajv = draft7, definitions = {}, count = 50 } = {}) {
  const { generators } = build(definitions, { it: schema }, { seed: 3 });
  return checkMany(t, generators.it, validatorFor(ajv, definitions, schema), count);
}

t.test('contains, minContains and maxContains', (t) => {
  const values = check(t, {
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: 100 },
    contains: { minimum: 90 },
    minContains: 2,
    maxContains: 3,
  }, { ajv: ajv2020 });
  t.ok(values.every((v) => v.filter((n) => n >= 90).length >= 2), 'at least minContains matching items');
  const roles = check(t, {
    type: 'array',
    uniqueItems: true,
    minItems: 2,
    items: { enum: ['read', 'write', 'admin'] },
    contains: { const: 'admin' },
  });
  t.ok(roles.every((v) => v.includes('admin')), 'unique arrays hold the contained item once');
  t.end();
});

t.test('tuples (prefixItems lowered to items + additionalItems)', (t) => {
  const closed = check(t, { type: 'array', items: [{ type: 'string', format: 'uuid' }, { type: 'integer' }], additionalItems: false });
  t.ok(closed.every((v) => v.length === 2 && typeof v[0] === 'string' && Number.isInteger(v[1])), 'the prefix types in order');
  const open = check(t, { type: 'array', minItems: 4, items: [{ type: 'number' }, { type: 'string' }], additionalItems: { type: 'boolean' } });
  t.ok(open.every((v) => v.length === 4 && typeof v[2] === 'boolean'), 'the rest from additionalItems');
  t.end();
});

t.test('dependencies: a present property brings its dependents, a dependent schema holds', (t) => {
  const lists = check(t, {
    type: 'object',
    properties: { name: { type: 'string' }, card: { type: 'string' }, billing: { type: 'string' } },
    dependencies: { card: ['billing', 'undeclared'] },
  });
  t.ok(lists.every((v) => !('card' in v) || ('billing' in v && 'undeclared' in v)));
  t.ok(lists.some((v) => 'card' in v), 'the optional trigger is still generated');
  const closed = check(t, {
    type: 'object',
    additionalProperties: false,
    properties: { card: { type: 'string' }, name: { type: 'string' } },
    dependencies: { card: ['billing'] },
  });
  t.ok(closed.every((v) => !('card' in v)), 'a trigger whose dependent a closed object rejects is left out');
  const required = check(t, { type: 'object', required: ['vat'], properties: { vat: { type: 'string' } }, dependencies: { vat: ['company'] } });
  t.ok(required.every((v) => 'company' in v), 'a required trigger makes its dependents required');
  const schemas = check(t, {
    type: 'object',
    properties: { vat: { type: 'string' } },
    dependencies: { vat: { required: ['company'], properties: { company: { type: 'string', minLength: 3 } } } },
  });
  t.ok(schemas.every((v) => v.company.length >= 3));
  t.end();
});

t.test('if/then/else', (t) => {
  const values = check(t, {
    type: 'object',
    required: ['country', 'postal_code'],
    properties: { country: { enum: ['US', 'CA'] }, postal_code: { type: 'string' } },
    if: { properties: { country: { const: 'US' } } },
    then: { properties: { postal_code: { pattern: '^[0-9]{5}$' } } },
    else: { properties: { postal_code: { pattern: '^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$' } } },
  });
  t.ok(values.every((v) => v.country === 'US' && /^[0-9]{5}$/.test(v.postal_code)), 'values satisfy if, then then');
  check(t, { type: 'integer', if: false, then: { minimum: 1000 }, else: { maximum: 5, minimum: 1 } });
  t.end();
});

t.test('propertyNames, patternProperties and unevaluatedProperties', (t) => {
  const names = check(t, { type: 'object', propertyNames: { pattern: '^[A-Z]{3}$' }, additionalProperties: { type: 'number' }, minProperties: 1 });
  t.ok(names.every((v) => Object.keys(v).length >= 1));
  const languages = check(t, { type: 'object', propertyNames: { enum: ['en', 'fr'] }, additionalProperties: { type: 'string' }, minProperties: 2 });
  t.ok(languages.every((v) => Object.keys(v).sort().join() === 'en,fr'));
  check(t, { type: 'object', patternProperties: { '^x-[a-z]+$': { type: 'integer' } }, additionalProperties: false, minProperties: 2 });
  check(t, {
    type: 'object',
    properties: { id: { type: 'integer' } },
    required: ['id'],
    propertyNames: { pattern: '^[a-z]+$' },
    additionalProperties: { type: 'integer' },
    minProperties: 3,
  });
  const flags = check(t, { type: 'object', properties: { id: { type: 'integer' } }, minProperties: 3, unevaluatedProperties: { type: 'boolean' } }, { ajv: ajv2020 });
  t.ok(flags.every((v) => Object.keys(v).length >= 3));
  check(t, {
    allOf: [{ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }],
    properties: { name: { type: 'string' } },
    minProperties: 2,
    unevaluatedProperties: false,
  }, { ajv: ajv2020 });
  t.end();
});

t.test('multipleOf with decimals survives floating-point division', (t) => {
  check(t, { type: 'number', multipleOf: 0.01 }, { count: 500 });
  check(t, { type: 'number', multipleOf: 0.07, minimum: 1, maximum: 2 }, { count: 200 });
  const integers = check(t, { type: 'integer', multipleOf: 0.3 }, { count: 200 });
  t.ok(integers.every((v) => Number.isInteger(v)), 'an integer multiple of 0.3 is a multiple of 3');
  check(t, { type: 'integer', multipleOf: 0.07 }, { count: 200 });
  check(t, { type: 'number', allOf: [{ multipleOf: 0.5 }, { multipleOf: 0.75 }] });
  t.end();
});

t.test('the first of a 3.1 examples array is used like example', (t) => {
  const { generators } = build({}, { flag: { type: 'boolean', examples: [false, true] }, count: { examples: [7] }, name: { type: 'string', examples: ['Ada'] } });
  t.equal(generators.flag(), false);
  t.equal(generators.count(), 7);
  t.equal(generators.name(), 'Ada');
  t.end();
});

// The JSON Schema keywords real descriptions use, 2020-12 ones included: `mock serve` answers a
// 3.1 description with generated data that validates against each response schema (checked
// here with Ajv 2020, not the build's own validators) and visibly honours the keyword; oneOf
// members that overlap still get answers exactly one member accepts; and `mock build` warns,
// naming it, about a schema no generated value satisfies.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';

const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
const get = (schema) => ({ get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } });

const schemas = {
  PublicUser: {
    type: 'object',
    additionalProperties: false,
    required: ['login', 'id'],
    properties: { login: { type: 'string' }, id: { type: 'integer' }, bio: { type: 'string' } },
  },
  PrivateUser: {
    type: 'object',
    required: ['login', 'id'],
    properties: { login: { type: 'string' }, id: { type: 'integer' }, bio: { type: 'string' }, two_factor_authentication: { type: 'boolean' } },
  },
  Card: {
    type: 'object',
    required: ['amount'],
    properties: { amount: { type: 'number' }, method: { const: 'card' }, currency: { type: 'string' } },
  },
  Transfer: {
    type: 'object',
    required: ['amount', 'currency'],
    properties: { amount: { type: 'number' }, method: { const: 'transfer' }, currency: { type: 'string' } },
  },
  Dog: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: { name: { type: 'string' }, pet_type: { type: 'string' }, bark: { type: 'boolean' } },
  },
  Cat: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, pet_type: { type: 'string' }, lives: { type: 'integer' } } },
  StringAndInteger: { allOf: [{ type: 'string' }, { type: 'integer' }] },
  EmptyRange: { type: 'integer', minimum: 10, maximum: 5 },
};

const paths = {
  '/contains': get({ type: 'array', items: { type: 'integer', minimum: 1, maximum: 100 }, contains: { minimum: 90 }, minContains: 2, maxContains: 3 }),
  '/const': get({
    oneOf: [ref('Card'), ref('Transfer')],
    discriminator: { propertyName: 'method', mapping: { card: '#/components/schemas/Card', transfer: '#/components/schemas/Transfer' } },
  }),
  '/prefix-items': get({ type: 'array', prefixItems: [{ type: 'string', format: 'uuid' }, { type: 'integer' }, { type: 'boolean' }], items: false }),
  '/dependent-required': get({
    type: 'object',
    required: ['credit_card'],
    properties: { name: { type: 'string' }, credit_card: { type: 'string' } },
    additionalProperties: { type: 'string' },
    dependentRequired: { credit_card: ['billing_address'] },
  }),
  '/if-then-else': get({
    type: 'object',
    required: ['country', 'postal_code'],
    properties: { country: { enum: ['US', 'CA'] }, postal_code: { type: 'string' } },
    if: { properties: { country: { const: 'US' } } },
    then: { properties: { postal_code: { pattern: '^[0-9]{5}$' } } },
    else: { properties: { postal_code: { pattern: '^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$' } } },
  }),
  '/property-names': get({ type: 'object', propertyNames: { pattern: '^[A-Z]{3}$' }, additionalProperties: { type: 'number' }, minProperties: 1 }),
  '/unevaluated-properties': get({
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'integer' } },
    minProperties: 3,
    unevaluatedProperties: { type: 'boolean' },
  }),
  '/multiple-of': get({
    type: 'object',
    required: ['price', 'ratio', 'count'],
    properties: {
      price: { type: 'number', multipleOf: 0.01 },
      ratio: { type: 'number', multipleOf: 0.07, minimum: 1, maximum: 2 },
      count: { type: 'integer', multipleOf: 0.3 },
    },
  }),
  '/stats': get({ type: 'object', properties: { users: { type: 'integer' }, active: { type: 'boolean' } }, examples: [{ users: 42, active: true }] }),
  '/user': get({ oneOf: [ref('PublicUser'), ref('PrivateUser')] }),
  '/pet': get({ oneOf: [ref('Dog'), ref('Cat')], discriminator: { propertyName: 'pet_type' } }),
  '/impossible': get({ type: 'object', required: ['value', 'range'], properties: { value: ref('StringAndInteger'), range: ref('EmptyRange') } }),
};
const description = { openapi: '3.1.0', info: { title: 'keywords', version: '1' }, paths, components: { schemas } };

const dir = tmpdir();
const spec = path.join(dir, 'keywords.json');
writeFileSync(spec, JSON.stringify(description));
const out = path.join(dir, 'out');
const built = await runMock(['build', '--spec', spec, '--out', out]);
const server = await startMock(['--spec', spec, '--out', out, '--seed', '11']);
t.teardown(() => server.stop());

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...description, $id: 'keywords' });
const pointer = (p) => `keywords#/paths/${p.replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`;
const COUNT = 12;

/** COUNT answers of GET `p`, each checked against its response schema. */
async function answers(t, p) {
  const validate = ajv.getSchema(pointer(p));
  const bodies = [];
  for (let i = 0; i < COUNT; i++) {
    const res = await fetch(server.url + p);
    t.equal(res.status, 200, `GET ${p}`);
    const body = await res.json();
    if (!validate(body)) t.fail(`GET ${p}: ${JSON.stringify(body)} breaks its schema: ${JSON.stringify(validate.errors.slice(0, 2))}`);
    bodies.push(body);
  }
  t.pass(`${COUNT} answers of GET ${p} validate`);
  return bodies;
}

const member = (name) => ajv.getSchema(`keywords#/components/schemas/${name}`);

t.test('contains with minContains and maxContains', async (t) => {
  for (const body of await answers(t, '/contains')) {
    const matching = body.filter((n) => n >= 90).length;
    t.ok(matching >= 2 && matching <= 3, `${JSON.stringify(body)}: 2 or 3 items of at least 90`);
  }
});

t.test('const: the pinned value is answered, also where the property is optional', async (t) => {
  const methods = new Set();
  for (const body of await answers(t, '/const')) {
    t.equal(body.method, member('Card')(body) ? 'card' : 'transfer', `${JSON.stringify(body)}: the const of the member that accepts it`);
    methods.add(body.method);
  }
  t.same([...methods].sort(), ['card', 'transfer'], 'both members are answered');
});

t.test('prefixItems: the listed types, in order, and nothing more', async (t) => {
  for (const body of await answers(t, '/prefix-items')) {
    t.same(body.map((v) => typeof v), ['string', 'number', 'boolean']);
    t.ok(Number.isInteger(body[1]));
  }
});

t.test('dependentRequired: the dependent property comes with its trigger, declared or not', async (t) => {
  for (const body of await answers(t, '/dependent-required')) t.type(body.billing_address, 'string');
});

t.test('if/then/else: the branch the value selects holds', async (t) => {
  for (const body of await answers(t, '/if-then-else')) {
    const pattern = body.country === 'US' ? /^[0-9]{5}$/ : /^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$/;
    t.match(body.postal_code, pattern);
  }
});

t.test('propertyNames: keys that match it, as many as minProperties asks', async (t) => {
  for (const body of await answers(t, '/property-names')) {
    t.ok(Object.keys(body).length >= 1);
    t.ok(Object.keys(body).every((key) => /^[A-Z]{3}$/.test(key)), Object.keys(body).join());
  }
});

t.test('unevaluatedProperties: extra entries are of its type', async (t) => {
  for (const body of await answers(t, '/unevaluated-properties')) {
    const extra = Object.entries(body).filter(([key]) => key !== 'id');
    t.ok(extra.length >= 2 && extra.every(([, value]) => typeof value === 'boolean'), JSON.stringify(body));
  }
});

t.test('multipleOf with decimals: exact multiples, whole numbers for integers', async (t) => {
  for (const body of await answers(t, '/multiple-of')) {
    t.ok(Number.isInteger(body.count) && body.count % 3 === 0, `${body.count} is a whole multiple of 0.3`);
    t.ok(body.ratio >= 1 && body.ratio <= 2);
  }
});

t.test("a 3.1 schema's examples array is served like example", async (t) => {
  for (const body of await answers(t, '/stats')) t.same(body, { users: 42, active: true });
});

t.test('oneOf without a discriminator, members overlapping: a value only one accepts', async (t) => {
  for (const body of await answers(t, '/user')) {
    t.notOk(member('PublicUser')(body), 'the public user (closed) rejects it');
    t.type(body.two_factor_authentication, 'boolean', 'through the property only the private user has');
  }
});

t.test('oneOf with a discriminator, members overlapping: a value only one accepts, named by the schema name', async (t) => {
  for (const body of await answers(t, '/pet')) {
    t.notOk(member('Dog')(body), 'an open cat accepts every closed dog: only cats are answered');
    t.equal(body.pet_type, 'Cat');
  }
});

t.test('mock build names the schemas no generated value satisfies', async (t) => {
  t.equal(built.code, 0, built.stderr);
  const warnings = built.stderr.split('\n').filter((line) => line.startsWith('mock: warning:'));
  for (const name of ['StringAndInteger', 'EmptyRange']) {
    t.ok(warnings.some((w) => w.includes(`schema ${name} `) && w.includes('GET /impossible 200')), `a warning names ${name}: ${warnings.join('\n')}`);
  }
  t.equal(warnings.length, 2, 'and nothing else');
});

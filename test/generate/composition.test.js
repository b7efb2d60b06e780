// allOf merging, oneOf/anyOf variant choice and discriminators.
import t from 'tap';
import { build, checkMany, createAjv, validatorFor } from './fixtures/harness.js';

const ajv = createAjv();
const ref = (name) => ({ $ref: `#/definitions/${name}` });

function check(t, definitions, schema, { mode = 'response', count = 50 } = {}) {
  const { generators } = build(definitions, { it: [schema, mode] }, { seed: 11 });
  return checkMany(t, generators.it, validatorFor(ajv, definitions, schema), count);
}

t.test('allOf members are merged at build time', (t) => {
  const definitions = {
    Base: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer', minimum: 1, maximum: 100 }, kind: { type: 'string', enum: ['a', 'b', 'c'] } },
    },
    Named: { allOf: [ref('Base'), { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }] },
  };
  const [named] = check(t, definitions, ref('Named'));
  t.ok('id' in named && 'name' in named, 'required properties of every member');

  check(t, definitions, {
    allOf: [
      ref('Base'),
      { properties: { id: { type: 'integer', minimum: 50 }, kind: { enum: ['b', 'c', 'd'] } } },
      { properties: { id: { maximum: 60 } } },
    ],
  });
  const values = check(t, {}, {
    allOf: [
      { type: ['string', 'null'], minLength: 2, maxLength: 10 },
      { type: 'string', minLength: 4 },
      { maxLength: 6, pattern: '^[a-z]+$' },
    ],
  });
  t.ok(values.every((v) => typeof v === 'string'), 'type intersection drops null');
  check(t, {}, { allOf: [{ type: 'number', multipleOf: 4 }, { type: 'integer', multipleOf: 6, minimum: 10, maximum: 50 }] });
  check(t, {}, { allOf: [{ type: 'array', items: { type: 'integer' }, minItems: 2 }, { items: { minimum: 3 }, maxItems: 2 }] });
  check(t, definitions, { $ref: '#/definitions/Base', required: ['kind'] });
  t.end();
});

t.test('additionalProperties: false in one member closes the merged object', (t) => {
  const definitions = {
    Closed: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' }, b: { type: 'string' } } },
  };
  const values = check(t, definitions, { allOf: [ref('Closed'), { properties: { c: { type: 'string' } } }] });
  t.ok(values.every((v) => !('c' in v)), 'optional properties the closed member rejects are left out');
  t.end();
});

t.test('cyclic allOf references terminate', (t) => {
  const definitions = {
    A: { allOf: [ref('B'), { type: 'object', properties: { a: { type: 'string' } } }] },
    B: { allOf: [ref('A'), { type: 'object', properties: { b: { type: 'integer' } } }] },
    Pet: { type: 'object', required: ['petType'], properties: { petType: { type: 'string' } }, oneOf: [ref('Cat'), ref('Dog')], discriminator: { propertyName: 'petType' } },
    Cat: { allOf: [ref('Pet'), { type: 'object', required: ['meow'], properties: { meow: { type: 'boolean' } } }] },
    Dog: { allOf: [ref('Pet'), { type: 'object', required: ['bark'], properties: { bark: { type: 'boolean' } } }] },
  };
  const { generators } = build(definitions, { a: ref('A'), b: ref('B'), cat: ref('Cat') });
  t.ok(typeof generators.a() === 'object' && typeof generators.b() === 'object');
  const cat = generators.cat();
  t.equal(cat.petType, 'Cat', 'a subtype names itself in the inherited discriminator');
  t.type(cat.meow, 'boolean');
  t.end();
});

t.test('oneOf with a discriminator mapping', (t) => {
  const definitions = {
    Cat: { type: 'object', required: ['petType', 'lives'], properties: { petType: { type: 'string' }, lives: { type: 'integer' } } },
    Dog: { type: 'object', required: ['petType', 'bark'], properties: { petType: { type: 'string' }, bark: { type: 'string' } } },
    Lizard: { type: 'object', required: ['petType'], properties: { petType: { type: 'string', enum: ['lizard'] }, scales: { type: 'integer' } } },
    Pet: {
      oneOf: [ref('Cat'), ref('Dog'), ref('Lizard')],
      discriminator: { propertyName: 'petType', mapping: { cat: '#/definitions/Cat', dog: '#/definitions/Dog' } },
    },
  };
  const values = check(t, definitions, ref('Pet'), { count: 100 });
  const tags = new Set(values.map((v) => v.petType));
  t.same([...tags].sort(), ['cat', 'dog', 'lizard'], 'mapping keys, or the variant\'s own enum');
  for (const v of values) {
    if (v.petType === 'cat') t.type(v.lives, 'number');
    if (v.petType === 'dog') t.type(v.bark, 'string');
  }
  t.end();
});

t.test('oneOf with a discriminator and no mapping uses definition names', (t) => {
  const definitions = {
    TrackObject: { type: 'object', required: ['type', 'duration'], properties: { type: { type: 'string' }, duration: { type: 'integer' } } },
    EpisodeObject: { type: 'object', required: ['type', 'show'], properties: { type: { type: 'string' }, show: { type: 'string' } } },
  };
  const schema = { oneOf: [ref('TrackObject'), ref('EpisodeObject')], discriminator: { propertyName: 'type' } };
  const values = check(t, definitions, { type: 'array', items: schema, minItems: 3 });
  const types = new Set(values.flat().map((v) => v.type));
  t.same([...types].sort(), ['EpisodeObject', 'TrackObject']);
  t.end();
});

t.test('a discriminated union with sibling properties merges them into each variant', (t) => {
  const definitions = {
    Card: { type: 'object', required: ['number'], properties: { kind: { type: 'string' }, number: { type: 'string', pattern: '^\\d{16}$' } } },
    Bank: { type: 'object', required: ['iban'], properties: { kind: { type: 'string' }, iban: { type: 'string' } } },
  };
  const schema = {
    type: 'object',
    required: ['amount'],
    properties: { amount: { type: 'number', minimum: 1 } },
    oneOf: [ref('Card'), ref('Bank')],
    discriminator: { propertyName: 'kind' },
  };
  const values = check(t, definitions, schema);
  t.ok(values.every((v) => typeof v.amount === 'number' && (v.kind === 'Card' || v.kind === 'Bank')));
  t.end();
});

t.test('oneOf without a discriminator picks a variant that matches exactly one', (t) => {
  const definitions = {
    Short: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
    Long: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: { type: 'string' } } },
    Method: { type: 'object', required: ['method'], properties: { method: { type: 'string' }, email: { type: 'string' } } },
    EmailMethod: { type: 'object', required: ['method', 'email'], properties: { method: { type: 'string' }, email: { type: 'string' } } },
  };
  check(t, definitions, { oneOf: [ref('Long'), ref('Short')] });
  check(t, definitions, { oneOf: [ref('EmailMethod'), ref('Method')] });
  check(t, {}, { oneOf: [{ type: 'number' }, { type: 'integer' }, { type: 'string' }] });
  check(t, {}, { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }, { type: 'boolean' }] });
  check(t, {}, { oneOf: [{ type: 'null' }, { type: 'object', properties: { x: { type: 'integer' } } }] });
  check(t, {}, {
    oneOf: [
      { type: 'object', required: ['kind'], properties: { kind: { const: 'a' } } },
      { type: 'object', required: ['kind'], properties: { kind: { const: 'b' } } },
    ],
  });
  const codes = check(t, {}, { type: 'integer', oneOf: [{ const: 1, title: 'ONE' }, { const: 2, title: 'TWO' }, { const: 3 }] });
  t.same(new Set(codes), new Set([1, 2, 3]), 'an enum spelled as oneOf of consts picks among them');
  const pinned = check(t, {}, { type: 'integer', enum: [2], oneOf: [{ const: 1 }, { const: 2 }] });
  t.ok(pinned.every((v) => v === 2), 'an enum beside a union wins');
  t.end();
});

t.test('oneOf variants that overlap are tried out at build time: values only their own member accepts', (t) => {
  const definitions = {
    PublicUser: {
      type: 'object',
      additionalProperties: false,
      required: ['login', 'id'],
      properties: { login: { type: 'string' }, id: { type: 'integer' }, bio: { type: 'string' } },
    },
    PrivateUser: {
      type: 'object',
      required: ['login', 'id'],
      properties: { login: { type: 'string' }, id: { type: 'integer' }, bio: { type: 'string' }, two_factor: { type: 'boolean' } },
    },
  };
  const user = { oneOf: [ref('PublicUser'), ref('PrivateUser')] };
  const users = check(t, definitions, user);
  t.ok(users.every((v) => typeof v.two_factor === 'boolean'), 'the private user, told apart by a property the public one rejects');
  const deep = { type: 'object', required: ['a'], properties: { a: { type: 'array', minItems: 1, items: { type: 'array', minItems: 1, items: { type: 'array', minItems: 1, items: { type: 'array', minItems: 1, items: { type: 'array', minItems: 1, items: { type: 'array', minItems: 1, items: user } } } } } } } };
  const nested = check(t, definitions, deep);
  t.ok(nested.every((v) => typeof v.a.flat(6)[0].two_factor === 'boolean'), 'even past the depth where optional properties stop');
  t.end();
});

t.test('a discriminator is always emitted, with the mapping value; overlapping variants are tried out', (t) => {
  const definitions = {
    Card: { type: 'object', required: ['amount'], properties: { amount: { type: 'number' }, method: { enum: ['card', 'CARD'] }, currency: { type: 'string' } } },
    Transfer: { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'number' }, method: { enum: ['transfer'] }, currency: { type: 'string' } } },
    Dog: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string' }, pet_type: { type: 'string' }, bark: { type: 'boolean' } } },
    Cat: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, pet_type: { type: 'string' }, lives: { type: 'integer' } } },
  };
  const payments = check(t, definitions, {
    oneOf: [ref('Card'), ref('Transfer')],
    discriminator: { propertyName: 'method', mapping: { card: '#/definitions/Card', transfer: '#/definitions/Transfer' } },
  }, { count: 100 });
  t.same(new Set(payments.map((v) => v.method)), new Set(['card', 'transfer']), 'the optional discriminator is there, with mapping values');
  const pets = check(t, definitions, {
    oneOf: [ref('Dog'), ref('Cat')],
    discriminator: { propertyName: 'pet_type', mapping: { dog: '#/definitions/Dog', cat: '#/definitions/Cat' } },
  });
  t.ok(pets.every((v) => v.pet_type === 'cat' && 'lives' in v), 'every dog is also a cat (open): only cats are made');
  t.end();
});

t.test('anyOf picks the first non-null variant; null only when nothing else exists', (t) => {
  const definitions = { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } };
  const values = check(t, definitions, { anyOf: [{ type: 'null' }, ref('Thing'), { type: 'string' }] });
  t.ok(values.every((v) => v !== null && typeof v.id === 'number'));
  const nulls = check(t, {}, { anyOf: [{ type: 'null' }] });
  t.ok(nulls.every((v) => v === null));
  t.end();
});

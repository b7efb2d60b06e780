// compiler/ir/normalize-schema.ts: OpenAPI schemas lowered to the IR's draft-07 vocabulary.
import t from 'tap';
import { SchemaRegistry } from '../../dist/compiler/ir/normalize-schema.js';

const registry = (document = {}, scope = '0') => {
  const r = new SchemaRegistry();
  r.use(document, scope);
  return r;
};

t.test('nullable becomes a type array, enum gains null, no type becomes anyOf', (t) => {
  const r = registry();
  t.same(r.normalize({ type: 'string', nullable: true }), { type: ['string', 'null'] });
  t.same(r.normalize({ type: 'string', nullable: true, enum: ['a', 'b'] }), { type: ['string', 'null'], enum: ['a', 'b', null] });
  t.same(r.normalize({ type: 'string', nullable: true, enum: ['a', null] }), { type: ['string', 'null'], enum: ['a', null] }, 'null not added twice');
  t.same(r.normalize({ type: ['integer', 'string'], nullable: true }), { type: ['integer', 'string', 'null'] });
  t.same(r.normalize({ type: ['string', 'null'], nullable: true }), { type: ['string', 'null'] }, 'already nullable type array');
  t.same(r.normalize({ type: 'null', nullable: true }), { type: 'null' });
  t.same(r.normalize({ nullable: true, enum: ['a'] }), { anyOf: [{ enum: ['a'] }, { type: 'null' }] });
  t.same(r.normalize({ nullable: true, properties: { a: { type: 'string' } } }), { anyOf: [{ properties: { a: { type: 'string' } } }, { type: 'null' }] });
  t.same(r.normalize({ nullable: true, allOf: [{ type: 'string' }] }), { anyOf: [{ allOf: [{ type: 'string' }] }, { type: 'null' }] });
  t.same(r.normalize({ type: 'string', nullable: false }), { type: 'string' }, 'nullable: false is dropped');
  t.same(r.normalize({ type: 'object', properties: { x: { type: 'integer', nullable: true } } }), { type: 'object', properties: { x: { type: ['integer', 'null'] } } }, 'nested');
  t.end();
});

t.test('3.0 boolean exclusive bounds become numeric ones', (t) => {
  const r = registry();
  t.same(r.normalize({ type: 'number', minimum: 1, exclusiveMinimum: true }), { type: 'number', exclusiveMinimum: 1 });
  t.same(r.normalize({ type: 'number', maximum: 9, exclusiveMaximum: true }), { type: 'number', exclusiveMaximum: 9 });
  t.same(r.normalize({ type: 'number', minimum: 1, exclusiveMinimum: false, maximum: 5, exclusiveMaximum: false }), { type: 'number', minimum: 1, maximum: 5 });
  t.same(r.normalize({ type: 'number', exclusiveMinimum: true }), { type: 'number' }, 'a flag without its bound is dropped');
  t.same(r.normalize({ type: 'number', exclusiveMinimum: 3, exclusiveMaximum: 7 }), { type: 'number', exclusiveMinimum: 3, exclusiveMaximum: 7 }, '3.1 numeric bounds kept');
  t.end();
});

t.test('$ref becomes #/definitions/Name and registers the target', (t) => {
  const doc = {
    components: {
      schemas: {
        Pet: { type: 'object', nullable: true, properties: { tag: { $ref: '#/components/schemas/Tag' } } },
        Tag: { type: 'string', maxLength: 10 },
        'Odd Name': { type: 'string' },
        'a/b': { type: 'integer' },
      },
    },
    paths: { '/x': { get: { responses: { 200: { content: { 'application/json': { schema: { type: 'boolean' } } } } } } } },
  };
  const r = registry(doc);
  t.same(r.normalize({ $ref: '#/components/schemas/Pet' }), { $ref: '#/definitions/Pet' });
  t.same(r.definitions.Pet, { type: ['object', 'null'], properties: { tag: { $ref: '#/definitions/Tag' } } }, 'target normalised');
  t.same(r.definitions.Tag, { type: 'string', maxLength: 10 }, 'transitively registered');
  t.same(r.normalize({ $ref: '#/components/schemas/Pet' }), { $ref: '#/definitions/Pet' }, 'second sight reuses the name');
  t.same(Object.keys(r.definitions), ['Pet', 'Tag']);

  t.same(r.normalize({ $ref: '#/components/schemas/Odd%20Name' }), { $ref: '#/definitions/Odd_Name' }, 'names are sanitised');
  t.same(r.normalize({ $ref: '#/components/schemas/a~1b' }), { $ref: '#/definitions/a_b' });
  t.same(r.definitions.a_b, { type: 'integer' });
  const deep = r.normalize({ $ref: '#/paths/~1x/get/responses/200/content/application~1json/schema' });
  t.match(deep.$ref, /^#\/definitions\/paths_/, 'a non-component ref is named after its pointer');
  t.same(r.definitions[deep.$ref.slice('#/definitions/'.length)], { type: 'boolean' });
  t.same(r.normalize({ $ref: '#/components/schemas/Missing' }), { $ref: '#/definitions/Missing' });
  t.same(r.definitions.Missing, {}, 'a dangling ref is an any-schema, not a crash');
  t.end();
});

t.test('$ref siblings: nullable, documentation and constraints', (t) => {
  const doc = { components: { schemas: { Pet: { type: 'object' } } } };
  const r = registry(doc);
  const ref = { $ref: '#/definitions/Pet' };
  t.same(r.normalize({ $ref: '#/components/schemas/Pet', nullable: true }), { anyOf: [ref, { type: 'null' }] });
  t.same(r.normalize({ $ref: '#/components/schemas/Pet', description: 'd', title: 't', example: 1, 'x-a': 1 }), ref, 'documentation siblings ignored');
  t.same(r.normalize({ $ref: '#/components/schemas/Pet', readOnly: true }), { allOf: [ref, { readOnly: true }] }, 'meaningful siblings kept (3.1)');
  t.same(r.normalize({ $ref: '#/components/schemas/Pet', readOnly: true, nullable: true }), { anyOf: [{ allOf: [ref, { readOnly: true }] }, { type: 'null' }] });
  t.end();
});

t.test('discriminator mapping is rewritten to definitions', (t) => {
  const doc = {
    components: {
      schemas: {
        Cat: { type: 'object', properties: { kind: { type: 'string' } } },
        Dog: { type: 'object' },
        Pet: {
          oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
          discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: 'Dog', ghost: '#/components/schemas/Ghost', bad: 42 } },
        },
      },
    },
  };
  const r = registry(doc);
  r.normalize({ $ref: '#/components/schemas/Pet' });
  t.same(r.definitions.Pet.discriminator, { propertyName: 'kind', mapping: { cat: '#/definitions/Cat', dog: '#/definitions/Dog' } }, 'bare names resolve to components; unresolvable entries dropped');
  t.ok(r.definitions.Dog, 'mapping targets are registered');
  t.same(r.normalize({ discriminator: { propertyName: 'k' } }), { discriminator: { propertyName: 'k' } }, 'no mapping');
  t.end();
});

t.test('patterns JavaScript cannot compile are dropped', (t) => {
  const r = registry();
  t.same(r.normalize({ type: 'string', pattern: '^[a-z]+$' }), { type: 'string', pattern: '^[a-z]+$' });
  t.same(r.normalize({ type: 'string', pattern: '[a-z' }), { type: 'string' }, 'unterminated class');
  t.same(r.normalize({ type: 'string', pattern: '(?i)abc' }), { type: 'string' }, 'PCRE inline flags');
  t.same(r.normalize({ type: 'string', pattern: '\\Aabc\\z' }), { type: 'string', pattern: '\\Aabc\\z' }, 'compiles (as identity escapes) so it is kept');
  t.same(r.normalize({ type: 'string', pattern: 5 }), { type: 'string' }, 'non-string pattern');
  t.end();
});

t.test('patterns the linear-time engine cannot run are left out, with a warning naming the schema', (t) => {
  const document = {
    paths: { '/things': { get: { parameters: [{ name: 'code', in: 'query', schema: { type: 'string', pattern: '^(?=a)(a+)+$' } }] } } },
    components: {
      schemas: {
        Thing: { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' }, tag: { type: 'string', pattern: '(\\w)\\1' } } },
        Bag: { type: 'object', patternProperties: { '^x-(?!y)': { type: 'string' }, '^n-': { type: 'integer' } }, additionalProperties: false, propertyNames: { pattern: '(?<=a)b' } },
      },
    },
  };
  const r = new SchemaRegistry();
  r.use(document, '0', 'api.yaml');
  const param = document.paths['/things'].get.parameters[0].schema;
  t.same(r.normalize(param), { type: 'string' }, 'a lookahead');
  r.normalize({ $ref: '#/components/schemas/Thing' });
  t.same(r.definitions.Thing.properties, { id: { type: 'string', pattern: '^(a+)+$' }, tag: { type: 'string' } }, 'nested quantifiers run in linear time on RE2 and stay; a backreference goes');
  r.normalize({ $ref: '#/components/schemas/Bag' });
  t.same(
    r.definitions.Bag,
    { type: 'object', patternProperties: { '^n-': { type: 'integer' } }, propertyNames: {} },
    'a patternProperties entry goes, and additionalProperties with it (which names are additional depends on it); propertyNames patterns too',
  );
  t.equal(r.warnings.length, 4);
  t.match(r.warnings[0], /^api\.yaml#\/paths\/~1things\/get\/parameters\/0\/schema: the pattern "\^\(\?=a\)\(a\+\)\+\$" uses a lookahead .*; it is not enforced/);
  t.match(r.warnings[1], /^api\.yaml#\/components\/schemas\/Thing\/properties\/tag: the pattern "\(\\\\w\)\\\\1" uses a backreference/);
  t.match(r.warnings[2], /^api\.yaml#\/components\/schemas\/Bag: the patternProperties key "\^x-\(\?!y\)" uses a negative lookahead/);
  t.match(r.warnings[3], /^api\.yaml#\/components\/schemas\/Bag\/propertyNames: the pattern "\(\?<=a\)b" uses a lookbehind/);
  t.end();
});

t.test('types: unknown dropped, file is a string, arrays deduplicated', (t) => {
  const r = registry();
  t.same(r.normalize({ type: 'file' }), { type: 'string' });
  t.same(r.normalize({ type: 'foo' }), {});
  t.same(r.normalize({ type: ['foo', 'integer'] }), { type: 'integer' }, 'single survivor unwrapped');
  t.same(r.normalize({ type: ['string', 'file', 'null'] }), { type: ['string', 'null'] });
  t.same(r.normalize({ type: ['foo', 'bar'] }), {});
  t.same(r.normalize({ type: 42 }), {});
  t.end();
});

t.test('documentation-only and empty keywords are dropped; others pass through', (t) => {
  const r = registry();
  t.same(
    r.normalize({
      type: 'object',
      'x-vendor': 1,
      deprecated: true,
      externalDocs: { url: 'x' },
      $schema: 's',
      $id: 'i',
      $comment: 'c',
      examples: { a: { value: 1 } },
      example: { a: 1 },
      required: [],
      enum: [],
      readOnly: true,
      format: 'thing',
      default: {},
      xml: { name: 'n' },
    }),
    { type: 'object', example: { a: 1 }, readOnly: true, format: 'thing', default: {}, xml: { name: 'n' } },
  );
  t.same(r.normalize({ examples: [1, 2] }), { examples: [1, 2] }, 'JSON Schema examples array kept');
  t.same(r.normalize({ required: ['a', 'b', 'a'] }), { required: ['a', 'b'] }, 'required deduplicated');
  t.same(r.normalize({ type: 'object', properties: { type: { type: 'string' }, required: { type: 'boolean' } } }), {
    type: 'object',
    properties: { type: { type: 'string' }, required: { type: 'boolean' } },
  }, 'property names that look like keywords');
  t.end();
});

t.test('boolean and non-object schemas; subschema keywords recurse', (t) => {
  const r = registry();
  t.same(r.normalize(true), {});
  t.same(r.normalize(undefined), {});
  t.same(r.normalize(false), { not: {} });
  t.same(r.normalize(null), {});
  t.same(r.normalize([1]), {});
  t.same(r.normalize('string'), {});
  t.same(r.normalize({ items: false, additionalProperties: true }), { items: false, additionalProperties: true });
  t.same(r.normalize({ items: [{ type: 'string', nullable: true }, true] }), { items: [{ type: ['string', 'null'] }, {}] }, 'tuple items');
  t.same(
    r.normalize({
      allOf: [{ type: 'string', 'x-a': 1 }],
      anyOf: [{ nullable: true, type: 'integer' }],
      oneOf: [{ type: 'file' }],
      not: { type: 'foo' },
      additionalProperties: { type: 'string', deprecated: true },
      patternProperties: { '^a': { type: 'number', minimum: 0, exclusiveMinimum: true } },
      if: { type: 'string' }, then: { type: 'string' }, else: { type: 'integer' },
    }),
    {
      allOf: [{ type: 'string' }],
      anyOf: [{ type: ['integer', 'null'] }],
      oneOf: [{ type: 'string' }],
      not: {},
      additionalProperties: { type: 'string' },
      patternProperties: { '^a': { type: 'number', exclusiveMinimum: 0 } },
      if: { type: 'string' }, then: { type: 'string' }, else: { type: 'integer' },
    },
  );
  t.end();
});

t.test('2020-12 tuples and dependencies are lowered to draft-07 keywords', (t) => {
  const doc = { components: { schemas: { Id: { type: 'string', nullable: true } } } };
  const r = registry(doc);
  t.same(
    r.normalize({ type: 'array', prefixItems: [{ $ref: '#/components/schemas/Id' }, { type: 'integer' }], items: false }),
    { type: 'array', items: [{ $ref: '#/definitions/Id' }, { type: 'integer' }], additionalItems: false },
    'prefixItems is the tuple, items the rest',
  );
  t.same(r.normalize({ prefixItems: [{ type: 'number' }], items: { type: 'string' } }), { items: [{ type: 'number' }], additionalItems: { type: 'string' } });
  t.same(r.normalize({ prefixItems: [{ type: 'number' }] }), { items: [{ type: 'number' }] }, 'no items: any rest');
  t.same(
    r.normalize({
      dependentRequired: { card: ['address', 7], vat: ['country'] },
      dependentSchemas: { vat: { required: ['company'] }, coupon: { properties: { code: { $ref: '#/components/schemas/Id' } } } },
    }),
    {
      dependencies: {
        card: ['address'],
        vat: { allOf: [{ required: ['country'] }, { required: ['company'] }] },
        coupon: { properties: { code: { $ref: '#/definitions/Id' } } },
      },
    },
    'dependentRequired lists and dependentSchemas schemas share draft-07 dependencies',
  );
  t.same(r.normalize({ dependencies: { a: ['b'], c: { required: ['d'] } } }), { dependencies: { a: ['b'], c: { required: ['d'] } } });
  t.end();
});

t.test('recursive and mutually recursive schemas terminate', (t) => {
  const doc = {
    components: {
      schemas: {
        Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, owner: { $ref: '#/components/schemas/Person' } } },
        Person: { type: 'object', properties: { pets: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
        Self: { $ref: '#/components/schemas/Self' },
      },
    },
  };
  const r = registry(doc);
  t.same(r.normalize({ $ref: '#/components/schemas/Node' }), { $ref: '#/definitions/Node' });
  t.same(r.definitions.Node.properties.children.items, { $ref: '#/definitions/Node' });
  t.same(r.definitions.Person.properties.pets.items, { $ref: '#/definitions/Node' });
  t.same(r.normalize({ $ref: '#/components/schemas/Self' }), { $ref: '#/definitions/Self' });
  t.same(r.definitions.Self, { $ref: '#/definitions/Self' }, 'self reference does not loop');
  t.end();
});

t.test('names stay unique across descriptions; refs are per scope', (t) => {
  const r = new SchemaRegistry();
  r.use({ components: { schemas: { Pet: { type: 'string' } } } }, '0');
  t.same(r.normalize({ $ref: '#/components/schemas/Pet' }), { $ref: '#/definitions/Pet' });
  r.use({ components: { schemas: { Pet: { type: 'integer' } } } }, '1');
  t.same(r.normalize({ $ref: '#/components/schemas/Pet' }), { $ref: '#/definitions/Pet_2' });
  t.same(r.definitions, { Pet: { type: 'string' }, Pet_2: { type: 'integer' } });
  t.equal(r.refName('#/components/schemas/Pet'), 'Pet_2', 'same scope, same name');
  t.end();
});

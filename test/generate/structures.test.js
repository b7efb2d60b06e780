// Objects, arrays, references and recursion, readOnly/writeOnly per mode.
import t from 'tap';
import { build, checkMany, createAjv, validatorFor } from './fixtures/harness.js';

const ajv = createAjv();
const ref = (name) => ({ $ref: `#/definitions/${name}` });

function check(t, definitions, schema, { mode = 'response', count = 50 } = {}) {
  const { generators } = build(definitions, { it: [schema, mode] }, { seed: 5 });
  return checkMany(t, generators.it, validatorFor(ajv, definitions, schema), count);
}

t.test('objects: required, optional, additionalProperties, property counts', (t) => {
  const pet = {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' } },
  };
  const [value] = check(t, {}, pet);
  t.same(Object.keys(value), ['id', 'name', 'tag'], 'optional properties are filled at shallow depth, in order');

  const closed = check(t, {}, { ...pet, additionalProperties: false });
  t.ok(closed.every((v) => Object.keys(v).every((k) => k in pet.properties)));

  const map = check(t, {}, { type: 'object', additionalProperties: { type: 'integer', minimum: 1, maximum: 9 } });
  t.ok(map.every((v) => Object.keys(v).length >= 1 && Object.keys(v).length <= 2), 'records get 1-2 entries');

  check(t, { Pet: pet }, { type: 'object', additionalProperties: ref('Pet'), minProperties: 3 });
  const free = check(t, {}, { type: 'object' });
  t.same(free[0], {}, 'a free-form object stays empty');

  const capped = check(t, {}, {
    type: 'object',
    maxProperties: 2,
    properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } },
  });
  t.ok(capped.every((v) => Object.keys(v).length <= 2));
  check(t, {}, { type: 'object', minProperties: 4, properties: { a: { type: 'string' } } });
  check(t, {}, { type: 'object', required: ['undeclared'], properties: {} });
  // JSON.parse makes `__proto__` an own key, as it is in parsed descriptions.
  const awkward = JSON.parse('{"weird": {"type": "string"}, "a-b": {"type": "integer"}, "__proto__": {"type": "integer"}}');
  const [odd] = check(t, {}, { properties: awkward, required: ['a-b', '__proto__'] });
  t.ok(Object.hasOwn(odd, '__proto__') && Object.getPrototypeOf(odd) === Object.prototype, '__proto__ is an own property');
  const [inferred] = check(t, {}, { properties: { x: { type: 'integer' } }, required: ['x'] });
  t.type(inferred, 'object', 'properties without type imply an object');
  t.end();
});

t.test('arrays: bounds, uniqueness, tuples', (t) => {
  const plain = check(t, {}, { type: 'array', items: { type: 'string' } });
  t.ok(plain.every((v) => v.length >= 1 && v.length <= 3), 'unbounded arrays get 1-3 items');
  check(t, {}, { type: 'array', items: { type: 'integer' }, minItems: 5, maxItems: 7 });
  check(t, {}, { type: 'array', items: { type: 'integer' }, maxItems: 0 });
  check(t, {}, { items: { type: 'number' } });
  check(t, {}, { type: 'array' });

  const colours = check(t, {}, {
    type: 'array', uniqueItems: true, minItems: 2, maxItems: 10, items: { type: 'string', enum: ['red', 'green', 'blue'] },
  });
  t.ok(colours.every((v) => v.length >= 2 && v.length <= 3), 'unique enum items are capped by the enum size');
  check(t, {}, { type: 'array', uniqueItems: true, minItems: 3, items: { type: 'integer', minimum: 1, maximum: 3 } });
  check(t, {}, { type: 'array', uniqueItems: true, minItems: 2, items: { type: 'boolean' } });
  check(t, {}, { type: 'array', uniqueItems: true, minItems: 4, items: { type: 'string', example: 'same' } });
  check(t, {}, {
    type: 'array', uniqueItems: true, minItems: 3,
    items: { type: 'object', required: ['n'], properties: { n: { type: 'integer', example: 1 }, s: { type: 'string' } } },
  });
  check(t, {}, { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], minItems: 3, additionalItems: { type: 'boolean' } });
  t.end();
});

t.test('references, recursion and cycles terminate', (t) => {
  const definitions = {
    Node: {
      type: 'object',
      required: ['value', 'children'],
      properties: { value: { type: 'integer' }, children: { type: 'array', items: ref('Node') } },
    },
    A: { type: 'object', properties: { b: ref('B'), name: { type: 'string' } } },
    B: { type: 'object', required: ['a'], properties: { a: ref('A') } },
    Linked: { type: ['object', 'null'], required: ['next'], properties: { next: ref('Linked') } },
    Chain: { type: 'object', required: ['next'], properties: { next: { anyOf: [ref('Chain'), { type: 'null' }] } } },
    Alias: ref('Node'),
    Loop1: ref('Loop2'),
    Loop2: ref('Loop1'),
    Impossible: { type: 'object', required: ['self'], properties: { self: ref('Impossible') } },
  };
  const trees = check(t, definitions, ref('Node'));
  const depth = (n) => 1 + Math.max(0, ...n.children.map(depth));
  t.ok(trees.every((n) => depth(n) <= 6), 'trees stop growing past the depth limit');
  check(t, definitions, ref('A'));
  check(t, definitions, ref('B'));
  check(t, definitions, ref('Linked'));
  check(t, definitions, ref('Chain'));
  check(t, definitions, ref('Alias'));
  const { generators } = build(definitions, { loop: ref('Loop1'), impossible: ref('Impossible') });
  t.doesNotThrow(() => generators.loop(), 'alias cycles terminate');
  t.doesNotThrow(() => generators.impossible(), 'required self-reference terminates (value cannot be valid)');
  t.end();
});

t.test('readOnly and writeOnly depend on the mode', (t) => {
  const definitions = {
    Account: {
      type: 'object',
      required: ['id', 'name', 'password'],
      properties: {
        id: { type: 'string', readOnly: true },
        name: { type: 'string' },
        password: { type: 'string', writeOnly: true },
        created: ref('Timestamp'),
        owner: ref('Owner'),
      },
    },
    Timestamp: { type: 'string', format: 'date-time', readOnly: true },
    Owner: { type: 'object', properties: { secret: { type: 'string', writeOnly: true }, email: { type: 'string' } } },
  };
  const { generators, declarations } = build(definitions, {
    response: [ref('Account'), 'response'],
    request: [ref('Account'), 'request'],
  });
  for (let i = 0; i < 20; i++) {
    const response = generators.response();
    const request = generators.request();
    t.ok('id' in response && 'created' in response && !('password' in response) && !('secret' in response.owner));
    t.ok(!('id' in request) && !('created' in request) && 'password' in request && 'secret' in request.owner);
  }
  t.match(declarations, /function gen_Account\(d\)/);
  t.match(declarations, /function gen_Account_request\(d\)/);
  t.end();
});

t.test('definitions without mode-dependent properties share one generator', (t) => {
  const definitions = { Tag: { type: 'object', properties: { name: { type: 'string' } } } };
  const { declarations, expressions } = build(definitions, { a: [ref('Tag'), 'response'], b: [ref('Tag'), 'request'] });
  t.equal(expressions.a, expressions.b);
  t.equal(declarations.match(/function gen_Tag/g).length, 1);
  t.end();
});

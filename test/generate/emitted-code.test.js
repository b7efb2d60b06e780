// The emitted source: deterministic, readable, precomputed, and seeded runs repeat exactly.
import t from 'tap';
import { build, createGeneratorEmitter } from './fixtures/harness.js';

const ref = (name) => ({ $ref: `#/definitions/${name}` });
const definitions = {
  Pet: {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      status: { type: 'string', enum: ['available', 'pending', 'sold'] },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      alias: { type: 'string', pattern: '^[A-Z]{3}$' },
      tags: { type: 'array', items: ref('Tag') },
      born: { type: 'string', format: 'date-time' },
    },
  },
  Tag: { type: 'object', properties: { label: { type: 'string', pattern: '^[A-Z]{3}$' } } },
  'Pet.v1': { type: 'object', properties: { kind: { type: 'string' } } },
  Pet_v1: { type: 'object', properties: { size: { type: 'integer' } } },
  '1st-place': { type: 'string' },
};
const schemas = {
  pet: ref('Pet'),
  list: { type: 'array', items: ref('Pet') },
  v1: ref('Pet.v1'),
  v1b: ref('Pet_v1'),
  first: ref('1st-place'),
  inline: { type: 'object', properties: { count: { type: 'integer' } } },
};

t.test('identical input gives byte-identical code', (t) => {
  const a = build(definitions, schemas);
  const b = build(structuredClone(definitions), structuredClone(schemas));
  t.equal(a.code, b.code);
  t.end();
});

t.test('emitted code is readable, precomputed JavaScript', (t) => {
  const { declarations, expressions } = build(definitions, schemas);
  t.match(declarations, /^function gen_Pet\(d\) \{$/m, 'a named generator per definition');
  t.match(declarations, /const values_Pet_status = \["available","pending","sold"\];/, 'enums are literal arrays');
  t.equal(declarations.match(/g\.compilePattern\(/g).length, 1, 'one compiled pattern per distinct pattern');
  t.equal(expressions.pet, 'gen_Pet(0)');
  t.match(expressions.list, /^g\.array\(gen_Pet, 1, 1, 3\)$/);
  t.notMatch(declarations, /Math\.random|Date\.now/, 'all randomness and time comes from g');
  const names = [...declarations.matchAll(/^(?:function|const) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);
  t.equal(new Set(names).size, names.length, 'helper names are unique');
  t.ok(names.includes('gen_Pet_v1') && names.includes('gen_Pet_v1_2'), 'colliding sanitised names get suffixes');
  t.ok(names.includes('gen__1st_place'), 'names are valid identifiers');
  t.doesNotThrow(() => new Function('g', declarations), 'plain JavaScript');
  t.end();
});

t.test('the same seed gives the same values; another seed differs', (t) => {
  const now = () => Date.UTC(2024, 0, 1);
  const run = (seed) => {
    const { generators } = build(definitions, schemas, { seed, now });
    return Array.from({ length: 20 }, () => Object.fromEntries(Object.entries(generators).map(([k, f]) => [k, f()])));
  };
  t.same(run(42), run(42));
  t.notSame(run(42), run(43));
  t.end();
});

t.test('declarations accumulate across expressions and modes', (t) => {
  const emitter = createGeneratorEmitter(definitions);
  emitter.expression(ref('Tag'), 'response');
  const first = emitter.declarations();
  emitter.expression(ref('Pet'), 'request', 'createPet');
  const second = emitter.declarations();
  t.ok(first.split('\n').every((line) => second.includes(line)), 'earlier helpers stay');
  t.match(second, /function gen_Pet\(d\)/);
  t.equal(emitter.expression({ type: 'object', properties: { a: { type: 'string' } } }, 'response', 'listPets_200'), 'gen_listPets_200(0)');
  t.end();
});

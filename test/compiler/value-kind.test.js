// compiler/emit/value-kind.ts (how a string becomes its schema's type) and media.ts (body formats).
import t from 'tap';
import { itemKind, resolveSchema, valueKind } from '../../dist/compiler/emit/value-kind.js';
import { isPlain, valueShape } from '../../dist/compiler/emit/value-shape.js';
import { bodyFormat } from '../../dist/compiler/emit/media.js';

const ref = (name) => ({ $ref: `#/definitions/${name}` });
const defs = {
  Id: { type: 'integer', minimum: 1 },
  IdAlias: ref('Id'),
  Tags: { type: 'array', items: { type: 'string' } },
  Counts: { type: 'array', items: ref('Id') },
  Base: { type: 'object', properties: { id: ref('Id'), created: { type: 'string' } } },
  Loop: ref('Loop'),
  Status: { enum: ['on', 'off'] },
  Nullable: { anyOf: [{ type: 'number' }, { type: 'null' }] },
};

t.test('valueKind: plain types', (t) => {
  for (const type of ['string', 'integer', 'number', 'boolean', 'array', 'object']) t.equal(valueKind({ type }, defs), type, type);
  t.equal(valueKind({ type: ['integer', 'null'] }, defs), 'integer', 'null is ignored');
  t.equal(valueKind({ type: 'null' }, defs), 'any');
  t.equal(valueKind({ type: ['integer', 'string'] }, defs), 'any', 'two real types');
  t.equal(valueKind({}, defs), 'any');
  t.equal(valueKind(undefined, defs), 'any');
  t.end();
});

t.test('valueKind: refs, allOf, shapes and unions', (t) => {
  t.equal(valueKind(ref('Id'), defs), 'integer');
  t.equal(valueKind(ref('IdAlias'), defs), 'integer', 'ref chains');
  t.equal(valueKind(ref('Missing'), defs), 'any');
  t.equal(valueKind(ref('Loop'), defs), 'any', 'a ref loop terminates');
  t.equal(valueKind({ allOf: [ref('Id'), { maximum: 9 }] }, defs), 'integer');
  t.equal(valueKind({ allOf: [{ description: 'x' }, ref('Base')] }, defs), 'object', 'first member with a type or properties decides');
  t.equal(valueKind({ properties: { a: {} } }, defs), 'object');
  t.equal(valueKind({ items: { type: 'string' } }, defs), 'array');
  t.equal(valueKind(ref('Status'), defs), 'string', 'string enum');
  t.equal(valueKind({ enum: [1, 2] }, defs), 'any');
  t.equal(valueKind(ref('Nullable'), defs), 'number', '3.1 nullable idiom');
  t.equal(valueKind({ oneOf: [{ type: 'integer' }, ref('Id')] }, defs), 'integer', 'agreeing branches');
  t.equal(valueKind({ oneOf: [{ type: 'integer' }, { type: 'string' }] }, defs), 'any', 'disagreeing branches');
  t.equal(valueKind({ anyOf: [{ type: 'null' }] }, defs), 'any');
  t.end();
});

t.test('resolveSchema merges the allOf member with the outer keywords', (t) => {
  t.same(resolveSchema({ allOf: [ref('Id')], description: 'd' }, defs), { type: 'integer', minimum: 1, description: 'd' });
  t.same(resolveSchema(ref('IdAlias'), defs), defs.Id);
  t.same(resolveSchema(undefined, defs), {});
  const typed = { type: 'string', allOf: [ref('Id')] };
  t.equal(resolveSchema(typed, defs), typed, 'a typed schema is itself');
  t.end();
});

t.test('itemKind', (t) => {
  t.equal(itemKind({ type: 'array', items: { type: 'integer' } }, defs), 'integer');
  t.equal(itemKind(ref('Counts'), defs), 'integer');
  t.equal(itemKind(ref('Tags'), defs), 'string');
  t.equal(itemKind({ type: 'array' }, defs), 'string', 'no items: strings');
  t.equal(itemKind({ type: 'array', items: [{ type: 'integer' }] }, defs), 'string', 'tuple items: strings');
  t.equal(itemKind({ type: 'integer' }, defs), 'string');
  t.end();
});

t.test('valueShape: objects following allOf, sorted; arrays; unions in order', (t) => {
  const own = { type: 'object', properties: { tags: ref('Tags'), counts: ref('Counts'), flag: { type: 'boolean' }, meta: { type: 'object' }, blob: {} } };
  const all = { object: { blob: 'any', counts: { array: 'integer' }, created: 'string', flag: 'boolean', id: 'integer', meta: { object: {} }, tags: { array: 'string' } } };
  t.same(valueShape({ type: 'object', allOf: [ref('Base')], properties: own.properties }, defs), all, 'typed outer schema: allOf members and own properties');
  t.same(valueShape({ allOf: [{ description: 'no type' }, ref('Base')] }, defs), { object: { created: 'string', id: 'integer' } });
  t.same(valueShape({ allOf: [ref('Base'), own] }, defs), all, 'untyped allOf: every member');
  t.same(valueShape(undefined, defs), 'any');
  t.same(valueShape({ type: 'string' }, defs), 'string');
  t.same(Object.keys(valueShape({ type: 'object', properties: { z: {}, a: {}, m: {} } }, defs).object), ['a', 'm', 'z']);
  t.same(valueShape({ type: 'object', additionalProperties: { type: 'integer' } }, defs), { object: {}, rest: 'integer' });
  t.same(valueShape({ anyOf: [{ type: 'object', properties: { gt: { type: 'integer' } } }, { type: 'integer' }] }, defs), { oneOf: [{ object: { gt: 'integer' } }, 'integer'] });
  t.same(valueShape({ type: ['integer', 'string'] }, defs), { oneOf: ['integer', 'string'] });
  t.same(valueShape({ anyOf: [{ type: 'integer' }, { type: 'null' }] }, defs), 'integer', 'the nullable idiom is its kind');
  t.ok(isPlain(valueShape(ref('Counts'), defs)), 'arrays of scalars need no shape');
  t.notOk(isPlain(valueShape({ type: 'object' }, defs)));
  t.end();
});

t.test('bodyFormat', (t) => {
  const cases = {
    'application/json': 'json',
    'application/json; charset=utf-8': 'json',
    'Application/JSON': 'json',
    'application/vnd.api+json': 'json',
    'application/problem+json': 'json',
    'text/json': 'json',
    '*/*': 'json',
    'application/*': 'json',
    'application/x-www-form-urlencoded': 'form',
    'multipart/form-data': 'multipart',
    'multipart/mixed; boundary=x': 'multipart',
    'application/xml': 'xml',
    'text/xml': 'xml',
    'application/atom+xml': 'xml',
    'text/plain': 'text',
    'text/csv': 'text',
    'text/html; charset=utf-8': 'text',
    'application/octet-stream': 'binary',
    'image/png': 'binary',
    'application/pdf': 'binary',
  };
  for (const [type, format] of Object.entries(cases)) t.equal(bodyFormat(type), format, type);
  t.end();
});

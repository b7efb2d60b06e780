// request.* accessors.
import t from 'tap';
import { render, syntaxError } from './fixtures/render.js';

t.test('path parameters', async (t) => {
  t.equal(render('pet {{request.path.petId}}', { path: { petId: '42' } }), 'pet 42');
  t.equal(render('[{{request.path.missing}}]', { path: { petId: '42' } }), '[]');
});

t.test('query parameters take the first of repeated values', async (t) => {
  t.equal(render('{{request.query.kind}}', { query: { kind: 'cat' } }), 'cat');
  t.equal(render('{{request.query.tag}}', { query: { tag: ['a', 'b'] } }), 'a');
  t.equal(render('{{request.query.filter.name}}', { query: { 'filter.name': 'x' } }), 'x', 'dots belong to the name');
  t.equal(render('[{{request.query.missing}}]'), '[]');
});

t.test('headers match case-insensitively', async (t) => {
  const headers = { 'x-request-id': 'abc' };
  t.equal(render('{{request.header.X-Request-Id}}', { headers }), 'abc');
  t.equal(render('{{request.header.x-request-id}}', { headers }), 'abc');
  t.equal(render('{{request.header.X-REQUEST-ID}}', { headers }), 'abc');
  t.equal(render('[{{request.header.authorization}}]', { headers }), '[]');
});

t.test('body fields, nested paths and array indices', async (t) => {
  const body = { id: 7, user: { name: 'Ann', tags: ['a', 'b'] }, items: [{ id: 'i1' }, { id: 'i2' }], ok: false, none: null };
  t.equal(render('{{request.body.id}}', { body }), '7');
  t.equal(render('{{request.body.user.name}}', { body }), 'Ann');
  t.equal(render('{{request.body.items.1.id}}', { body }), 'i2');
  t.equal(render('{{request.body.user.tags.0}}', { body }), 'a');
  t.equal(render('{{request.body.ok}}', { body }), 'false');
  t.equal(render('{{request.body.user}}', { body }), '{"name":"Ann","tags":["a","b"]}', 'objects render as JSON');
  t.equal(render('{{request.body}}', { body: { a: 1 } }), '{"a":1}', 'the whole body');
  t.equal(render('{{request.body.name}}', { body: { name: 'form field' } }), 'form field', 'form fields object');
});

t.test('missing values render as the empty string', async (t) => {
  const body = { user: { name: 'Ann' }, items: [], none: null };
  for (const token of [
    'request.body.nope',
    'request.body.user.name.first',
    'request.body.items.0.id',
    'request.body.none',
    'request.body.none.deeper',
    'request.body.constructor',
    'request.body.user.toString',
    'request.query.constructor',
    'request.path.hasOwnProperty',
    'request.header.__proto__',
  ]) {
    t.equal(render(`[{{${token}}}]`, { body }), '[]', token);
  }
  t.equal(render('[{{request.body.a}}]', { body: undefined }), '[]', 'no body');
  t.equal(render('[{{request.body.a}}]', { body: 'text' }), '[]', 'non-object body');
});

t.test('malformed request tokens fail the build', async (t) => {
  t.throws(() => render('{{request.path}}'), syntaxError('{{request.path}} needs a name, e.g. {{request.path.id}} at offset 0'));
  t.throws(() => render('ab{{request.header.}}'), syntaxError('{{request.header}} needs a name, e.g. {{request.header.id}} at offset 2'));
  t.throws(() => render('{{request.body.a..b}}'), syntaxError('empty field name in {{request.body.a..b}} at offset 0'));
  t.equal(render('{{request.cookie.x}}'), '{{request.cookie.x}}', 'unknown request part stays literal');
});

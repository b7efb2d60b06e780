// {{#if}} blocks and their syntax errors.
import t from 'tap';
import { compileTemplate, TemplateSyntaxError } from '../../dist/compiler/template/index.js';
import { render, renderJson, syntaxError } from './fixtures/render.js';

const KIND = "{{#if (eq request.query.kind 'cat')}}meow{{else}}woof{{/if}}";

t.test('eq with else', async (t) => {
  t.equal(render(KIND, { query: { kind: 'cat' } }), 'meow');
  t.equal(render(KIND, { query: { kind: 'dog' } }), 'woof');
  t.equal(render(KIND), 'woof', 'missing value compares as empty');
  t.equal(render('{{#if (eq request.query.kind "cat")}}meow{{/if}}', { query: { kind: 'cat' } }), 'meow', 'double quotes');
  t.equal(render("{{#if (eq request.query.q '')}}empty{{/if}}"), 'empty', 'empty literal');
  t.equal(render("{{#if (eq request.query.q 'a b')}}yes{{/if}}", { query: { q: 'a b' } }), 'yes', 'spaces in literals');
});

t.test('ne, without else', async (t) => {
  const template = "a{{#if (ne request.header.X-Mode 'strict')}}-lenient{{/if}}z";
  t.equal(render(template, { headers: { 'x-mode': 'strict' } }), 'az');
  t.equal(render(template, { headers: { 'x-mode': 'loose' } }), 'a-lenientz');
  t.equal(render(template), 'a-lenientz');
});

t.test('operands: numbers compare as text, any value token, either side', async (t) => {
  t.equal(render('{{#if (eq request.body.count 5)}}five{{/if}}', { body: { count: 5 } }), 'five');
  t.equal(render("{{#if (eq request.body.count '5')}}five{{/if}}", { body: { count: '5' } }), 'five');
  t.equal(render("{{#if (eq 'x' request.path.id)}}x{{/if}}", { path: { id: 'x' } }), 'x');
  t.equal(render('{{#if (eq request.path.a request.query.b)}}same{{else}}diff{{/if}}', { path: { a: '1' }, query: { b: '1' } }), 'same');
  t.equal(render('{{#if (eq request.body.user.role "admin")}}A{{/if}}', { body: { user: { role: 'admin' } } }), 'A');
  t.equal(render('{{#if (ne uuid "x")}}random{{/if}}'), 'random');
  t.equal(render('{{#if (eq now+1h "2024-05-01T13:00:00.000Z")}}later{{/if}}'), 'later');
});

t.test('bare truthiness test', async (t) => {
  const template = '{{#if request.query.x}}yes{{else}}no{{/if}}';
  t.equal(render(template, { query: { x: '1' } }), 'yes');
  t.equal(render(template, { query: { x: '0' } }), 'yes', 'a non-empty string is true');
  t.equal(render(template, { query: { x: '' } }), 'no');
  t.equal(render(template), 'no');
  const body = (value) => render('{{#if request.body.v}}yes{{else}}no{{/if}}', { body: { v: value } });
  t.same([true, 1, 'a', [1], {}].map(body), ['yes', 'yes', 'yes', 'yes', 'yes']);
  t.same([false, 0, '', [], null, undefined].map(body), ['no', 'no', 'no', 'no', 'no', 'no']);
});

t.test('blocks nest', async (t) => {
  const template =
    "{{#if (eq request.query.a '1')}}A{{#if (eq request.query.b '1')}}B{{else}}b{{/if}}{{else}}" +
    '{{#if request.query.b}}-b{{else}}-{{/if}}{{/if}}!';
  t.equal(render(template, { query: { a: '1', b: '1' } }), 'AB!');
  t.equal(render(template, { query: { a: '1' } }), 'Ab!');
  t.equal(render(template, { query: { b: '1' } }), '-b!');
  t.equal(render(template), '-!');
});

t.test('blocks hold value tokens and render them escaped', async (t) => {
  const value = { greeting: '{{#if request.body.name}}Hello {{request.body.name}}{{else}}Hello stranger{{/if}}' };
  t.same(renderJson(value, { body: { name: 'A "quoted"\nname' } }), { greeting: 'Hello A "quoted"\nname' });
  t.same(renderJson(value), { greeting: 'Hello stranger' });
});

t.test('json bodies: conditions with escaped double quotes or single quotes', async (t) => {
  const value = {
    sound: '{{#if (eq request.query.kind "cat")}}meow{{else}}woof{{/if}}',
    single: "{{#if (ne request.query.kind 'cat')}}not a cat{{/if}}",
  };
  t.match(JSON.stringify(value), /\\"cat\\"/, 'the compiled text holds escaped quotes');
  t.same(renderJson(value, { query: { kind: 'cat' } }), { sound: 'meow', single: '' });
  t.same(renderJson(value, { query: { kind: 'dog' } }), { sound: 'woof', single: 'not a cat' });
});

t.test('malformed blocks name the offset and the problem', async (t) => {
  t.throws(() => compileTemplate('hello world {{#if request.query.x}}open', 'none'), TemplateSyntaxError, 'is a TemplateSyntaxError');
  const cases = [
    ['hello world {{#if request.query.x}}open', 'unclosed {{#if}} at offset 12'],
    ['{{#if request.query.x}}{{#if request.query.y}}{{/if}}', 'unclosed {{#if}} at offset 0'],
    ['{{#if request.query.x}}{{/if}}{{#if request.query.y}}', 'unclosed {{#if}} at offset 30'],
    ['abc{{else}}', '{{else}} outside {{#if}} at offset 3'],
    ['abc{{/if}}', '{{/if}} without {{#if}} at offset 3'],
    ['{{#if request.query.x}}{{/if}}{{/if}}', '{{/if}} without {{#if}} at offset 30'],
    ['{{#if request.query.x}}a{{else}}b{{else}}c{{/if}}', 'second {{else}} in one {{#if}} at offset 33'],
    ['xx{{#if}}{{/if}}', '{{#if}} without a condition at offset 2'],
    ['{{#if (eq request.query.x)}}{{/if}}', 'expected (eq <value> <value>) in {{#if (eq request.query.x)}} at offset 0'],
    ["{{#if (eq request.query.x 'a' 'b')}}{{/if}}", "expected (eq <value> <value>) in {{#if (eq request.query.x 'a' 'b')}} at offset 0"],
    ["{{#if (gt request.query.x '1')}}{{/if}}", "expected eq or ne after ( in {{#if (gt request.query.x '1')}} at offset 0"],
    ["{{#if (eq foo 'a')}}{{/if}}", "unknown value 'foo' in {{#if (eq foo 'a')}} at offset 0"],
    ["{{#if (eq request.query.x 'a)}}{{/if}}", "unexpected ''a)' in {{#if (eq request.query.x 'a)}} at offset 0"],
    ['{{#if request.query.x request.query.y}}{{/if}}', 'expected one value or (eq a b) in {{#if request.query.x request.query.y}} at offset 0'],
    ['{{#if (eq request.body..x "a")}}{{/if}}', 'empty field name in {{request.body..x}} at offset 0'],
  ];
  for (const [template, message] of cases) t.throws(() => compileTemplate(template, 'none'), syntaxError(message), template);
});

t.test('offsets in json bodies point into the serialised text', async (t) => {
  const text = JSON.stringify({ a: '{{#if request.query.x}}' });
  t.equal(text.indexOf('{{'), 6);
  t.throws(() => compileTemplate(text, 'json'), syntaxError('unclosed {{#if}} at offset 6'));
});

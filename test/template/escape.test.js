// Escaping of inserted values, literal passthrough and hasTemplate.
import t from 'tap';
import { compileTemplate, hasTemplate } from '../../dist/compiler/template/index.js';
import { render, renderJson } from './fixtures/render.js';

const NASTY = 'say "hi"\nthen \\ leave\t\u0001 </script> \u2028';

t.test("escape 'json' keeps a JSON body valid", async (t) => {
  const value = { note: 'before {{request.header.x-note}} after', nested: { list: ['{{request.body.text}}'] } };
  const out = renderJson(value, { headers: { 'x-note': NASTY }, body: { text: NASTY } });
  t.same(out, { note: `before ${NASTY} after`, nested: { list: [NASTY] } });
});

t.test("escape 'json' escapes every kind of value", async (t) => {
  const out = renderJson({ obj: '{{request.body.o}}', num: '{{request.body.n}}', uuid: '{{uuid}}' }, { body: { o: { q: '"' }, n: 1.5 } });
  t.equal(out.obj, '{"q":"\\""}', 'objects become JSON text inside the string');
  t.equal(out.num, '1.5');
  t.equal(typeof out.uuid, 'string');
});

t.test("escape 'none' inserts raw values", async (t) => {
  t.equal(render('note: {{request.header.x-note}}', { headers: { 'x-note': NASTY } }), `note: ${NASTY}`);
  t.equal(render('"quoted" \\ {{request.path.id}}\n', { path: { id: 'a"b' } }), '"quoted" \\ a"b\n', 'literal text untouched');
});

t.test('unknown tokens stay literal', async (t) => {
  for (const text of ['{{foo}}', '{{ foo bar }}', '{{}}', '{{nowhere}}', '{{randIntx}}', '{{#each items}}x{{/each}}', '{{uuid', 'uuid}}', '{ {uuid} }']) {
    t.equal(render(text), text, text);
    t.equal(hasTemplate(text), false, `hasTemplate ${text}`);
  }
  t.match(render('{{foo}} {{uuid}}'), /^\{\{foo\}\} [0-9a-f-]{36}$/);
  t.same(renderJson({ a: '{{foo}}', b: '{{ x }}' }), { a: '{{foo}}', b: '{{ x }}' });
});

t.test('braces: innermost {{ wins, tags never span JSON strings', async (t) => {
  t.match(render('{{{uuid}}}'), /^\{[0-9a-f-]{36}\}$/);
  t.match(render('{{ stray {{uuid}}'), /^\{\{ stray [0-9a-f-]{36}$/);
  const value = { a: '{{', b: '}}', c: '{{request.path.id}}' };
  t.same(renderJson(value, { path: { id: 'x' } }), { a: '{{', b: '}}', c: 'x' });
});

t.test('plugin tokens are parsed and render literally', async (t) => {
  const token = '{{plugin:auth:token(user, "admin", 3)}}';
  t.equal(hasTemplate(token), true);
  t.equal(render(`A ${token} B`), `A ${token} B`);
  t.same(renderJson({ x: token, y: '{{plugin:p:a()}}' }), { x: token, y: '{{plugin:p:a()}}' });
  t.equal(render(`{{#if request.query.x}}${token}{{/if}}`, { query: { x: '1' } }), token);
  t.throws(() => compileTemplate('{{plugin:nope}}', 'none'), {
    name: 'TemplateSyntaxError',
    message: 'malformed plugin call {{plugin:nope}}, expected {{plugin:<plugin>:<action>(<args>)}} at offset 0',
  });
});

t.test('hasTemplate', async (t) => {
  t.equal(hasTemplate(''), false);
  t.equal(hasTemplate('plain text'), false);
  t.equal(hasTemplate(JSON.stringify({ a: 1, b: { c: [1, 2] } })), false, 'JSON braces are not tokens');
  for (const text of [
    '{{uuid}}',
    'x {{ now-1d }} y',
    '{{randInt 1 2}}',
    '{{rand.float}}',
    '{{faker.name}}',
    '{{faker.animal.cat}}',
    '{{request.body.a.0}}',
    '{{#if request.query.x}}a{{/if}}',
    JSON.stringify({ s: '{{#if (eq request.query.kind "cat")}}meow{{/if}}' }),
    '{{randInt 5 1}}',
    '{{faker.nope}}',
    '{{#if request.query.x}}unclosed',
  ]) {
    t.equal(hasTemplate(text), true, text);
  }
});

t.test('text without tokens compiles to a constant', async (t) => {
  t.equal(compileTemplate('plain "text"', 'none'), '(t, c) => "plain \\"text\\""');
  t.equal(compileTemplate('', 'json'), '(t, c) => ""');
  t.equal(render('a {{foo}} b'), 'a {{foo}} b');
});

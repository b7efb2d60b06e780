// {{plugin:<plugin>:<action>(<args>)}}: the arguments become a JSON array once, and the emitted code
// and the interpreter both hand it to the runtime's plugins and insert the answer for the target.
import t from 'tap';
import { compileTemplate } from '../../dist/compiler/template/index.js';
import { createTemplateRuntime, templateRenderer } from '../../dist/runtime/template/index.js';
import { context } from './fixtures/render.js';

/** Renders with both engines against a runtime whose plugins record each call and answer `answer(input)`. */
function both(text, escape, answer) {
  const calls = [];
  const t = createTemplateRuntime({ seed: 1, plugins: { call: (plugin, action, input) => (calls.push([plugin, action, input]), answer(JSON.parse(input))) } });
  const emitted = new Function(`return ${compileTemplate(text, escape)};`)()(t, context());
  const interpreted = templateRenderer(text, escape)(t, context());
  return { emitted, interpreted, calls };
}

t.test('arguments: quoted text as written, numbers, booleans and null as themselves, the rest as text', async (t) => {
  const { emitted, interpreted, calls } = both(`{{plugin:p:a(x, 'b, c', "d", 3, -1.5, true, null)}}`, 'none', (args) => args.length);
  t.equal(emitted, '7');
  t.equal(interpreted, '7');
  t.same(calls[0], ['p', 'a', JSON.stringify(['x', 'b, c', 'd', 3, -1.5, true, null])]);
  t.same(both('{{plugin:p:a()}}', 'none', (args) => args).calls[0][2], '[]');
});

t.test('answers are inserted for the target: text as itself, other values as JSON, escaped inside a JSON string', async (t) => {
  const body = JSON.stringify({ v: `{{plugin:p:a('say "hi"')}}` });
  const { emitted, interpreted, calls } = both(body, 'json', () => ({ q: '"' }));
  t.same(calls[0][2], JSON.stringify(['say "hi"']), 'the arguments are read from the unescaped token');
  t.same(JSON.parse(emitted), { v: '{"q":"\\""}' });
  t.equal(interpreted, emitted);
  t.equal(both('<{{plugin:p:a()}}>', 'none', () => 'text').emitted, '<text>');
});

t.test('a malformed argument list is a build error naming the fix', async (t) => {
  t.throws(() => compileTemplate("{{plugin:p:a('open)}}", 'none'), { name: 'TemplateSyntaxError', message: /malformed plugin arguments \('open\): separate them with commas and quote text/ });
});

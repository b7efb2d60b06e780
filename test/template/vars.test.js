// Names a caller gives values to ({{resource_id}} in a state's body_template): read from the
// context's vars where the template was parsed with them, literal text everywhere else.
import t from 'tap';
import { templateRenderer } from '../../dist/runtime/template/index.js';
import { context, render, runtime } from './fixtures/render.js';

const withVars = (text, vars, escape = 'none', parts = {}) => templateRenderer(text, escape, Object.keys(vars))(runtime(), { ...context(parts), vars });

t.test('a named value renders where the template was parsed with its name', async (t) => {
  t.equal(withVars('order {{resource_id}}', { resource_id: 'ord_1' }), 'order ord_1');
  t.equal(withVars('{{ resource_id }}/{{request.path.id}}', { resource_id: 'r' }, 'none', { path: { id: 'p' } }), 'r/p', 'next to request values, spaces allowed');
  t.equal(JSON.parse(withVars(JSON.stringify({ id: '{{resource_id}}' }), { resource_id: 'a"b\\c' }, 'json')).id, 'a"b\\c', 'escaped inside JSON strings');
  t.equal(withVars('{{#if (eq resource_id "vip")}}gold{{else}}plain{{/if}}', { resource_id: 'vip' }), 'gold', 'and in conditions');
  t.equal(templateRenderer('[{{resource_id}}]', 'none', ['resource_id'])(runtime(), context()), '[]', 'a context without vars renders it empty');
});

t.test('elsewhere the name is no token: it stays as written, in the emitted code and the interpreter alike', async (t) => {
  t.equal(render('id {{resource_id}}'), 'id {{resource_id}}');
});

// runtime/terminal/openapi/validation-modes.ts: per-operation validation mode from exact keys, globs and the default.
import t from 'tap';
import { resolveModes } from '../../dist/runtime/terminal/openapi/validation-modes.js';

const op = (method, path) => ({ method, path });
const ops = [
  op('GET', '/health'),
  op('POST', '/health'),
  op('GET', '/api/admin'),
  op('GET', '/api/admin/users/{id}'),
  op('DELETE', '/api/admin/users/{id}'),
  op('GET', '/api/pets'),
  op('GET', '/api/pets/{id}'),
];
const modes = (overrides, mode = 'enforce') =>
  Object.fromEntries(resolveModes(ops, { mode, aggregate_errors: true, validate_responses: false, status_code: 400, overrides }).map((m, i) => [`${ops[i].method} ${ops[i].path}`, m]));

t.test('no overrides: the global mode', (t) => {
  t.same(new Set(Object.values(modes({}, 'warn'))), new Set(['warn']));
  t.same(resolveModes([], { mode: 'off', overrides: { '/x': 'warn' } }), []);
  t.end();
});

t.test('exact METHOD /path keys', (t) => {
  const m = modes({ 'GET /health': 'off' });
  t.equal(m['GET /health'], 'off');
  t.equal(m['POST /health'], 'enforce', 'other methods keep the default');
  t.equal(modes({ 'get   /health': 'warn' })['GET /health'], 'warn', 'method case and spacing');
  t.equal(modes({ '/health': 'off' })['POST /health'], 'off', 'a path without method matches every method');
  t.equal(modes({ 'GET /api/pets/{id}': 'off' })['GET /api/pets/{id}'], 'off', 'templates compared as written');
  t.equal(modes({ 'GET /api/pets/{petId}': 'off' })['GET /api/pets/{id}'], 'enforce', 'parameter names matter');
  t.equal(modes({ 'GET /api/pets/7': 'off' })['GET /api/pets/{id}'], 'enforce', 'concrete paths do not match templates');
  t.end();
});

t.test('exact keys beat globs, wherever they appear', (t) => {
  const m = modes({ '/api/**': 'off', 'GET /api/pets': 'warn', '/api/pets/*': 'warn' });
  t.equal(m['GET /api/pets'], 'warn', 'exact after glob still wins');
  t.equal(m['GET /api/pets/{id}'], 'off', 'first matching glob in order');
  t.equal(m['GET /api/admin'], 'off');
  t.equal(m['GET /health'], 'enforce');
  t.end();
});

t.test('* stays within a segment, ** spans segments', (t) => {
  const one = modes({ '/api/*': 'off' });
  t.equal(one['GET /api/pets'], 'off');
  t.equal(one['GET /api/admin'], 'off');
  t.equal(one['GET /api/pets/{id}'], 'enforce', '* does not cross /');
  const many = modes({ '/api/admin/**': 'off' });
  t.equal(many['GET /api/admin/users/{id}'], 'off');
  t.equal(many['GET /api/admin'], 'off', 'a trailing /** also matches its base');
  t.equal(many['GET /api/pets'], 'enforce');
  const middle = modes({ '/api/**/{id}': 'warn' });
  t.equal(middle['GET /api/pets/{id}'], 'warn');
  t.equal(middle['DELETE /api/admin/users/{id}'], 'warn');
  t.equal(middle['GET /api/pets'], 'enforce');
  t.end();
});

t.test('method-prefixed globs', (t) => {
  const m = modes({ 'DELETE /api/**': 'off', 'get /api/admin/*/*': 'warn' });
  t.equal(m['DELETE /api/admin/users/{id}'], 'off');
  t.equal(m['GET /api/admin/users/{id}'], 'warn', 'lower-case method');
  t.equal(m['GET /api/pets'], 'enforce', 'other methods fall through');
  t.equal(modes({ '**': 'off' })['POST /health'], 'off', 'a bare ** matches everything');
  t.end();
});

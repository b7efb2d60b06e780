// common/runtime-expression: the OpenAPI 3.x runtime-expression grammar, parsed and evaluated.
import t from 'tap';
import { checkRuntimeTemplate, describeExpression, parseExpression, parseTemplate, renderTemplate, renderValue } from '../../dist/common/runtime-expression.js';

const view = (parts) => ({
  header: (name) => parts.headers?.[name],
  query: (name) => parts.query?.[name],
  path: (name) => parts.path?.[name],
  body: () => parts.body,
});
const cx = {
  url: 'http://mock.test/v1/subs/acme?topic=pets',
  method: 'POST',
  statusCode: 201,
  request: view({
    headers: { 'x-trace': 't-1' },
    query: { topic: 'pets' },
    path: { tenant: 'acme' },
    body: { callbackUrl: 'http://hooks.test', 'a/b': { '~c': 3 }, list: [10, 20], deep: { n: null } },
  }),
  response: view({ headers: { location: '/subs/42' }, body: { id: 42 } }),
};

t.test('every form of the grammar evaluates', async (t) => {
  const cases = [
    ['$url', 'http://mock.test/v1/subs/acme?topic=pets'],
    ['$method', 'POST'],
    ['$statusCode', 201],
    ['$request.header.X-Trace', 't-1'],
    ['$request.query.topic', 'pets'],
    ['$request.path.tenant', 'acme'],
    ['$request.body#/callbackUrl', 'http://hooks.test'],
    ['$request.body#/a~1b/~0c', 3],
    ['$request.body#/list/1', 20],
    ['$request.body#/list/x', undefined],
    ['$request.body#/deep/n', null],
    ['$request.body#/missing', undefined],
    ['$response.header.Location', '/subs/42'],
    ['$response.body#/id', 42],
    ['$response.body', { id: 42 }],
    ['$request.body#', cx.request.body()],
  ];
  for (const [text, value] of cases) {
    const [expression] = parseTemplate(text);
    t.same(renderValue(`{${text}}`, cx) ?? undefined, value ?? undefined, text);
    t.equal(describeExpression(expression), text.replace(/header\.X-Trace/, 'header.x-trace').replace(/header\.Location/, 'header.location'), `${text} described`);
  }
});

t.test('embedded expressions in strings; a whole expression keeps its type', async (t) => {
  t.equal(renderTemplate(parseTemplate('{$request.body#/callbackUrl}/events/{$response.body#/id}?s={$statusCode}'), cx), 'http://hooks.test/events/42?s=201');
  t.same(renderValue('{$request.body#/list}', cx), [10, 20]);
  t.equal(renderValue('items: {$request.body#/list}', cx), 'items: [10,20]');
  t.equal(renderValue('no expression {here}', cx), 'no expression {here}');
  const missing = [];
  t.equal(renderTemplate(parseTemplate('{$request.query.none}/x'), cx, missing), '/x');
  t.same(missing, ['$request.query.none'], 'what had no value is named');
});

t.test('what is not in the grammar is refused with the reason', async (t) => {
  const bad = [
    ['$foo', /is not a runtime expression/],
    ['$request.cookie.a', /expected header\.<name>/],
    ['$request.header.', /needs a header name/],
    ['$request.header.a b', /needs a header name/],
    ['$request.query.', /needs a name/],
    ['$response.path.id', /a response has no path parameters/],
    ['$request.body#id', /starts with \//],
    ['$request.body#/a~2', /~0 \(~\) or ~1/],
  ];
  for (const [text, message] of bad) t.throws(() => parseExpression(text), { message }, text);
  t.match(checkRuntimeTemplate('http://x/{$request.body#/a'), /no closing \}/);
  t.equal(checkRuntimeTemplate('http://x/{$request.body#/a}'), undefined);
});

// compiler/emit/responders.ts: default statuses, examples (validity, preference, templates), custom route responses.
import t from 'tap';
import { buildIr } from '../../dist/compiler/ir/index.js';
import { registerSchemas } from '../../dist/compiler/emit/ajv-schemas.js';
import { emitResponders, serialise } from '../../dist/compiler/emit/responders.js';
import { transpile } from '../../dist/compiler/emit/transpile.js';
import { createGenRuntime } from '../../dist/common/generate/index.js';
import { createTemplateRuntime } from '../../dist/runtime/template/index.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const json = (extra) => ({ 'application/json': extra });
const doc = {
  openapi: '3.0.3',
  info: { title: 'r', version: '1' },
  paths: {
    '/a': { get: { responses: { default: { description: 'd' }, 404: { description: 'n' }, 201: { description: 'c' } } } },
    '/b': { get: { responses: { default: { description: 'd' }, 302: { description: 'r' } } } },
    '/c': { get: { responses: { '4XX': { description: 'x' }, default: { description: 'd' } } } },
    '/d': { get: { responses: { 404: { description: 'n' } } } },
    '/e': { get: { responses: {} } },
    '/f': { get: { responses: { '5XX': { description: 'down' }, '4XX': { description: 'bad' } } } },
    '/g': { get: { responses: { 101: { description: 'upgrade' }, 400: { description: 'bad' } } } },
    '/pets': {
      get: {
        responses: {
          200: {
            description: 'ok',
            headers: { 'X-Rate': { schema: { type: 'integer', minimum: 1, maximum: 1 } }, 'X-Fixed': { example: 42 } },
            content: {
              ...json({
                schema: { $ref: '#/components/schemas/Pet' },
                examples: { wrong: { value: { name: 5 } }, right: { value: { name: 'Rex' } }, templated: { value: { name: '{{uuid}}' } } },
              }),
              'application/xml': { schema: { $ref: '#/components/schemas/Pet' } },
              '*/*': { schema: { type: 'array', items: { type: 'string' } } },
              'text/plain': { example: 'hello' },
              'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
            },
          },
          '2XX': { description: 'range', content: json({ schema: { type: 'object', required: ['id'], xml: { name: 'thing' } }, example: { name: 1 } }) },
        },
      },
    },
  },
  components: { schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
};

const routes = [
  { path: '/text', response: { body: 'plain' } },
  { path: '/json', response: { status: 201, body: { a: [1] }, headers: { 'X-Id': 'id-{{uuid}}', 'X-Plain': 'p' } } },
  { path: '/xml', response: { body: { a: 1 }, content_type: 'application/xml' } },
  { path: '/empty', response: { status: 204 } },
  { path: '/tpl', response: { body: { echo: '{{request.query.q}}' } } },
];

const ir = buildIr('r', [{ source: 'r.yaml', description: { dialect: 'openapi-3.0', document: doc } }], routes);
const schemas = registerSchemas(ir);
const emitted = emitResponders(ir, schemas);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-test-'));
t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
fs.writeFileSync(path.join(tmp, 'responders.mjs'), emitted.js);
const mod = await import(pathToFileURL(path.join(tmp, 'responders.mjs')).href);
const templates = createTemplateRuntime({ seed: 1 });
const responders = mod.createResponders(createGenRuntime({ seed: 7 }));
const byKey = Object.fromEntries(ir.operations.map((op) => [op.key, responders.operations[op.index]]));

t.test('default response: first 2xx, else 3xx, else default, else the first documented, else none', (t) => {
  const pick = (key) => {
    const table = byKey[key];
    return table.defaultResponse === -1 ? null : table.responses[table.defaultResponse].code;
  };
  t.equal(pick('GET /a'), '201');
  t.equal(pick('GET /b'), '302', 'a redirect before default');
  t.equal(pick('GET /c'), 'default', 'a 4XX range is not a default');
  t.equal(pick('GET /d'), '404', 'only errors documented: the first of them');
  t.equal(pick('GET /e'), null);
  t.equal(pick('GET /f'), '5XX', 'in document order');
  t.equal(pick('GET /g'), null, 'a protocol switch the mock cannot perform');
  t.equal(pick('GET /pets'), '200');
  t.end();
});

t.test('status numbers for ranges and default', (t) => {
  t.same(byKey['GET /a'].responses.map((r) => [r.code, r.status]), [['201', 201], ['404', 404], ['default', 200]]);
  t.same(byKey['GET /c'].responses.map((r) => [r.code, r.status]), [['4XX', 400], ['default', 200]]);
  t.same(byKey['GET /pets'].responses.map((r) => r.code), ['200', '2XX']);
  t.end();
});

t.test('examples: validity, preference, templates', (t) => {
  const [ok, range] = byKey['GET /pets'].responses;
  const [jsonContent, xml, any, text, binary] = ok.contents;
  t.same(jsonContent.examples.map((e) => [e.name, e.valid, e.body, e.template === null]), [
    ['wrong', false, '{"name":5}', true],
    ['right', true, '{"name":"Rex"}', true],
    ['templated', true, '{"name":"{{uuid}}"}', false],
  ], 'a templated example is checked once expanded');
  t.equal(jsonContent.preferred, 1, 'the first valid example is served');
  t.equal(range.contents[0].preferred, -1, 'only invalid examples: generate');
  t.equal(text.preferred, 0, 'no schema: the example is served as is');
  t.same(emitted.warnings.invalidExamples, ['GET /pets 200 application/json example "wrong"', 'GET /pets 2XX application/json example "example"']);
  t.match(JSON.parse(jsonContent.examples[2].template(templates, {})).name, /^[0-9a-f-]{36}$/, 'templates are functions');
  t.end();
});

t.test('content entries: type, format, xml root, validator, generator', (t) => {
  const [jsonContent, xml, any, text, binary] = byKey['GET /pets'].responses[0].contents;
  t.same([jsonContent.type, jsonContent.format, jsonContent.xmlRoot, jsonContent.validator], ['application/json', 'json', 'Pet', 'r7_0_0']);
  t.same([xml.type, xml.format, xml.xmlRoot, xml.validator], ['application/xml', 'xml', 'Pet', null], 'xml root from the referenced definition');
  t.same([any.type, any.format, any.xmlRoot], ['application/json', 'json', 'items'], '*/* is served as JSON; arrays are <items>');
  t.same([text.format, text.generate], ['text', null]);
  t.equal(binary.generate(0), 'binary');
  t.equal(byKey['GET /pets'].responses[1].contents[0].xmlRoot, 'thing', 'xml.name wins');
  t.type(jsonContent.generate(0).name, 'string', 'generated from the schema');
  t.end();
});

t.test('response headers', (t) => {
  const [rate, fixed] = byKey['GET /pets'].responses[0].headers;
  t.same([rate[0], rate[1]()], ['x-rate', '1']);
  t.same([fixed[0], fixed[1]()], ['x-fixed', '42'], 'examples are stringified');
  t.end();
});

t.test('custom route responses', (t) => {
  const [text, jsonRoute, xml, empty, tpl] = responders.routes;
  t.same(text, { status: 200, type: 'text/plain', headers: [], body: 'plain', template: null });
  t.same([jsonRoute.status, jsonRoute.type, jsonRoute.body], [201, 'application/json', '{"a":[1]}']);
  t.same(jsonRoute.headers.map(([k, v, tplFn]) => [k, v, tplFn === null]), [['x-id', 'id-{{uuid}}', false], ['x-plain', 'p', true]], 'header templates compiled');
  t.equal(xml.type, 'application/xml');
  t.match(xml.body, /<root><a>1<\/a><\/root>$/, 'objects serialised as XML');
  t.same(empty, { status: 204, type: null, headers: [], body: '', template: null });
  t.same(JSON.parse(tpl.template(templates, { path: {}, query: { q: 'say "hi"' }, headers: {}, body: undefined })), { echo: 'say "hi"' }, 'JSON bodies escape inserted values');
  t.match(jsonRoute.headers[0][2](templates, {}), /^id-[0-9a-f-]{36}$/);
  t.end();
});

t.test('template syntax errors are MOCK_ERR_TEMPLATE naming the place', (t) => {
  const bad = buildIr('r', [], [{ path: '/x', response: { body: '{{randInt 5}}' } }]);
  t.throws(() => emitResponders(bad, registerSchemas(bad)), {
    code: 'MOCK_ERR_TEMPLATE',
    message: /^http\.routes\[0\] response body: template error: randInt needs two integer bounds.* \(fix the \{\{…\}\} token\)$/,
  });
  const badHeader = buildIr('r', [], [{ path: '/x', response: { headers: { 'X-A': '{{now+1y}}' } } }]);
  t.throws(() => emitResponders(badHeader, registerSchemas(badHeader)), { code: 'MOCK_ERR_TEMPLATE', message: /^http\.routes\[0\] header x-a: template error: invalid time offset/ });
  t.end();
});

t.test('serialise', (t) => {
  t.equal(serialise({ a: 1 }, 'json', 'root'), '{"a":1}');
  t.equal(serialise(undefined, 'json', 'root'), 'null');
  t.equal(serialise('already text', 'json', 'root'), '"already text"');
  t.equal(serialise({ a: 1, b: 'x y' }, 'form', 'root'), 'a=1&b=x+y');
  t.equal(serialise('<x/>', 'xml', 'root'), '<x/>', 'xml strings as written');
  t.equal(serialise('abc', 'text', 'root'), 'abc');
  t.equal(serialise({ a: 1 }, 'text', 'root'), '{"a":1}');
  t.end();
});

t.test('the typed twin carries the same body', (t) => {
  t.match(emitted.ts, /export function createResponders\(g: GenRuntime\): Responders/);
  t.match(emitted.ts, /function gen_\w+\(d: number\): unknown \{\n {4}const o: Record<string, unknown> = \{\};/, 'generators typed');
  t.equal(transpile(emitted.ts), transpile(emitted.js), 'the same code once types are stripped');
  t.end();
});

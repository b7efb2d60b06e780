// compiler/load: readDescription (read, parse, bundle) and toOpenApi3 (dialect detection, Swagger 2.0 conversion).
import t from 'tap';
import path from 'node:path';
import { readDescription, toOpenApi3 } from '../../dist/compiler/load/index.js';
import { serverBasePath } from '../../dist/compiler/ir/mount.js';

const CORPUS = '/work/shared/corpus/openapi';

const minimal = (version = '3.0.3') => `openapi: ${version}
info: {title: Tiny, version: "1"}
paths:
  /a:
    get:
      responses:
        "200": {description: ok}
`;

const dir = t.testdir({
  'tiny.yaml': minimal(),
  'tiny.json': JSON.stringify({ openapi: '3.0.3', info: { title: 'Tiny', version: '1' }, paths: {} }, null, 2),
  'lenient.json': '{ openapi: 3.0.3, info: {title: Flow, version: "1"}, paths: {} }',
  'v31.yaml': minimal('3.1.0'),
  'v32.yaml': minimal('"3.2.0"'),
  'bad-indent.yaml': 'openapi: 3.0.0\ninfo:\n  title: x\n   version: 1\npaths: {}\n',
  'tabs.yaml': 'openapi: 3.0.0\ninfo:\n\ttitle: x\n',
  'bad-json.json': '{"openapi": "3.0.0",\n "info": {,}\n}',
  'list.yaml': '- a\n- b\n',
  'empty.yaml': '',
  'scalar.yaml': 'just a string\n',
  'no-version.json': '{"info": {}, "paths": {}}',
  'numeric-version.yaml': 'openapi: 3.0\ninfo: {}\npaths: {}\n',
  'v4.yaml': 'openapi: "4.0.0"\ninfo: {title: x, version: "1"}\npaths: {}\n',
  'swagger12.yaml': 'swagger: "1.2"\ninfo: {title: x, version: "1"}\npaths: {}\n',
  'bad-ref.yaml': `openapi: 3.0.0
info: {title: x, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Missing"}
`,
  'missing-file-ref.yaml': `openapi: 3.0.0
info: {title: x, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "./nope.yaml"}
`,
  'external.yaml': `openapi: 3.0.0
info: {title: x, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "./schemas/pet.yaml"}
`,
  schemas: { 'pet.yaml': 'type: object\nproperties:\n  name: {type: string}\n' },
  'swagger2.yaml': `swagger: "2.0"
info: {title: S2, version: "1"}
basePath: /api/v2/
consumes: [application/json]
produces: [application/json]
paths:
  /things/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, type: integer}
      responses:
        "200":
          description: ok
          schema: {$ref: "#/definitions/Thing"}
definitions:
  Thing:
    type: object
    properties:
      name: {type: string}
`,
});

t.test('YAML and JSON files are read, keeping the exact text', async (t) => {
  const yaml = await readDescription('tiny.yaml', dir);
  t.equal(yaml.source, 'tiny.yaml', 'source is the value as given');
  t.equal(yaml.location, path.join(dir, 'tiny.yaml'), 'location is resolved against cwd');
  t.equal(yaml.text, minimal(), 'text is the bytes read');
  t.equal(yaml.document.openapi, '3.0.3');
  t.same(Object.keys(yaml.document.paths), ['/a']);

  const json = await readDescription('tiny.json', dir);
  t.equal(json.document.info.title, 'Tiny');

  const abs = await readDescription(path.join(dir, 'tiny.yaml'), '/');
  t.equal(abs.location, path.join(dir, 'tiny.yaml'), 'absolute paths ignore cwd');

  const flow = await readDescription('lenient.json', dir);
  t.equal(flow.document.info.title, 'Flow', 'a .json file that is not strict JSON is parsed as YAML');
});

t.test('external $refs are bundled into the document', async (t) => {
  const raw = await readDescription('external.yaml', dir);
  const schema = raw.document.paths['/a'].get.responses['200'].content['application/json'].schema;
  t.type(schema.$ref, 'string', 'the external ref becomes an internal one');
  t.match(schema.$ref, /^#\/components\/schemas\//);
  const name = schema.$ref.split('/').pop();
  t.same(raw.document.components.schemas[name], { type: 'object', properties: { name: { type: 'string' } } });
});

t.test('a missing file is MOCK_ERR_SPEC_NOT_FOUND naming the resolved location', async (t) => {
  await t.rejects(readDescription('nope.yaml', dir), {
    name: 'MockError',
    code: 'MOCK_ERR_SPEC_NOT_FOUND',
    message: `spec not found: nope.yaml (checked ${path.join(dir, 'nope.yaml')}; pass an existing file or URL with --spec)`,
  });
});

t.test('syntax errors are MOCK_ERR_SPEC_PARSE with line:col', async (t) => {
  await t.rejects(readDescription('bad-indent.yaml', dir), {
    code: 'MOCK_ERR_SPEC_PARSE',
    message: /^bad-indent\.yaml:3:10: invalid YAML\/JSON: .+ \(fix the syntax at that position\)$/,
  });
  await t.rejects(readDescription('tabs.yaml', dir), {
    code: 'MOCK_ERR_SPEC_PARSE',
    message: /^tabs\.yaml:3:1: invalid YAML\/JSON: Tabs are not allowed as indentation/,
  });
  await t.rejects(readDescription('bad-json.json', dir), {
    code: 'MOCK_ERR_SPEC_PARSE',
    message: /^bad-json\.json:2:\d+: invalid YAML\/JSON: /,
  }, 'broken JSON is reported with a YAML position too');
  const err = await readDescription('bad-indent.yaml', dir).catch((e) => e);
  t.notMatch(err.message, /at line \d+, column \d+/, 'the position is not repeated in prose');
  t.notMatch(err.message, /\n/, 'one line');
});

t.test('documents that are not descriptions are MOCK_ERR_SPEC_INVALID', async (t) => {
  const notDoc = (file) => ({
    code: 'MOCK_ERR_SPEC_INVALID',
    message: `${file}: not an OpenAPI or Swagger document (expected a YAML or JSON object with an "openapi" or "swagger" field)`,
  });
  for (const file of ['list.yaml', 'empty.yaml', 'scalar.yaml']) await t.rejects(readDescription(file, dir), notDoc(file), file);
  await t.rejects(readDescription('no-version.json', dir), {
    code: 'MOCK_ERR_SPEC_INVALID',
    message: `no-version.json: unsupported description version null (expected "openapi: 3.0.x", "openapi: 3.1.x", "openapi: 3.2.x" or "swagger: '2.0'")`,
  });
  await t.rejects(readDescription('numeric-version.yaml', dir), {
    code: 'MOCK_ERR_SPEC_INVALID',
    message: /unsupported description version 3 /,
  }, 'an unquoted `openapi: 3.0` is the number 3');
});

t.test('an unresolvable $ref is MOCK_ERR_SPEC_REF with its location', async (t) => {
  await t.rejects(readDescription('bad-ref.yaml', dir), {
    code: 'MOCK_ERR_SPEC_REF',
    message: "bad-ref.yaml: Can't resolve $ref at #/paths/~1a/get/responses/200/content/application~1json/schema (fix the $ref or add the referenced file)",
  });
  await t.rejects(readDescription('missing-file-ref.yaml', dir), {
    code: 'MOCK_ERR_SPEC_REF',
    message: /^missing-file-ref\.yaml: Can't resolve \$ref.*nope\.yaml.* at #\/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema \(fix the \$ref or add the referenced file\)$/,
  });
});

t.test('unsupported version strings are MOCK_ERR_SPEC_INVALID, before bundling', async (t) => {
  for (const file of ['v4.yaml', 'swagger12.yaml']) {
    await t.rejects(readDescription(file, dir), { code: 'MOCK_ERR_SPEC_INVALID', message: /unsupported description version/ }, file);
  }
});

t.test('toOpenApi3 detects the dialect', async (t) => {
  t.equal((await toOpenApi3('x', { openapi: '3.0.0' })).dialect, 'openapi-3.0');
  t.equal((await toOpenApi3('x', { openapi: '3.0.3' })).dialect, 'openapi-3.0');
  t.equal((await toOpenApi3('x', { openapi: '3.1.0' })).dialect, 'openapi-3.1');
  t.equal((await toOpenApi3('x', { openapi: '3.2.0' })).dialect, 'openapi-3.2');
  t.equal((await toOpenApi3('x', { openapi: '3.3.0' })).dialect, 'openapi-3.2', 'later 3.x minors read as 3.2');
  const doc = { openapi: '3.0.1', paths: {} };
  t.equal((await toOpenApi3('x', doc)).document, doc, '3.x documents pass through untouched');
  for (const openapi of ['3.0', '3.00', '2.0', '4.0.0', 3, undefined]) {
    await t.rejects(toOpenApi3('spec.yaml', { openapi }), {
      code: 'MOCK_ERR_SPEC_INVALID',
      message: `spec.yaml: unsupported description version ${JSON.stringify(openapi ?? null)} (expected "openapi: 3.0.x", "openapi: 3.1.x", "openapi: 3.2.x" or "swagger: '2.0'")`,
    }, String(openapi));
  }
  await t.rejects(toOpenApi3('s.yaml', { swagger: '1.2' }), { code: 'MOCK_ERR_SPEC_INVALID', message: /unsupported description version "1.2"/ });
});

t.test('3.1 corpus description is detected as openapi-3.1', async (t) => {
  const raw = await readDescription('oai-v3.1-tictactoe.yaml', CORPUS);
  const { dialect } = await toOpenApi3(raw.source, raw.document);
  t.equal(dialect, 'openapi-3.1');
  const webhooks = await readDescription('oai-v3.1-webhook-example.yaml', CORPUS);
  t.equal((await toOpenApi3(webhooks.source, webhooks.document)).dialect, 'openapi-3.1');
});

t.test('Swagger 2.0 is converted; basePath becomes the mount path', async (t) => {
  const raw = await readDescription('oai-v2.0-petstore.json', CORPUS);
  const input = structuredClone(raw.document);
  const { dialect, document } = await toOpenApi3(raw.source, raw.document);
  t.equal(dialect, 'swagger-2.0');
  t.match(document.openapi, /^3\.0\./);
  t.same(raw.document, input, 'the loaded document is not mutated');
  t.equal(serverBasePath(document), '/v1', 'host + basePath become servers[0].url, mounted at /v1');
  t.ok(document.components.schemas.Pet, 'definitions move to components.schemas');
  const list = document.paths['/pets'].get;
  t.ok(list.responses['200'].content['application/json'].schema, 'responses get content by `produces`');
  t.equal(list.parameters.find((p) => p.name === 'limit').schema.type, 'integer', 'parameter types move into schema');

  const local = await readDescription('swagger2.yaml', dir);
  const converted = await toOpenApi3('swagger2.yaml', local.document);
  t.equal(converted.dialect, 'swagger-2.0');
  t.equal(serverBasePath(converted.document), '/api/v2', 'a host-less basePath still mounts');
  t.equal(
    converted.document.paths['/things/{id}'].get.responses['200'].content['application/json'].schema.$ref,
    '#/components/schemas/Thing',
    '#/definitions refs are rewritten',
  );
});

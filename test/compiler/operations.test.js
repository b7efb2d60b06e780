// compiler/ir/operations.ts: `paths` of one OpenAPI 3.x document lowered into IR operations.
import t from 'tap';
import { lowerOperations, joinPath } from '../../dist/compiler/ir/operations.js';
import { SchemaRegistry } from '../../dist/compiler/ir/normalize-schema.js';

const lower = (document, basePath = '') => {
  const registry = new SchemaRegistry();
  registry.use(document, '0');
  return { ops: lowerOperations({ document, registry, specIndex: 3, basePath }), registry };
};

const doc = {
  openapi: '3.0.3',
  security: [{ key: [] }],
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      basic: { type: 'http', scheme: 'Basic' },
      oauth: { type: 'oauth2', flows: {} },
      shared: { $ref: '#/components/securitySchemes/basic' },
    },
    parameters: {
      Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } },
    },
    responses: {
      NotFound: { description: 'missing', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
    requestBodies: {
      Pet: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
    },
    headers: {
      Rate: { schema: { type: 'integer' }, example: 5, required: true },
    },
    schemas: {
      Pet: { type: 'object', properties: { name: { type: 'string' } } },
      Error: { type: 'object', properties: { message: { type: 'string' } } },
    },
  },
  paths: {
    '/pets/{id}': {
      parameters: [
        { name: 'id', in: 'path', schema: { type: 'string' } },
        { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
      ],
      get: {
        operationId: 'getPet',
        summary: 'Get',
        description: 'Gets a pet',
        tags: ['pets', 7],
        parameters: [
          { name: 'id', declaredName: 'id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'x-trace', in: 'header', required: true, schema: { type: 'integer' } },
          { $ref: '#/components/parameters/Limit' },
          { name: 'Accept', in: 'header', schema: { type: 'string' } },
          { name: 'Content-Type', in: 'header', schema: { type: 'string' } },
          { name: 'authorization', in: 'header', schema: { type: 'string' } },
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'ids', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
          { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
          { name: 'weird', in: 'body', schema: { type: 'string' } },
          { name: 'data', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'integer' } } } } } },
          { name: 'plain', in: 'query' },
          { in: 'query' },
        ],
        responses: {
          200: {
            description: 'ok',
            headers: {
              'X-Rate-Limit': { $ref: '#/components/headers/Rate' },
              'Content-Type': { schema: { type: 'string' } },
              'Content-Length': { schema: { type: 'integer' } },
              'X-Free': { description: 'no schema' },
            },
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Pet' }, example: { name: 'Rex' } },
              'application/xml': {},
            },
          },
          '4xx': { description: 'client' },
          404: { $ref: '#/components/responses/NotFound' },
          default: { description: 'other' },
          'x-extension': { description: 'not a status' },
          600: { description: 'out of range' },
        },
      },
      delete: { security: [], responses: { 204: { description: 'gone' } } },
      put: {
        security: [{ basic: [], oauth: [] }, { basic: [] }, { unknown: [] }],
        requestBody: { $ref: '#/components/requestBodies/Pet' },
        responses: {},
      },
      post: { requestBody: { content: {} } },
      patch: { requestBody: { content: { 'text/plain': {} } } },
      'x-not-a-method': { responses: {} },
    },
    '/empty': 'not an object',
  },
};

t.test('one operation per method in document method order', (t) => {
  const { ops } = lower(doc, '/v1');
  t.same(ops.map((o) => o.key), ['GET /v1/pets/{id}', 'PUT /v1/pets/{id}', 'POST /v1/pets/{id}', 'DELETE /v1/pets/{id}', 'PATCH /v1/pets/{id}']);
  const get = ops[0];
  t.equal(get.method, 'GET');
  t.equal(get.path, '/v1/pets/{id}', 'mounted path');
  t.equal(get.specPath, '/pets/{id}', 'path as written');
  t.equal(get.spec, 3);
  t.equal(get.operationId, 'getPet');
  t.equal(get.summary, 'Get');
  t.equal(get.description, 'Gets a pet');
  t.same(get.tags, ['pets'], 'non-string tags dropped');
  t.notOk('index' in get, 'indexes are assigned by buildIr');
  t.equal(ops[1].operationId, undefined);
  t.end();
});

t.test('parameters: merging, defaults, ignored headers', (t) => {
  const [get] = lower(doc).ops;
  const byKey = Object.fromEntries(get.parameters.map((p) => [`${p.in}:${p.name}`, p]));
  t.same(Object.keys(byKey), ['path:id', 'header:x-trace', 'query:verbose', 'query:limit', 'query:tags', 'query:ids', 'query:filter', 'cookie:session', 'query:data', 'query:plain']);
  t.same(byKey['path:id'], { name: 'id', declaredName: 'id', in: 'path', required: true, schema: { type: 'integer' }, style: 'simple', explode: false }, 'operation level overrides path level');
  t.same(byKey['header:x-trace'].schema, { type: 'integer' }, 'header names compare case-insensitively');
  t.equal(byKey['header:x-trace'].declaredName, 'x-trace', 'the declared spelling of the parameter that wins');
  t.equal(byKey['header:x-trace'].required, true);
  t.equal(byKey['query:verbose'].required, false, 'path-level parameters are inherited');
  t.same(byKey['query:limit'], { name: 'limit', declaredName: 'limit', in: 'query', required: false, schema: { type: 'integer' }, style: 'form', explode: true }, '$ref parameters resolve');
  t.equal(byKey['query:ids'].explode, false);
  t.equal(byKey['query:filter'].style, 'deepObject');
  t.equal(byKey['query:filter'].explode, false, 'explode defaults to true only for form');
  t.same([byKey['cookie:session'].style, byKey['cookie:session'].explode], ['form', true]);
  t.same(byKey['query:data'].schema, { type: 'object', properties: { a: { type: 'integer' } } }, 'content parameters use their schema');
  t.same(byKey['query:plain'].schema, { type: 'string' }, 'no schema: a string');
  t.notOk(byKey['header:accept'] || byKey['header:content-type'] || byKey['header:authorization'], 'Accept, Content-Type and Authorization are ignored');
  t.end();
});

t.test('path parameters are always required', (t) => {
  const { ops } = lower({ paths: { '/a/{x}': { get: { parameters: [{ name: 'x', in: 'path', required: false }] } } } });
  t.equal(ops[0].parameters[0].required, true);
  t.end();
});

t.test('responses: status filter, refs, transport headers, contents and examples', (t) => {
  const [get] = lower(doc).ops;
  t.same(get.responses.map((r) => r.status), ['200', '404', '4XX', 'default'], 'statuses upper-cased, unknown keys skipped (integer-like keys first, as JavaScript orders them)');
  const ok = get.responses[0];
  t.equal(ok.description, 'ok');
  t.same(ok.headers, [
    { name: 'x-rate-limit', required: true, schema: { type: 'integer' }, example: 5 },
    { name: 'x-free', required: false, schema: undefined, example: undefined },
  ], 'header refs resolve; names lower-cased; transport headers dropped');
  t.same(ok.contents, [
    { mediaType: 'application/json', schema: { $ref: '#/definitions/Pet' }, examples: [{ name: 'example', value: { name: 'Rex' } }] },
    { mediaType: 'application/xml', schema: undefined, examples: [] },
  ]);
  t.same(get.responses[1], { status: '404', description: 'missing', headers: [], contents: [{ mediaType: 'application/json', schema: { $ref: '#/definitions/Error' }, examples: [] }] });
  t.end();
});

t.test('request bodies', (t) => {
  const { ops } = lower(doc);
  const by = Object.fromEntries(ops.map((o) => [o.method, o]));
  t.same(by.PUT.requestBody, { required: true, contents: [{ mediaType: 'application/json', schema: { $ref: '#/definitions/Pet' }, examples: [] }] }, 'ref resolved');
  t.equal(by.POST.requestBody, undefined, 'empty content: no body');
  t.same(by.PATCH.requestBody, { required: false, contents: [{ mediaType: 'text/plain', schema: undefined, examples: [] }] });
  t.equal(by.GET.requestBody, undefined);
  t.end();
});

t.test('security: operation overrides document; schemes deduplicated', (t) => {
  const { ops } = lower(doc);
  const by = Object.fromEntries(ops.map((o) => [o.method, o]));
  t.same(by.GET.security, [{ scheme: 'key', type: 'apiKey', detail: 'header', name: 'X-Key' }], 'document default');
  t.same(by.DELETE.security, [], 'security: [] turns it off');
  t.same(by.PUT.security, [
    { scheme: 'basic', type: 'http', detail: 'basic', name: undefined, bearerFormat: undefined },
    { scheme: 'oauth', type: 'oauth2', detail: undefined, name: undefined, bearerFormat: undefined },
  ], 'http scheme lower-cased, repeats and unknown schemes skipped');
  t.same(by.PUT.securityRequirements, [['basic', 'oauth'], ['basic']], 'requirements kept: OR between them, AND within; one naming an undeclared scheme left out');
  t.same(by.GET.securityRequirements, [['key']]);
  t.same(by.DELETE.securityRequirements, [], 'none');
  const shared = lower({ components: doc.components, paths: { '/a': { get: { security: [{ shared: [] }] } } } }).ops[0];
  t.same(shared.security, [{ scheme: 'shared', type: 'http', detail: 'basic', name: undefined, bearerFormat: undefined }], 'scheme refs resolve');
  const optional = lower({ components: doc.components, paths: { '/a': { get: { security: [{}, { key: [] }] } } } }).ops[0];
  t.same(optional.securityRequirements, [[], ['key']], 'an empty requirement makes security optional');
  t.end();
});

t.test('encoding style and explode where the version applies them; allowEmptyValue', (t) => {
  const encoding = { a: { style: 'form', explode: false, contentType: 'text/plain' } };
  const body = (type) => ({ content: { [type]: { schema: { type: 'object' }, encoding } } });
  const document = {
    paths: {
      '/form': { post: { requestBody: body('application/x-www-form-urlencoded') } },
      '/multipart': { post: { requestBody: body('multipart/form-data') } },
      '/mixed': { post: { requestBody: body('multipart/mixed') } },
      '/q': { get: { parameters: [{ name: 'a', in: 'query', allowEmptyValue: true }, { name: 'b', in: 'query', allowEmptyValue: false }, { name: 'c', in: 'header', allowEmptyValue: true }] } },
    },
  };
  const lowered = (dialect) => {
    const registry = new SchemaRegistry();
    registry.use(document, '0');
    return lowerOperations({ document, registry, specIndex: 0, basePath: '', dialect, warnings: [] });
  };
  const encodings = (dialect) => lowered(dialect).filter((op) => op.requestBody).map((op) => op.requestBody.contents[0].encoding.a);
  const whole = { contentType: 'text/plain', style: 'form', explode: false };
  t.same(encodings('openapi-3.0'), [whole, { contentType: 'text/plain' }, { contentType: 'text/plain' }], '3.0: form bodies only');
  t.same(encodings('openapi-3.1'), [whole, whole, { contentType: 'text/plain' }], '3.1: multipart/form-data too');
  t.same(lowered('openapi-3.0').find((op) => op.path === '/q').parameters.map((p) => p.allowEmptyValue), [true, undefined, undefined], 'query parameters only, and only when true');
  t.end();
});

t.test('path items by $ref', (t) => {
  const { ops } = lower({ paths: { '/a': { $ref: '#/x-items/A' } }, 'x-items': { A: { get: { responses: {} } } } });
  t.same(ops.map((o) => o.key), ['GET /a']);
  t.end();
});

t.test('joinPath mounts paths under a base', (t) => {
  t.equal(joinPath('', '/pets'), '/pets');
  t.equal(joinPath('/v1', '/pets'), '/v1/pets');
  t.equal(joinPath('/v1', 'pets'), '/v1/pets');
  t.equal(joinPath('/v1', '//pets/'), '/v1/pets', 'trailing and doubled slashes');
  t.equal(joinPath('', '/'), '/');
  t.equal(joinPath('', ''), '/');
  t.equal(joinPath('/v1', '/'), '/v1', 'the root of a mounted description is the base');
  t.end();
});

// compiler/emit/ajv-schemas.ts: every operation's schemas registered in one Ajv instance.
import t from 'tap';
import { registerSchemas } from '../../dist/compiler/emit/ajv-schemas.js';
import { growth } from '../helpers/timing.js';

const ref = (name) => ({ $ref: `#/definitions/${name}` });
const content = (mediaType, schema) => ({ mediaType, schema, examples: [] });
const op = (index, extra = {}) => ({
  index,
  key: `GET /op${index}`,
  tags: [],
  method: 'GET',
  path: `/op${index}`,
  specPath: `/op${index}`,
  spec: 0,
  parameters: [],
  responses: [],
  security: [],
  ...extra,
});

const definitions = {
  Pet: {
    type: 'object',
    required: ['id', 'name', 'password'],
    properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, password: { type: 'string', writeOnly: true }, owner: ref('Owner') },
  },
  Owner: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' }, badge: { type: 'string', format: 'x-badge' } } },
  OnlyId: { type: 'object', required: ['id'], properties: { id: { type: 'integer', readOnly: true } } },
};

const ir = {
  name: 'x',
  specs: [],
  definitions,
  routes: [],
  operations: [
    op(0, {
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer' }, style: 'simple', explode: false },
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', maximum: 10 }, style: 'form', explode: true },
        { name: 'x-tenant', in: 'header', required: true, schema: { type: 'string', format: 'tenant-id' }, style: 'simple', explode: false },
        { name: 'sid', in: 'cookie', required: false, schema: { type: 'string' }, style: 'form', explode: true },
      ],
      requestBody: {
        required: true,
        contents: [
          content('application/json', ref('Pet')),
          content('application/x-www-form-urlencoded', { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }),
          content('multipart/form-data', { type: 'object', properties: { file: { type: 'string', format: 'binary' } } }),
          content('application/xml', ref('Pet')),
          content('text/plain', { type: 'string' }),
          content('application/json'),
          content('application/merge-patch+json', { type: 'object', required: ['id'], properties: { id: { type: 'integer', readOnly: true } } }),
        ],
      },
      responses: [
        { status: '200', description: '', headers: [], contents: [content('application/json', ref('Pet')), content('application/xml', ref('Pet')), content('*/*', ref('OnlyId'))] },
        { status: '204', description: '', headers: [], contents: [] },
        { status: 'default', description: '', headers: [{ name: 'x-h', required: false, schema: { type: 'string', format: 'header-fmt' } }], contents: [content('application/problem+json', { type: 'object' })] },
      ],
    }),
    op(1),
    op(2, { parameters: [{ name: 'q', in: 'query', required: false, schema: { type: 'string' }, style: 'form', explode: true }] }),
  ],
};

const schemas = registerSchemas(ir);
const check = (id, value) => {
  const validate = schemas.ajv.getSchema(id);
  const ok = validate(value);
  return ok ? true : validate.errors.map((e) => `${e.instancePath} ${e.keyword}`);
};

t.test('validator ids per operation', (t) => {
  t.same(schemas.ids, [
    {
      params: 'p0',
      bodies: ['b0_0', 'b0_1', 'b0_2', undefined, undefined, undefined, 'b0_6'],
      responses: [['r0_0_0', undefined, 'r0_0_2'], [], ['r0_2_0']],
      bodyItems: Array(7).fill(undefined),
      responseItems: [[undefined, undefined, undefined], [], [undefined]],
    },
    { params: undefined, bodies: [], responses: [], bodyItems: [], responseItems: [] },
    { params: 'p2', bodies: [], responses: [], bodyItems: [], responseItems: [] },
  ], 'JSON, form and multipart bodies and JSON responses only; no params validator without parameters');
  t.same(Object.keys(schemas.exports).sort(), ['b0_0', 'b0_1', 'b0_2', 'b0_6', 'p0', 'p2', 'r0_0_0', 'r0_0_2', 'r0_2_0']);
  for (const [name, id] of Object.entries(schemas.exports)) t.equal(name, id);
  t.end();
});

t.test('parameters: one object per location, required locations', (t) => {
  const valid = { path: { id: 1 }, query: { limit: 5 }, header: { 'x-tenant': 'acme' }, cookie: {} };
  t.equal(check('p0', valid), true);
  t.same(check('p0', { ...valid, query: { limit: 11 } }), ['/query/limit maximum']);
  t.same(check('p0', { ...valid, path: { id: 'x' } }), ['/path/id type']);
  t.same(check('p0', { path: { id: 1 }, query: {}, header: {}, cookie: {} }), [`/header required`], 'missing required header');
  t.same(check('p0', { query: {} }), [' required', ' required'], 'path and header locations are required');
  t.equal(check('p0', { ...valid, header: { 'x-tenant': 'anything' } }), true, 'unknown format accepted');
  t.equal(check('p2', { path: {}, query: {}, header: {}, cookie: {} }), true, 'nothing required');
  t.end();
});

t.test('request schemas: readOnly properties are not required', (t) => {
  t.equal(check('b0_0', { name: 'Rex', password: 'pw' }), true, 'no id in a request');
  t.same(check('b0_0', { id: 1, name: 'Rex' }), [' required'], 'writeOnly stays required in requests');
  t.same(check('b0_0', { name: 'Rex', password: 'pw', owner: { email: 'not-an-email' } }), ['/owner/email format'], 'known formats are checked');
  t.equal(check('b0_0', { name: 'Rex', password: 'pw', owner: { email: 'a@b.co', badge: '%%%' } }), true, 'unknown formats are accepted');
  t.same(check('b0_1', {}), [' required'], 'form schema');
  t.same(check('b0_1', { n: 'x' }), ['/n type'], 'form field types');
  t.equal(check('b0_6', {}), true, 'inline schemas are relaxed too');
  t.end();
});

t.test('response schemas: writeOnly properties are not required', (t) => {
  t.equal(check('r0_0_0', { id: 1, name: 'Rex' }), true, 'no password in a response');
  t.same(check('r0_0_0', { name: 'Rex' }), [' required'], 'readOnly stays required in responses');
  t.same(check('r0_0_2', {}), [' required'], '*/* is JSON');
  t.equal(check('r0_2_0', {}), true, '+json is JSON');
  t.end();
});

t.test('definitions are registered under req and res', (t) => {
  t.ok(schemas.ajv.getSchema('req'));
  t.ok(schemas.ajv.getSchema('res'));
  const reqOnlyId = schemas.ajv.getSchema('req#/definitions/OnlyId');
  t.equal(reqOnlyId({}), true, 'req: readOnly id not required');
  const resOnlyId = schemas.ajv.getSchema('res#/definitions/OnlyId');
  t.equal(resOnlyId({}), false, 'res: id required');
  t.same(ir.definitions.Pet.required, ['id', 'name', 'password'], 'the IR is not modified');
  t.end();
});

t.test('description patterns run on the linear-time engine; one it cannot run is not enforced', async (t) => {
  const patterned = {
    ...ir,
    definitions: {},
    operations: [
      op(0, {
        parameters: [
          { name: 'slug', in: 'query', required: true, schema: { type: 'string', pattern: '^(\\w+\\s?)*$' }, style: 'form', explode: true },
          { name: 'pin', in: 'query', required: false, schema: { type: 'string', pattern: '^(?=.*\\d)[a-z\\d]{4}$' }, style: 'form', explode: true },
        ],
      }),
    ],
  };
  const schemas = registerSchemas(patterned);
  const validate = schemas.ajv.getSchema(schemas.ids[0].params);
  t.notOk(validate({ query: { slug: `${'a'.repeat(40)}!` } }), 'a value that backtracks exponentially in V8 is rejected');
  // on V8's engine each character more doubles the time: 4,000 characters would never be done
  const eightfold = growth((n) => validate({ query: { slug: `${'a'.repeat(n)}!` } }), 4_000, 32_000);
  t.ok(eightfold < 8 * 3, `in time linear in the value: 8 times the characters, ${eightfold.toFixed(1)} times the time`);
  t.ok(validate({ query: { slug: 'two words', pin: 'ab12' } }));
  // the IR never holds such a pattern (normalize-schema.test.js); a build made before that rule might
  t.ok(validate({ query: { slug: 'x', pin: 'abcd' } }), 'a lookahead pattern accepts every value rather than run on JavaScript’s backtracking engine');
});

t.test('a schema repeated across operations compiles once and is shared; the same schema in a request and a response is not', async (t) => {
  const error = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
  const repeated = {
    name: 'x',
    specs: [],
    definitions,
    routes: [],
    operations: [0, 1, 2].map((i) =>
      op(i, {
        requestBody: { required: true, contents: [content('application/json', ref('Pet'))] },
        responses: [{ status: '200', headers: [], contents: [content('application/json', ref('Pet'))] }, { status: 'default', headers: [], contents: [content('application/json', { ...error })] }],
      }),
    ),
  };
  const { ajv, ids, exports } = registerSchemas(repeated);
  t.same(new Set(ids.map((o) => o.responses[0][0])).size, 1, 'one validator for the three 200 answers');
  t.same(new Set(ids.map((o) => o.responses[1][0])).size, 1, 'one for the three inline error schemas');
  t.same(new Set(ids.map((o) => o.bodies[0])).size, 1, 'one for the three request bodies');
  t.not(ids[0].bodies[0], ids[0].responses[0][0], 'Pet as a request (readOnly id not required) and as a response are different validators');
  t.equal(Object.keys(exports).length, 3, 'three exported, not nine');
  const validate = ajv.getSchema(ids[2].responses[1][0]);
  t.equal(validate({ message: 'x' }), true);
  t.equal(validate({}), false);
});

// compiler/ir/build-ir.ts: several descriptions plus mock.yaml routes into one IR.
import t from 'tap';
import { buildIr } from '../../dist/compiler/ir/index.js';

const spec = (paths, extra = {}) => ({ openapi: '3.0.3', info: { title: 'T', version: '2.1' }, paths, ...extra });
const input = (source, document, basePath, dialect = 'openapi-3.0') => ({ source, basePath, description: { dialect, document } });
const get = (schemaName) => ({
  get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` } } } } } },
});

t.test('specs, mount paths and operation indexes', (t) => {
  const a = spec({ '/pets': { ...get('Pet'), post: { responses: {} } } }, { servers: [{ url: 'http://x/v1' }], components: { schemas: { Pet: { type: 'object' } } } });
  const b = spec({ '/pets': get('Pet') }, { info: { title: 'B' }, components: { schemas: { Pet: { type: 'string' } } } });
  const ir = buildIr('api', [input('a.yaml', a), input('b.yaml', b, 'two/', 'openapi-3.1')], []);
  t.equal(ir.name, 'api');
  t.same(ir.specs, [
    { source: 'a.yaml', title: 'T', version: '2.1', dialect: 'openapi-3.0', basePath: '/v1', apiKeys: [] },
    { source: 'b.yaml', title: 'B', version: '', dialect: 'openapi-3.1', basePath: '/two', apiKeys: [] },
  ], 'servers give the mount path unless base_path is set (normalised)');
  t.same(ir.operations.map((o) => [o.index, o.key, o.spec]), [[0, 'GET /v1/pets', 0], [1, 'POST /v1/pets', 0], [2, 'GET /two/pets', 1]]);
  t.same(Object.keys(ir.definitions), ['Pet', 'Pet_2'], 'same-named schemas of two descriptions stay apart');
  t.same(ir.operations[2].responses[0].contents[0].schema, { $ref: '#/definitions/Pet_2' });
  t.same(ir.routes, []);
  t.end();
});

t.test('every declared apiKey scheme, required or not, in scheme order', (t) => {
  const doc = spec({ '/a': { get: {} } }, {
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sid' },
        bearer: { type: 'http', scheme: 'bearer' },
        key: { $ref: '#/components/securitySchemes/shared' },
        shared: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        broken: { type: 'apiKey', in: 'body', name: 'k' },
        query: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
    },
  });
  t.same(buildIr('x', [input('a.yaml', doc)], []).specs[0].apiKeys, [
    { scheme: 'key', in: 'header', name: 'X-API-Key' },
    { scheme: 'query', in: 'query', name: 'api_key' },
    { scheme: 'session', in: 'cookie', name: 'sid' },
    { scheme: 'shared', in: 'header', name: 'X-API-Key' },
  ]);
  t.end();
});

t.test('an explicit empty base path overrides servers', (t) => {
  const ir = buildIr('x', [input('a.yaml', spec({ '/a': { get: {} } }, { servers: [{ url: '/v9' }] }), '')], []);
  t.equal(ir.specs[0].basePath, '');
  t.equal(ir.operations[0].path, '/a');
  t.end();
});

t.test('definitions are sorted by name', (t) => {
  const doc = spec({ '/z': get('Zebra'), '/a': get('Aardvark'), '/m': get('Mole') }, {
    components: { schemas: { Zebra: { type: 'object' }, Aardvark: { type: 'object' }, Mole: { type: 'object' } } },
  });
  t.same(Object.keys(buildIr('x', [input('a.yaml', doc)], []).definitions), ['Aardvark', 'Mole', 'Zebra']);
  t.end();
});

t.test('the same route in two descriptions is MOCK_ERR_ROUTE_COLLISION', (t) => {
  const a = spec({ '/pets/{id}': { get: {} } });
  const b = spec({ '/pets/{petId}': { get: {} } });
  t.throws(() => buildIr('x', [input('a.yaml', a), input('b.yaml', b)], []), {
    name: 'MockError',
    code: 'MOCK_ERR_ROUTE_COLLISION',
    message: 'GET /pets/{petId} is defined twice: in a.yaml (GET /pets/{id}) and in b.yaml (GET /pets/{petId}); mount one description under another base path (specs[].base_path)',
  }, 'parameter names do not make routes different');
  t.doesNotThrow(() => buildIr('x', [input('a.yaml', a), input('b.yaml', b, '/b')], []), 'different mounts');
  t.doesNotThrow(() => buildIr('x', [input('a.yaml', a), input('b.yaml', spec({ '/pets/{id}': { put: {} } }))], []), 'different methods');
  t.throws(
    () => buildIr('x', [input('a.yaml', spec({ '/a/': { get: {} }, '/a': { get: {} } }))], []),
    { code: 'MOCK_ERR_ROUTE_COLLISION', message: /^GET \/a is defined twice: in a\.yaml \(GET \/a\/\) and in a\.yaml \(GET \/a\)/ },
    'within one description, paths that mount to the same route',
  );
  t.end();
});

t.test('custom routes are lowered alongside', (t) => {
  const ir = buildIr('x', [input('a.yaml', spec({}))], [{ path: '/health', method: 'get', response: { body: 'ok' } }]);
  t.same(ir.routes.map((r) => [r.index, r.method, r.path, r.response.body]), [[0, 'GET', '/health', 'ok']]);
  t.throws(() => buildIr('x', [input('a.yaml', spec({}))], [{ path: 'health' }]), { code: 'MOCK_ERR_CONFIG_INVALID' });
  t.end();
});

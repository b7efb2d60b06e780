// runtime/terminal/openapi/engine.ts over a real build: dispatch, candidates, methods, validation modes, negotiation.
import t from 'tap';
import path from 'node:path';
import { build } from '../../dist/compiler/index.js';
import { Engine, loadBuild } from '../../dist/runtime/terminal/openapi/index.js';
import { Exchange } from '../../dist/runtime/chain/exchange/index.js';

const spec = `openapi: 3.0.3
info: {title: Engine, version: "1"}
servers: [{url: /v1}]
paths:
  /pets:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer, maximum: 50}}
        - {name: tags, in: query, schema: {type: array, items: {type: integer}}}
        - {name: x-tenant, in: header, schema: {type: string, enum: [acme]}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}
              example: [{id: 1, name: Tom}]
            application/xml:
              example: "<pets/>"
        "500":
          description: broken
          content:
            application/json:
              example: {error: boom}
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
          application/x-www-form-urlencoded:
            schema:
              allOf:
                - $ref: "#/components/schemas/Pet"
                - type: object
                  properties:
                    age: {type: integer}
      responses:
        "201": {description: created}
  /pets/mine:
    get:
      responses:
        "200": {description: mine, content: {text/plain: {example: mine}}}
  /pets/{petId}:
    parameters:
      - {name: petId, in: path, required: true, schema: {type: integer}}
    get:
      responses:
        "200": {description: one, content: {text/plain: {example: one}}}
        "4XX": {description: client error, content: {text/plain: {example: nope}}}
    delete:
      responses:
        "204": {description: gone}
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
`;

const routes = [
  { path: '/v1/pets', method: 'GET', match: { query: { special: '1' } }, response: { status: 299, body: 'query route' } },
  { path: '/v1/pets', method: 'GET', match: { headers: { 'x-vip': 'yes' } }, response: { status: 298, body: 'header route' } },
  { path: '/v1/pets', method: 'POST', match: { body: { name: 'Magic' } }, response: { status: 297, body: { magic: true } } },
  { path: '/v1/pets/{id}', method: '*', match: { headers: { 'x-any': '1' } }, response: { body: 'any {{request.path.id}}' } },
  { path: '/v1/files/**', response: { body: 'file {{request.path.**}}' } },
];

const cwd = t.testdir({ 'engine.yaml': spec });
const result = await build({ specs: [{ source: 'engine.yaml' }], routes, outDir: 'out', cwd });
const module = await loadBuild(result.dir);
const warnings = [];
const logger = { warn: (obj, msg) => warnings.push(msg), info() {}, error() {}, debug() {} };
const validation = (mode = 'enforce', overrides = {}) => ({ mode, aggregate_errors: true, validate_responses: false, status_code: 400, overrides });
const engine = new Engine(module, { validation: validation(), templateExpand: true, seed: 1, logger });

const call = (method, url, { query = '', headers = {}, body } = {}) => {
  const res = engine.handle(new Exchange({ method, path: url, rawQuery: query, headers, body: body === undefined ? undefined : Buffer.from(body) }));
  const header = Object.fromEntries(res.headers);
  let json;
  try {
    json = JSON.parse(res.body);
  } catch {}
  return { status: res.status, header, body: res.body, json };
};

t.test('operations, statics before parameters, mount path', (t) => {
  t.equal(call('GET', '/v1/pets').body, '[{"id":1,"name":"Tom"}]');
  t.equal(call('GET', '/v1/pets/mine').body, 'mine');
  t.equal(call('GET', '/v1/pets/7').body, 'one');
  t.equal(call('GET', '/v1/pets/7/').body, 'one', 'trailing slash');
  t.equal(call('GET', '/v1//pets').status, 404, 'an empty segment is a segment');
  t.equal(call('GET', '/v1/pets//').status, 404, 'only one trailing slash is ignored');
  const missing = call('GET', '/pets');
  t.equal(missing.status, 404);
  t.equal(missing.header['content-type'], 'application/problem+json');
  t.equal(missing.json.detail, 'no operation matches GET /pets (descriptions are mounted under /v1)');
  t.equal(call('GET', '/v1/nothing').json.detail, 'no operation matches GET /v1/nothing', 'no hint inside the mount');
  t.end();
});

t.test('custom routes by rank, then operations', (t) => {
  t.same([call('GET', '/v1/pets', { query: 'special=1', headers: { 'x-vip': 'yes' } }).status], [299], 'query condition beats header condition');
  t.equal(call('GET', '/v1/pets', { headers: { 'x-vip': 'yes' } }).status, 298);
  t.equal(call('GET', '/v1/pets', { headers: { 'x-vip': 'no' } }).status, 200, 'conditions fail: the operation');
  const magic = call('POST', '/v1/pets', { headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"Magic"}' });
  t.same([magic.status, magic.header['content-type'], magic.body], [297, 'application/json', '{"magic":true}']);
  t.equal(call('POST', '/v1/pets', { headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"Rex"}' }).status, 201);
  const any = call('DELETE', '/v1/pets/9', { headers: { 'x-any': '1' } });
  t.same([any.status, any.body], [200, 'any 9'], 'an any-method route names its own parameter');
  t.equal(call('DELETE', '/v1/pets/9').status, 204, 'without its condition the operation answers');
  t.equal(call('PATCH', '/v1/pets/9', { headers: { 'x-any': '1' } }).body, 'any 9', 'methods without operations reach any-method routes');
  t.equal(call('PATCH', '/v1/pets/9').status, 404, 'any-method routes whose conditions fail: 404');
  t.equal(call('GET', '/v1/files/a/b.txt').body, 'file a/b.txt', 'catch-all value');
  t.end();
});

t.test('HEAD, OPTIONS and 405', (t) => {
  t.equal(call('HEAD', '/v1/pets/mine').status, 200, 'HEAD uses GET');
  const options = call('OPTIONS', '/v1/pets/mine');
  t.same([options.status, options.header.allow, options.body], [204, 'GET, HEAD', '']);
  const put = call('PUT', '/v1/pets/mine');
  t.equal(put.status, 405);
  t.equal(put.header.allow, 'GET, HEAD');
  t.equal(put.json.detail, '/v1/pets/mine does not accept PUT (allowed: GET, HEAD)');
  t.equal(call('DELETE', '/v1/pets/mine').status, 405, 'a static match does not fall back to DELETE /pets/{petId}: the concrete path owns the URL');
  t.end();
});

t.test('percent-encoded segments are decoded', (t) => {
  t.equal(call('GET', '/v1/pets/%6Dine').body, 'mine');
  t.equal(call('GET', '/v1/files/a%2Fb').body, 'file a/b');
  t.equal(call('GET', '/v1/files/%E0%A4%A').body, 'file %E0%A4%A', 'bad escapes kept');
  t.end();
});

t.test('request validation: enforce, aggregate, coercion', (t) => {
  t.equal(call('GET', '/v1/pets', { query: 'limit=5&tags=1&tags=2' }).status, 200, 'coerced query values validate');
  const bad = call('GET', '/v1/pets', { query: 'limit=500&tags=x', headers: { 'x-tenant': 'other' } });
  t.equal(bad.status, 400);
  t.equal(bad.json.title, 'Request validation failed');
  t.same(bad.json.errors.map((e) => `${e.location}:${e.name}:${e.keyword}`).sort(), ['header:x-tenant:enum', 'query:limit:maximum', 'query:tags:type']);
  t.equal(bad.json.detail, bad.json.errors[0].message);
  const documented = call('GET', '/v1/pets/abc');
  t.same(
    [documented.status, documented.body, documented.header['x-mock-error-code'], documented.header['x-mock-error-detail']],
    [400, 'nope', 'MOCK_ERR_REQUEST_INVALID', "path parameter 'petId' must be integer"],
    'the operation documents 4XX: the refusal in its words, what was refused in headers',
  );
  t.equal(call('GET', '/v1/pets/abc', { headers: { prefer: 'error-body=problem' } }).json.errors[0].message, "path parameter 'petId' must be integer");
  const missingBody = call('POST', '/v1/pets', { headers: { 'content-type': 'application/json' } });
  t.same(missingBody.json.errors, [{ location: 'body', name: '', message: 'request body is required', keyword: 'required' }]);
  const malformed = call('POST', '/v1/pets', { headers: { 'content-type': 'application/json' }, body: '{"id":' });
  t.equal(malformed.json.errors[0].keyword, 'parse');
  const unsupported = call('POST', '/v1/pets', { headers: { 'content-type': 'text/csv' }, body: 'a,b' });
  t.equal(unsupported.status, 415);
  t.equal(unsupported.json.detail, 'POST /v1/pets accepts application/json, application/x-www-form-urlencoded, not text/csv');
  t.end();
});

t.test('form bodies are coerced by field kinds, including allOf members', (t) => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  t.equal(call('POST', '/v1/pets', { headers: form, body: 'id=1&name=Rex' }).status, 201);
  t.equal(call('POST', '/v1/pets', { headers: form, body: 'id=x&name=Rex' }).status, 400);
  // fieldKinds() only sees the first typed allOf member (value-kind.ts:10-13), so `age` stays the string "3"
  const res = call('POST', '/v1/pets', { headers: form, body: 'id=1&name=Rex&age=3' });
  t.equal(res.status, 201, 'an integer field from the second allOf member');
  t.end();
});

t.test('warn and off modes, overrides, setValidation', (t) => {
  t.teardown(() => engine.setValidation(validation()));
  engine.setValidation(validation('warn'));
  warnings.length = 0;
  t.equal(call('GET', '/v1/pets', { query: 'limit=500' }).status, 200);
  t.same(warnings, ['request validation failed (warn mode: request accepted)']);
  engine.setValidation(validation('off'));
  warnings.length = 0;
  t.equal(call('GET', '/v1/pets', { query: 'limit=500' }).status, 200);
  t.same(warnings, []);
  engine.setValidation(validation('enforce', { 'GET /v1/pets': 'off', '/v1/pets/*': 'warn' }));
  t.equal(call('GET', '/v1/pets', { query: 'limit=500' }).status, 200, 'exact key');
  t.equal(call('GET', '/v1/pets/abc').status, 200, 'glob');
  t.equal(call('POST', '/v1/pets', { headers: { 'content-type': 'application/json' }, body: '{}' }).status, 400, 'default');
  engine.setValidation({ ...validation(), aggregate_errors: false, status_code: 422 });
  const one = call('GET', '/v1/pets', { query: 'limit=500&tags=x' });
  t.same([one.status, one.json.errors.length], [422, 1]);
  t.end();
});

t.test('Prefer and negotiation', (t) => {
  t.same(call('GET', '/v1/pets', { headers: { prefer: 'code=500' } }).json, { error: 'boom' });
  t.equal(call('GET', '/v1/pets', { query: '__code=500' }).status, 500);
  const undocumented = call('GET', '/v1/pets', { headers: { prefer: 'code=404' } });
  t.same([undocumented.status, undocumented.json.title], [404, 'Response not documented']);
  t.match(undocumented.json.detail, /documents no 404 response \(documented: 200, 500\)/);
  const range = call('GET', '/v1/pets/1', { headers: { prefer: 'code=404' } });
  t.same([range.status, range.body], [404, 'nope'], '4XX answers 404');
  const xml = call('GET', '/v1/pets', { headers: { accept: 'application/xml' } });
  t.same([xml.header['content-type'], xml.body], ['application/xml', '<pets/>']);
  t.equal(call('GET', '/v1/pets', { headers: { accept: 'application/json;q=0.1, application/xml' } }).body, '<pets/>');
  const refused = call('GET', '/v1/pets', { headers: { accept: 'image/png' } });
  t.equal(refused.status, 406);
  t.equal(refused.json.detail, 'GET /v1/pets answers application/json, application/xml, none of which matches Accept: image/png');
  t.equal(call('DELETE', '/v1/pets/1').status, 204, 'no content: no negotiation');
  t.end();
});

t.test('build dir sanity', (t) => {
  t.equal(result.dir, path.join(cwd, 'out', 'engine'));
  t.equal(module.operations.length, 5);
  t.end();
});

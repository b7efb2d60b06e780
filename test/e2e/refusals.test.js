// Refusals in the description's own words (issue 21 item 5), through `mock serve` and real HTTP:
// a request refused by validation (400, or validation.status_code 422), security (401, 403), 406
// or 415 gets the response its operation documents for that status (the exact code, then its
// range, then default: the example, else generated data, its media type chosen by Accept), the
// status staying the refusal's; X-Mock-Error-Code and X-Mock-Error-Detail always say what was
// refused; mock's problem body only when nothing fits, when no operation matched (404, 405), with
// validation.error_body: problem, or for Prefer: error-body=problem.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { startMock, tmpdir } from '../helpers/cli.js';

const json = (example) => ({ 'application/json': { example } });
const n = [{ name: 'n', in: 'query', schema: { type: 'integer' } }];
const ok = { 200: { description: 'ok', content: json({ ok: true }) } };
const Problemish = {
  type: 'object',
  required: ['message', 'kind'],
  additionalProperties: false,
  properties: { message: { type: 'string', minLength: 1 }, kind: { type: 'string', enum: ['generated'] } },
};
const Rfc9457 = {
  type: 'object',
  required: ['title', 'status'],
  properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer', minimum: 400, maximum: 599 }, detail: { type: 'string' } },
};
const SECRET = 'the-refusals-test-secret-0123456789abcdef';
const description = {
  openapi: '3.0.3',
  info: { title: 'refusals', version: '1' },
  components: { securitySchemes: { jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
  paths: {
    '/exact': {
      get: {
        parameters: n,
        responses: {
          ...ok,
          400: {
            description: 'bad request',
            headers: { 'X-Request-Id': { schema: { type: 'string' }, example: 'req-1' } },
            content: { ...json({ error: { kind: 'bad-request' } }), 'text/plain': { example: 'bad request, as text' } },
          },
          '4XX': { description: 'any client error', content: json({ from: '4XX' }) },
          default: { description: 'anything', content: json({ from: 'default' }) },
        },
      },
    },
    '/range': { get: { parameters: n, responses: { ...ok, '4XX': { description: 'client error', content: json({ from: '4XX' }) }, default: { description: 'anything', content: json({ from: 'default' }) } } } },
    '/default': { get: { parameters: n, responses: { ...ok, default: { description: 'error', content: { 'application/json': { schema: Problemish } } } } } },
    // named examples on both sides: a refusal honours a name its own response documents (Prism's manually-select-examples AC-4)
    '/named': {
      get: {
        parameters: n,
        responses: {
          200: { description: 'ok', content: { 'application/json': { examples: { one: { value: { ok: 1 } }, two: { value: { ok: 2 } } } } } },
          400: { description: 'bad', content: { 'application/json': { examples: { first: { value: { error: 'first' } }, invalid_n: { value: { error: 'n is not a number' } } } } } },
        },
      },
    },
    '/none': { get: { parameters: n, responses: { ...ok, 404: { description: 'missing', content: json({ missing: true }) } } } },
    '/empty': { get: { parameters: n, responses: { ...ok, 400: { description: 'bad request, no body' } } } },
    // RFC 9457 problem details documented without an example: mock's problem body fits, strict or not
    '/problem': { get: { parameters: n, responses: { ...ok, 400: { description: 'problem', content: { 'application/problem+json': { schema: Rfc9457 } } } } } },
    '/strict-problem': {
      get: { parameters: n, responses: { ...ok, 400: { description: 'problem', content: { 'application/problem+json': { schema: { ...Rfc9457, additionalProperties: false } } } } } },
    },
    '/things': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } },
        responses: {
          201: { description: 'made', content: json({ made: true }) },
          400: { description: 'bad', content: json({ status: 400 }) },
          415: { description: 'unsupported', content: json({ unsupported: true }) },
          422: { description: 'unprocessable', content: json({ status: 422 }) },
        },
      },
    },
    '/xml-only': { get: { responses: { 200: { description: 'ok', content: { 'application/xml': { example: '<ok/>' } } }, 406: { description: 'not acceptable', content: json({ acceptable: ['application/xml'] }) } } } },
    '/secure': {
      get: {
        security: [{ jwt: ['admin'] }],
        responses: { ...ok, 401: { description: 'who are you', content: json({ auth: 'missing' }) }, 403: { description: 'not allowed', content: json({ auth: 'scope' }) } },
      },
    },
  },
};

const config = `auth:
  schemes:
    jwt: { jwt: { secret: ${SECRET} } }
`;

async function serve(t, yaml = '', extra = []) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'api.json'), JSON.stringify(description));
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [api.json]\n${config}${yaml}`);
  const server = await startMock(['--out', path.join(dir, 'out'), ...extra], { cwd: dir, env: { MOCK_ADMIN_ENABLED: 'true', MOCK_ADMIN_PORT: '0' } });
  t.teardown(() => server.stop());
  const get = (target, headers = {}) => fetch(server.url + target, { headers });
  return { server, get };
}

/** The answer's status, content type, the two refusal headers and its body (parsed when JSON). */
async function read(res) {
  const text = await res.text();
  const type = res.headers.get('content-type');
  return {
    status: res.status,
    type,
    code: res.headers.get('x-mock-error-code'),
    detail: res.headers.get('x-mock-error-detail'),
    applied: res.headers.get('preference-applied'),
    body: /json/.test(type ?? '') ? JSON.parse(text) : text,
  };
}

const INVALID = 'query parameter \'n\' must be integer';

const { server, get } = await serve(t);

t.test('validation refusals take the documented response: the exact code, then 4XX, then default (generated when it has no example)', async (t) => {
  t.match(await read(await get('/exact?n=x')), { status: 400, type: 'application/json', code: 'MOCK_ERR_REQUEST_INVALID', detail: INVALID, body: { error: { kind: 'bad-request' } } }, 'exact 400: its example');
  t.match(await read(await get('/range?n=x')), { status: 400, code: 'MOCK_ERR_REQUEST_INVALID', detail: INVALID, body: { from: '4XX' } }, 'no 400: the 4XX range before default');
  const generated = await read(await get('/default?n=x'));
  t.match(generated, { status: 400, type: 'application/json', code: 'MOCK_ERR_REQUEST_INVALID', detail: INVALID }, 'default only: status stays 400');
  t.same(Object.keys(generated.body).sort(), ['kind', 'message'], 'data generated from the schema of default');
  t.equal(generated.body.kind, 'generated');
  t.type(generated.body.message, 'string');
  t.match(await read(await get('/none?n=x')), {
    status: 400,
    type: 'application/problem+json',
    code: 'MOCK_ERR_REQUEST_INVALID',
    detail: INVALID,
    body: { code: 'MOCK_ERR_REQUEST_INVALID', detail: INVALID, errors: [{ location: 'query', name: 'n' }] },
  }, 'nothing documented for 400 (a 404 does not count): the problem body');
  const empty = await get('/empty?n=x');
  t.equal(empty.status, 400);
  t.equal(empty.headers.get('content-type'), null, 'a documented 400 without content: no body, no content type');
  t.equal(await empty.text(), '');
  t.equal(empty.headers.get('x-mock-error-code'), 'MOCK_ERR_REQUEST_INVALID');
  t.equal((await get('/exact?n=1')).status, 200, 'a valid request is answered as before');
});

t.test('a refusal answers the example the request names (__example, Prefer: example=) when its response documents one by that name', async (t) => {
  t.match(await read(await get('/named?n=x&__example=invalid_n')), { status: 400, code: 'MOCK_ERR_REQUEST_INVALID', detail: INVALID, body: { error: 'n is not a number' } }, '__example');
  t.match(await read(await get('/named?n=x', { prefer: 'example=invalid_n' })), { status: 400, code: 'MOCK_ERR_REQUEST_INVALID', body: { error: 'n is not a number' } }, 'Prefer: example=');
  t.match(await read(await get('/named?n=x&__example=two')), { status: 400, code: 'MOCK_ERR_REQUEST_INVALID', body: { error: 'first' } }, "a name only the success response has: the refusal's first example, not a 500 or an example-not-documented problem");
  t.match(await read(await get('/named?n=x')), { status: 400, body: { error: 'first' } }, 'no name: the first example');
  t.same(await (await get('/named?n=2&__example=two')).json(), { ok: 2 }, 'a valid request still gets the named success example');
});

t.test('documented RFC 9457 problem details without an example: mock\'s problem body, when it fits the schema', async (t) => {
  t.match(await read(await get('/problem?n=x')), {
    status: 400,
    type: 'application/problem+json',
    code: 'MOCK_ERR_REQUEST_INVALID',
    body: { title: 'Request validation failed', status: 400, detail: INVALID, errors: [{ location: 'query', name: 'n' }] },
  }, 'it says what was wrong, in the documented shape');
  const strict = await read(await get('/strict-problem?n=x'));
  t.equal(strict.status, 400);
  t.notOk('errors' in strict.body, 'a schema mock\'s body does not fit (no additional properties): generated data, as for any other');
  t.type(strict.body.title, 'string');
});

t.test('the documented response keeps its headers, and Accept picks its media type', async (t) => {
  const res = await get('/exact?n=x');
  t.equal(res.headers.get('x-request-id'), 'req-1', 'the documented response header');
  t.match(await read(await get('/exact?n=x', { accept: 'text/plain' })), { status: 400, type: 'text/plain', code: 'MOCK_ERR_REQUEST_INVALID', body: 'bad request, as text' });
  t.match(await read(await get('/exact?n=x', { accept: 'text/html' })), { status: 400, type: 'application/problem+json', code: 'MOCK_ERR_REQUEST_INVALID', body: { code: 'MOCK_ERR_REQUEST_INVALID' } }, 'nothing documented is acceptable: the problem body');
});

t.test('415 and 406 refusals in the description words', async (t) => {
  const post = (body, type) => fetch(`${server.url}/things`, { method: 'POST', headers: { 'content-type': type }, body });
  t.match(await read(await post('name=x', 'text/plain')), {
    status: 415,
    type: 'application/json',
    code: 'MOCK_ERR_UNSUPPORTED_MEDIA_TYPE',
    detail: 'POST /things accepts application/json, not text/plain',
    body: { unsupported: true },
  });
  t.match(await read(await post('{}', 'application/json')), { status: 400, code: 'MOCK_ERR_REQUEST_INVALID', detail: "body must have required property 'name'", body: { status: 400 } });
  t.match(await read(await get('/xml-only', { accept: 'application/json' })), {
    status: 406,
    type: 'application/json',
    code: 'MOCK_ERR_NOT_ACCEPTABLE',
    detail: 'GET /xml-only answers application/xml, none of which matches Accept: application/json',
    body: { acceptable: ['application/xml'] },
  });
  const long = await get('/xml-only', { accept: `application/json, ${'x'.repeat(600)}/y` });
  const detail = long.headers.get('x-mock-error-detail');
  t.equal(detail.length, 512, 'the detail header is cut');
  t.match(detail, /^GET \/xml-only answers .*\.\.\.$/);
});

t.test('security refusals: the documented 401 and 403 keep their challenges', async (t) => {
  const missing = await get('/secure');
  t.equal(missing.headers.get('www-authenticate'), 'Bearer realm="jwt"');
  t.match(await read(missing), { status: 401, type: 'application/json', code: 'MOCK_ERR_UNAUTHORIZED', detail: /^GET \/secure needs/, body: { auth: 'missing' } });
  const user = await new SignJWT({ scope: 'read' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
  const denied = await get('/secure', { authorization: `Bearer ${user}` });
  t.equal(denied.headers.get('www-authenticate'), 'Bearer realm="jwt", error="insufficient_scope", scope="admin"');
  t.match(await read(denied), { status: 403, code: 'MOCK_ERR_INSUFFICIENT_SCOPE', body: { auth: 'scope' } });
  const problem = await get('/secure', { prefer: 'error-body=problem' });
  t.equal(problem.headers.get('www-authenticate'), 'Bearer realm="jwt"', 'the challenge stays with the own body too');
  t.match(await read(problem), { status: 401, code: 'MOCK_ERR_UNAUTHORIZED', applied: 'error-body=problem', body: { error: 'Unauthorized', code: 'MOCK_ERR_UNAUTHORIZED' } });
});

t.test('404 and 405 have no operation: the problem body, marked like every refusal', async (t) => {
  t.match(await read(await get('/nowhere')), { status: 404, type: 'application/problem+json', code: 'MOCK_ERR_ROUTE_NOT_FOUND', detail: 'no operation matches GET /nowhere', body: { code: 'MOCK_ERR_ROUTE_NOT_FOUND' } });
  const res = await fetch(`${server.url}/none`, { method: 'DELETE' });
  t.equal(res.headers.get('allow'), 'GET, HEAD');
  t.match(await read(res), { status: 405, type: 'application/problem+json', code: 'MOCK_ERR_METHOD_NOT_ALLOWED', body: { code: 'MOCK_ERR_METHOD_NOT_ALLOWED' } });
});

t.test('Prefer: error-body=problem gets the problem body, and says so', async (t) => {
  t.match(await read(await get('/exact?n=x', { prefer: 'error-body=problem' })), {
    status: 400,
    type: 'application/problem+json',
    code: 'MOCK_ERR_REQUEST_INVALID',
    applied: 'error-body=problem',
    body: { code: 'MOCK_ERR_REQUEST_INVALID', detail: INVALID, errors: [{ location: 'query', name: 'n' }] },
  });
  t.match(await read(await get('/exact?n=x', { prefer: 'respond-async, error-body="problem"' })), { type: 'application/problem+json', applied: 'error-body=problem' }, 'among other preferences, quoted');
  t.match(await read(await get('/exact?n=x')), { applied: null }, 'no preference, none applied');
});

t.test('validation.status_code 422: the documented 422', async (t) => {
  const strict = await serve(t, 'validation: { status_code: 422 }\n');
  const res = await fetch(`${strict.server.url}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.match(await read(res), { status: 422, type: 'application/json', code: 'MOCK_ERR_REQUEST_INVALID', body: { status: 422 } });
  t.match(await read(await strict.get('/range?n=x')), { status: 422, body: { from: '4XX' } }, 'a 4XX range documents a 422 too');
});

t.test('validation.error_body: problem answers the problem body; Prefer: error-body=documented asks for the documented one; live over the admin API', async (t) => {
  const plain = await serve(t, 'validation: { error_body: problem }\n');
  t.match(await read(await plain.get('/exact?n=x')), { status: 400, type: 'application/problem+json', code: 'MOCK_ERR_REQUEST_INVALID', detail: INVALID, applied: null, body: { code: 'MOCK_ERR_REQUEST_INVALID' } });
  t.match(await read(await plain.get('/secure')), { status: 401, code: 'MOCK_ERR_UNAUTHORIZED', body: { error: 'Unauthorized' } });
  t.match(await read(await plain.get('/exact?n=x', { prefer: 'error-body=documented' })), { status: 400, type: 'application/json', applied: 'error-body=documented', body: { error: { kind: 'bad-request' } } });

  const set = (body) => fetch(`${plain.server.adminUrl}/__mock/validation`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const changed = await set({ error_body: 'documented' });
  t.equal(changed.status, 200);
  t.equal((await changed.json()).data.validation.error_body, 'documented');
  t.match(await read(await plain.get('/exact?n=x')), { status: 400, type: 'application/json', body: { error: { kind: 'bad-request' } } }, 'applies at once');
  t.equal((await set({ error_body: 'words' })).status, 400, 'only documented or problem');
});

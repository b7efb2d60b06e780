// The mocked API's security schemes through `mock serve`: 401 with WWW-Authenticate and the spec's
// {error, message} body when no requirement is satisfied, requirement objects OR'ed and their
// schemes AND'ed, optional and turned-off security, warn mode, --no-security, Swagger 2.0.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, startMock, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const ok = { 200: { description: 'ok', content: { 'application/json': { example: { ok: true } } } } };
const description = {
  openapi: '3.0.3',
  info: { title: 'secured', version: '1' },
  security: [{ key: [] }],
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'sid' },
      basic: { type: 'http', scheme: 'basic' },
      bearer: { type: 'http', scheme: 'bearer' },
      jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: {} } } },
      tls: { type: 'mutualTLS' },
    },
  },
  paths: {
    '/default': { get: { responses: ok } },
    '/open': { get: { security: [], responses: ok } },
    '/optional': { get: { security: [{}, { basic: [] }], responses: ok } },
    '/basic': { get: { security: [{ basic: [] }], responses: ok } },
    '/bearer': { get: { security: [{ bearer: [] }], responses: ok } },
    '/jwt': { get: { security: [{ jwt: [] }], responses: ok } },
    '/oauth': { get: { security: [{ oauth: ['read'] }], responses: ok } },
    '/query': { get: { security: [{ queryKey: [] }], responses: ok } },
    '/cookie': { get: { security: [{ cookieKey: [] }], responses: ok } },
    '/either': { get: { security: [{ basic: [] }, { queryKey: [] }], responses: ok } },
    '/both': { get: { security: [{ key: [], bearer: [] }], responses: ok } },
    '/tls': { get: { security: [{ tls: [] }], responses: ok } },
  },
};

const b64 = (value) => Buffer.from(value).toString('base64');
const b64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'me' })}.c2ln`;

// Each description is written and built once: its servers (flags are run-time settings) serve that build.
const builds = new Map();
function built(doc) {
  if (!builds.has(doc)) {
    const spec = path.join(tmpdir(), 'api.json');
    writeFileSync(spec, JSON.stringify(doc));
    builds.set(doc, buildOnce(spec).then((out) => ({ spec, out })));
  }
  return builds.get(doc);
}

async function serve(t, extra = [], doc = description, options = {}) {
  const { spec, out } = await built(doc);
  const server = await startMock(['--spec', spec, '--out', out, ...extra], options);
  t.teardown(() => server.stop());
  const get = (target, headers = {}) => fetch(server.url + target, { headers });
  get.server = server;
  return get;
}

t.test('enforce: each scheme, OR and AND, optional and off', async (t) => {
  const get = await serve(t);
  const refused = await get('/default');
  t.equal(refused.status, 401, 'the document-level requirement applies');
  t.equal(refused.headers.get('content-type'), 'application/json');
  t.equal(refused.headers.get('www-authenticate'), 'ApiKey realm="key", in="header", name="X-API-Key"');
  const body = await refused.json();
  t.same(Object.keys(body).sort(), ['code', 'error', 'message']);
  t.equal(body.error, 'Unauthorized');
  t.equal(body.code, 'MOCK_ERR_UNAUTHORIZED');
  t.match(body.message, /GET \/default needs an API key in header X-API-Key \(key\)/);
  t.equal((await get('/default', { 'x-api-key': 'anything' })).status, 200, 'apiKey: presence');

  t.equal((await get('/open')).status, 200, 'security: [] on the operation turns it off');
  t.equal((await get('/optional')).status, 200, 'an empty requirement makes it optional');

  t.equal((await get('/basic', { authorization: `Basic ${b64('user:pass')}` })).status, 200);
  for (const bad of [`Basic ${b64('no-colon')}`, 'Basic !!!', `Bearer ${jwt}`, 'Basic']) {
    const r = await get('/basic', { authorization: bad });
    t.equal(r.status, 401, `basic refuses ${bad}`);
    t.equal(r.headers.get('www-authenticate'), 'Basic realm="basic"');
  }
  t.equal((await get('/bearer', { authorization: 'Bearer opaque-token' })).status, 200, 'bearer: any token');
  t.equal((await get('/bearer', { authorization: 'Bearer ' })).status, 401, 'bearer: not an empty one');
  t.equal((await get('/jwt', { authorization: `Bearer ${jwt}` })).status, 200, 'bearerFormat JWT: a well-formed JWT');
  t.equal((await get('/jwt', { authorization: 'Bearer opaque-token' })).status, 401, 'bearerFormat JWT: not an opaque token');
  t.equal((await get('/oauth', { authorization: 'Bearer t' })).status, 200, 'oauth2: a bearer token');
  const oauth = await get('/oauth');
  t.equal(oauth.headers.get('www-authenticate'), 'Bearer realm="oauth"');
  t.equal((await get('/query?api_key=k')).status, 200, 'apiKey in the query');
  t.equal((await get('/query', { 'x-api-key': 'k' })).status, 401);
  t.equal((await get('/cookie', { cookie: 'a=1; sid=abc' })).status, 200, 'apiKey in a cookie');
  t.equal((await get('/cookie', { cookie: 'a=1' })).status, 401);

  t.equal((await get('/either', { authorization: `Basic ${b64('u:p')}` })).status, 200, 'requirements are OR-ed');
  t.equal((await get('/either?api_key=k')).status, 200);
  const neither = await get('/either');
  t.equal(neither.status, 401);
  t.equal(neither.headers.get('www-authenticate'), 'Basic realm="basic", ApiKey realm="queryKey", in="query", name="api_key"', 'a challenge per scheme');
  t.match((await neither.json()).message, / or an API key in query parameter api_key/);

  t.equal((await get('/both', { 'x-api-key': 'k' })).status, 401, 'schemes of one requirement are AND-ed');
  t.equal((await get('/both', { 'x-api-key': 'k', authorization: 'Bearer t' })).status, 200);
  t.equal((await get('/tls')).status, 200, 'mutualTLS is not checked');
});

t.test('warn mode logs and answers; --no-security accepts anything', async (t) => {
  // side by side, on the build of the first test; at info level each answer is a log line, written
  // after the stages ran: the sentinel after which a warning that was not written never will be
  const info = { env: { MOCK_LOG_LEVEL: 'info' } };
  const [warn, off, noValidation] = await Promise.all([serve(t, ['--validation', 'warn'], description, info), serve(t, ['--no-security'], description, info), serve(t, ['--validation', 'off'], description, info)]);
  const WARNING = "WARN: request credentials do not satisfy the operation's security (warn mode: request accepted)";
  const count = (text, line) => text.split('\n').filter((l) => l.includes(line)).length;
  /** The log once it holds `n` lines with `line` (the answers' lines come after what their stages logged). */
  const logWith = (get, line, n = 1) => until(() => (count(get.server.stdout, line) >= n ? get.server.stdout : undefined), 10_000, `${n} × ${line}`);

  t.equal((await warn('/basic', { authorization: `Basic ${b64('user:pass')}` })).status, 200, 'warn: credentials that satisfy it');
  t.equal((await warn('/basic')).status, 200, 'warn: answered without them');
  const warned = await logWith(warn, 'GET /basic 200', 2);
  t.equal(count(warned, WARNING), 1, 'warn: one warning, for the request without credentials only');
  const [, detail] = warned.split(WARNING);
  t.match(detail, /^\n\s+operation: "GET \/basic"\n\s+expected: "HTTP Basic credentials in Authorization: Basic base64\(user:password\) \(basic\)"\n/, 'naming the operation and the credentials it expects');

  t.equal((await off('/basic')).status, 200, '--no-security: answered');
  t.equal((await off('/jwt', { authorization: 'Bearer x' })).status, 200);
  t.equal(count(await logWith(off, 'GET /jwt 200'), WARNING), 0, '--no-security: no warning either');
  t.equal((await noValidation('/default')).status, 200, 'validation off: security is not checked either');
  t.equal(count(await logWith(noValidation, 'GET /default 200'), WARNING), 0, 'validation off: no warning');
});

t.test('Swagger 2.0 securityDefinitions are honoured the same way', async (t) => {
  const swagger = {
    swagger: '2.0',
    info: { title: 'v2', version: '1' },
    securityDefinitions: { basic: { type: 'basic' }, key: { type: 'apiKey', in: 'header', name: 'api_key' } },
    security: [{ key: [] }],
    paths: {
      '/a': { get: { responses: { 200: { description: 'ok', schema: { type: 'object' } } } } },
      '/b': { get: { security: [{ basic: [] }], responses: { 200: { description: 'ok', schema: { type: 'object' } } } } },
    },
  };
  const get = await serve(t, [], swagger);
  t.equal((await get('/a')).status, 401);
  t.equal((await get('/a', { api_key: 'k' })).status, 200);
  t.equal((await get('/b')).headers.get('www-authenticate'), 'Basic realm="basic"');
  t.equal((await get('/b', { authorization: `Basic ${b64('u:p')}` })).status, 200);
});

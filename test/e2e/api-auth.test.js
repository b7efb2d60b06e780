// mock.yaml `auth` through `mock serve`: pinned API keys, basic users and bearer tokens, JWTs
// verified by an HS256 secret or a JWKS file (issuer, audience, expiry), and the mock OAuth 2.0
// token endpoint whose tokens the same server accepts. Plus the unhappy paths of the section.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const ok = { 200: { description: 'ok', content: { 'application/json': { example: { ok: true } } } } };
const description = {
  openapi: '3.0.3',
  info: { title: 'pinned', version: '1' },
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      basic: { type: 'http', scheme: 'basic' },
      bearer: { type: 'http', scheme: 'bearer' },
      hmac: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      rsa: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { read: 'read' } } } },
      loose: { type: 'http', scheme: 'bearer' },
    },
  },
  paths: {
    '/key': { get: { security: [{ key: [] }], responses: ok } },
    '/query': { get: { security: [{ queryKey: [] }], responses: ok } },
    '/basic': { get: { security: [{ basic: [] }], responses: ok } },
    '/bearer': { get: { security: [{ bearer: [] }], responses: ok } },
    '/hmac': { get: { security: [{ hmac: [] }], responses: ok } },
    '/rsa': { get: { security: [{ rsa: [] }], responses: ok } },
    '/oauth': { get: { security: [{ oauth: ['read'] }], responses: ok } },
    '/oauth-write': { get: { security: [{ oauth: ['write'] }], responses: ok } },
    '/oauth-either': { get: { security: [{ oauth: ['admin'] }, { key: [] }], responses: ok } },
    '/hmac-admin': { get: { security: [{ hmac: ['admin'] }], responses: ok } },
    '/loose': { get: { security: [{ loose: [] }], responses: ok } },
  },
};

const SECRET = 'a-test-secret-of-the-mocked-api-0123456789';
const { publicKey, privateKey } = await generateKeyPair('RS256');
const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] };
const now = () => Math.floor(Date.now() / 1000);

function sign(claims, key = new TextEncoder().encode(SECRET), header = { alg: 'HS256' }) {
  return new SignJWT(claims).setProtectedHeader(header).sign(key);
}

const config = `auth:
  schemes:
    key: { api_keys: [key-one, key-two] }
    queryKey: { api_keys: [q-key] }
    basic: { users: [{ username: alice, password: "s3cret:with:colons" }] }
    bearer: { tokens: [opaque-token] }
    hmac: { jwt: { secret: ${SECRET}, issuer: https://id.example, audience: mocked-api, require_expiry: true } }
    rsa: { jwt: { jwks_file: keys/jwks.json, clock_tolerance_seconds: 5 } }
  token_endpoint:
    clients:
      - { client_id: app, client_secret: app-secret, scopes: [read, write] }
      - { client_id: "id with space", client_secret: "p@ss word" }
    expires_in: 60
`;

function project(yaml = config) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'api.json'), JSON.stringify(description));
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [api.json]\n${yaml}`);
  return dir;
}

// The servers of this file serve one project with a configuration file each (the auth section is a
// run-time setting), so they share one build: the first server makes it, the others find it fresh.
const shared = project();
mkdirSync(path.join(shared, 'keys'));
writeFileSync(path.join(shared, 'keys', 'jwks.json'), JSON.stringify(jwks));
const out = path.join(shared, 'out');
let configs = 0;
/** Another configuration file of the shared project, for -c. */
function configFile(yaml) {
  const file = path.join(shared, `mock-${++configs}.yaml`);
  writeFileSync(file, `specs: [api.json]\n${yaml}`);
  return file;
}

async function serve(t, yaml = config, extra = []) {
  // `config` is the project's mock.yaml, found in the folder as a user's is; the others are given with -c
  const configArgs = yaml === config ? [] : ['-c', configFile(yaml)];
  const server = await startMock([...configArgs, '--out', out, '--admin-embed', ...extra], { cwd: shared });
  t.teardown(() => server.stop());
  const get = (target, headers = {}) => fetch(server.url + target, { headers });
  return { server, get };
}

const form = (fields) => new URLSearchParams(fields).toString();
const basic = (user, password) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const { server, get } = await serve(t);

t.test('pinned API keys and basic users: only they pass, with a message saying why', async (t) => {
  t.equal((await get('/key', { 'x-api-key': 'key-two' })).status, 200);
  const wrong = await get('/key', { 'x-api-key': 'key-three' });
  t.equal(wrong.status, 401);
  t.match((await wrong.json()).message, /the API key is not one of the accepted keys \(key\)/);
  t.equal((await get('/query?api_key=q-key')).status, 200);
  t.equal((await get('/query?api_key=nope')).status, 401);
  t.equal((await get('/basic', { authorization: basic('alice', 's3cret:with:colons') })).status, 200, 'the password may hold colons');
  const badPassword = await get('/basic', { authorization: basic('alice', 'guess') });
  t.equal(badPassword.status, 401);
  t.equal(badPassword.headers.get('www-authenticate'), 'Basic realm="basic"');
  t.match((await badPassword.json()).message, /unknown user name or wrong password/);
});

t.test('bearer tokens: pinned opaque tokens; unpinned schemes keep checking the form only', async (t) => {
  t.equal((await get('/bearer', { authorization: 'Bearer opaque-token' })).status, 200);
  const other = await get('/bearer', { authorization: 'Bearer other-token' });
  t.equal(other.status, 401);
  t.equal(other.headers.get('www-authenticate'), 'Bearer realm="bearer", error="invalid_token", error_description="the token is not one of the accepted tokens"', 'RFC 6750: a refused token is invalid_token');
  const missing = await get('/bearer');
  t.equal(missing.headers.get('www-authenticate'), 'Bearer realm="bearer"', 'no error code when no token was sent');
  t.equal((await get('/loose', { authorization: 'Bearer anything' })).status, 200, 'a scheme without pins accepts any token');
});

t.test('JWT with an HS256 secret: signature, issuer, audience and expiry are checked', async (t) => {
  const good = await sign({ iss: 'https://id.example', aud: 'mocked-api', exp: now() + 60 });
  t.equal((await get('/hmac', { authorization: `Bearer ${good}` })).status, 200);
  const cases = [
    ['another secret', await sign({ iss: 'https://id.example', aud: 'mocked-api', exp: now() + 60 }, new TextEncoder().encode('x'.repeat(40))), /signature verification failed/],
    ['another issuer', await sign({ iss: 'https://evil.example', aud: 'mocked-api', exp: now() + 60 }), /"iss"/],
    ['another audience', await sign({ iss: 'https://id.example', aud: 'other', exp: now() + 60 }), /"aud"/],
    ['expired', await sign({ iss: 'https://id.example', aud: 'mocked-api', exp: now() - 60 }), /"exp"/],
    ['no exp (require_expiry)', await sign({ iss: 'https://id.example', aud: 'mocked-api' }), /"exp"/],
    ['alg none', `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: 'https://id.example', aud: 'mocked-api', exp: now() + 60 })).toString('base64url')}.`, /token refused/],
  ];
  for (const [what, token, reason] of cases) {
    const res = await get('/hmac', { authorization: `Bearer ${token}` });
    t.equal(res.status, 401, `${what}: refused`);
    t.match((await res.json()).message, reason, `${what}: the message says why`);
    t.match(res.headers.get('www-authenticate'), /^Bearer realm="hmac", error="invalid_token"/);
  }
});

t.test('JWT with a JWKS file: RS256 tokens of its keys pass, others and HMAC look-alikes do not', async (t) => {
  const good = await sign({ sub: 'svc', exp: now() + 60 }, privateKey, { alg: 'RS256', kid: 'k1' });
  t.equal((await get('/rsa', { authorization: `Bearer ${good}` })).status, 200);
  const other = await generateKeyPair('RS256');
  const foreign = await sign({ sub: 'svc' }, other.privateKey, { alg: 'RS256', kid: 'k1' });
  t.equal((await get('/rsa', { authorization: `Bearer ${foreign}` })).status, 401, 'a key not in the set');
  const hmac = await sign({ sub: 'svc' }, new TextEncoder().encode(JSON.stringify(jwks.keys[0])), { alg: 'HS256', kid: 'k1' });
  t.equal((await get('/rsa', { authorization: `Bearer ${hmac}` })).status, 401, 'no algorithm confusion with the public key');
  const late = await sign({ sub: 'svc', exp: now() - 3 }, privateKey, { alg: 'RS256', kid: 'k1' });
  t.equal((await get('/rsa', { authorization: `Bearer ${late}` })).status, 200, 'clock_tolerance_seconds');
});

t.test('the token endpoint: client credentials grant, tokens accepted by the same server', async (t) => {
  const url = `${server.url}/oauth/token`;
  t.equal((await get('/oauth', { authorization: 'Bearer made-up' })).status, 401, 'an oauth2 scheme accepts only issued tokens once the endpoint exists');

  const issued = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ grant_type: 'client_credentials', client_id: 'app', client_secret: 'app-secret', scope: 'read' }) });
  t.equal(issued.status, 200);
  t.equal(issued.headers.get('cache-control'), 'no-store');
  const token = await issued.json();
  t.match(token, { token_type: 'Bearer', expires_in: 60, scope: 'read' });
  const claims = JSON.parse(Buffer.from(token.access_token.split('.')[1], 'base64url').toString());
  t.match(claims, { sub: 'app', scope: 'read', client_id: 'app' });
  t.equal(claims.exp - claims.iat, 60);
  t.equal((await get('/oauth', { authorization: `Bearer ${token.access_token}` })).status, 200, 'the oauth2 scheme accepts it');
  t.equal((await get('/bearer', { authorization: `Bearer ${token.access_token}` })).status, 200, 'so does a pinned bearer scheme');

  const viaBasic = await fetch(url, { method: 'POST', headers: { authorization: basic(encodeURIComponent('id with space'), encodeURIComponent('p@ss word')), 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  t.equal(viaBasic.status, 200, 'client_secret_basic with form-encoded parts');
  t.notOk('scope' in (await viaBasic.json()), 'no scopes configured, none asked for: no scope');
  const json = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'app', client_secret: 'app-secret' }) });
  t.equal((await json.json()).scope, 'read write', 'a JSON body works too; no scope asked for: the client gets its scopes');

  const refused = [
    [{ grant_type: 'client_credentials', client_id: 'app', client_secret: 'wrong' }, 401, 'invalid_client'],
    [{ grant_type: 'client_credentials' }, 401, 'invalid_client'],
    [{ grant_type: 'password', client_id: 'app', client_secret: 'app-secret' }, 400, 'unsupported_grant_type'],
    [{ client_id: 'app', client_secret: 'app-secret' }, 400, 'invalid_request'],
    [{ grant_type: 'client_credentials', client_id: 'app', client_secret: 'app-secret', scope: 'admin' }, 400, 'invalid_scope'],
  ];
  for (const [fields, status, error] of refused) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(fields) });
    t.equal(res.status, status, `${error}: ${status}`);
    const body = await res.json();
    t.equal(body.error, error);
    t.type(body.error_description, 'string');
    if (status === 401) t.equal(res.headers.get('www-authenticate'), 'Basic realm="token endpoint"');
  }
  const xml = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'grant_type=client_credentials' });
  t.equal((await xml.json()).error, 'invalid_request');

  const logs = await (await fetch(`${server.url}/__mock/logs?path=/oauth/token&limit=50`)).json();
  t.notMatch(JSON.stringify(logs), /app-secret|p@ss/, 'client secrets never reach the request log');
});

t.test('scopes: a token that says what it grants must grant what the requirement lists (RFC 6750 insufficient_scope, 403)', async (t) => {
  const url = `${server.url}/oauth/token`;
  const tokenFor = async (scope) => (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ grant_type: 'client_credentials', client_id: 'app', client_secret: 'app-secret', scope }) })).json()).access_token;
  const read = await tokenFor('read');
  t.equal((await get('/oauth', { authorization: `Bearer ${read}` })).status, 200);
  const denied = await get('/oauth-write', { authorization: `Bearer ${read}` });
  t.equal(denied.status, 403, 'accepted token, missing scope: 403, not 401');
  t.equal(denied.headers.get('www-authenticate'), 'Bearer realm="oauth", error="insufficient_scope", scope="write"');
  t.match(await denied.json(), { error: 'Forbidden', code: 'MOCK_ERR_INSUFFICIENT_SCOPE', message: /does not grant the scopes write \(oauth\)/ });
  t.equal((await get('/oauth-write', { authorization: `Bearer ${await tokenFor('read write')}` })).status, 200);
  t.equal((await get('/oauth-either', { authorization: `Bearer ${read}`, 'x-api-key': 'key-one' })).status, 200, 'another requirement satisfied instead');
  const admin = await sign({ iss: 'https://id.example', aud: 'mocked-api', exp: now() + 60, scp: ['admin', 'read'] });
  const user = await sign({ iss: 'https://id.example', aud: 'mocked-api', exp: now() + 60, scope: 'read' });
  t.equal((await get('/hmac-admin', { authorization: `Bearer ${admin}` })).status, 200, 'scp as a list');
  t.equal((await get('/hmac-admin', { authorization: `Bearer ${user}` })).status, 403);
  const noClaim = await sign({ iss: 'https://id.example', aud: 'mocked-api', exp: now() + 60 });
  t.equal((await get('/hmac-admin', { authorization: `Bearer ${noClaim}` })).status, 200, 'a token that says nothing about scopes is not judged on them');
});

t.test('warn mode logs and accepts; --no-security turns the check off', async (t) => {
  const [warn, off] = await Promise.all([serve(t, config, ['--validation', 'warn']), serve(t, config, ['--no-security'])]);
  t.equal((await warn.get('/key', { 'x-api-key': 'wrong' })).status, 200);
  const logged = await until(() => {
    const output = warn.server.stdout + warn.server.stderr;
    return /the API key is not one of the accepted keys/.test(output) && output;
  }, 10_000, 'the refusal in the log');
  t.match(logged, /the API key is not one of the accepted keys/, 'the refusal is logged');
  t.equal((await off.get('/key', { 'x-api-key': 'wrong' })).status, 200);
});

t.test('unhappy configuration: a missing JWKS file, both secret and JWKS, pins that fit no scheme', async (t) => {
  const result = await runMock(['serve', '-c', configFile(config.replace('keys/jwks.json', 'keys/none.json')), '--out', out], { cwd: shared });
  t.equal(result.code, 1);
  t.match(result.stderr, /auth\.schemes\.rsa\.jwt\.jwks_file: cannot read .*none\.json \(ENOENT\); give the path of a JSON Web Key Set file/);

  const both = project('auth:\n  schemes:\n    hmac: { jwt: { secret: s, jwks_file: k.json } }\n');
  const validate = await runMock(['config', 'validate'], { cwd: both });
  t.equal(validate.code, 1);
  t.match(validate.stdout + validate.stderr, /auth\.schemes\.hmac\.jwt: expected one of secret and jwks_file/);

  const misfit = await serve(t, 'auth:\n  schemes:\n    bearer: { api_keys: [k] }\n    nope: { tokens: [t] }\n');
  const output = await until(() => {
    const text = misfit.server.stdout + misfit.server.stderr;
    return /schemes\.bearer\.api_keys/.test(text) && /schemes\.nope/.test(text) && text;
  }, 10_000, 'both warnings');
  t.match(output, /auth\.schemes\.bearer\.api_keys: bearer is a http bearer scheme; pin tokens or jwt instead/);
  t.match(output, /auth\.schemes\.nope: no operation of the descriptions uses a security scheme named nope/);
});

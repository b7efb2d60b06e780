// runtime/control/logging/redaction.ts and the request log: credentials never leave an entry in clear.
import t from 'tap';
import { Redaction, REDACTED, RequestLog } from '../../dist/runtime/control/logging/index.js';

t.test('credential headers by default; apiKey parameters once the servers name them', async (t) => {
  const redaction = new Redaction();
  const headers = { authorization: 'Bearer x', 'proxy-authorization': 'Basic y', cookie: 'a=1', 'set-cookie': 's=2', 'x-thing-key': 'k', accept: '*/*' };
  t.strictSame(redaction.headers(headers), { ...headers, authorization: REDACTED, 'proxy-authorization': REDACTED, cookie: REDACTED, 'set-cookie': REDACTED });
  redaction.useKeys([
    { in: 'header', name: 'X-Thing-Key' },
    { in: 'query', name: 'api_key' },
    { in: 'cookie', name: 'session' },
  ]);
  t.equal(redaction.headers(headers)['x-thing-key'], REDACTED, 'header names compare in any case');
  t.equal(redaction.queryString('a=1&api_key=s3cret&API_KEY=x&b'), `a=1&api_key=${encodeURIComponent(REDACTED)}&API_KEY=${encodeURIComponent(REDACTED)}&b`);
  t.strictSame(redaction.query({ api_key: 'x', q: ['a', 'b'] }), { api_key: REDACTED, q: ['a', 'b'] });
  const clean = { accept: '*/*' };
  t.equal(redaction.headers(clean), clean, 'nothing secret: the same object, no copy');
});

t.test('the credential headers of the ecosystem, by name, whatever the API', async (t) => {
  const redaction = new Redaction();
  const secret = [
    'x-auth-token',
    'x-amz-security-token',
    'x-api-key',
    'api-key',
    'apikey',
    'x-goog-api-key',
    'dd-api-key',
    'x-access-token',
    'x-refresh-token',
    'private-token',
    'x-gitlab-token',
    'x-vault-token',
    'x-csrf-token',
    'x-xsrf-token',
    'x-client-secret',
    'x-password',
    'x-amzn-remapped-authorization',
    'x-mock-management-token',
    'x-mock-admin-token',
    'ocp-apim-subscription-key',
    'x-functions-key',
    'x-sentry-auth',
  ];
  const clear = ['accept', 'x-request-id', 'x-idempotency-key', 'x-tokens-remaining', 'www-authenticate', 'x-forwarded-for', 'content-type'];
  const shown = redaction.headers(Object.fromEntries([...secret, ...clear].map((name) => [name, `value-of-${name}`])));
  for (const name of secret) t.equal(shown[name], REDACTED, `${name} is a credential`);
  for (const name of clear) t.equal(shown[name], `value-of-${name}`, `${name} is not`);
  const debugging = new Redaction({ credentials: false, names: [] });
  t.equal(debugging.headers({ 'x-auth-token': 't' })['x-auth-token'], 't', 'redact_credentials: false shows them');
});

t.test('logging.redact names are always hidden; redact_credentials false shows the rest', async (t) => {
  const redaction = new Redaction({ credentials: false, names: ['X-Tenant-Token', 'sid'] });
  redaction.useKeys([{ in: 'header', name: 'x-api-key' }]);
  const shown = redaction.headers({ authorization: 'Bearer x', 'x-api-key': 'k', 'x-tenant-token': 't', cookie: 'a=1; sid=abc; b=2' });
  t.equal(shown.authorization, 'Bearer x');
  t.equal(shown['x-api-key'], 'k');
  t.equal(shown['x-tenant-token'], REDACTED);
  t.equal(shown.cookie, `a=1; sid=${REDACTED}; b=2`, 'a named cookie inside a Cookie header shown in clear');
  t.equal(redaction.queryString('sid=1&x=2'), `sid=${encodeURIComponent(REDACTED)}&x=2`);
});

t.test('request log entries carry redacted headers everywhere they are read', async (t) => {
  const log = new RequestLog();
  log.redaction.useKeys([{ in: 'header', name: 'x-api-key' }]);
  const streamed = [];
  log.subscribe((entry) => streamed.push(JSON.parse(JSON.stringify(entry))));
  const entry = log.record({ method: 'GET', path: '/v1/pets', status: 200, durationMs: 0, client: '127.0.0.1', headers: { authorization: 'Bearer s3cret', 'x-api-key': 'k3y', 'user-agent': 'ua' }, responseBytes: 10 });
  for (const view of [entry.headers, entry.toJSON().headers, JSON.parse(JSON.stringify(log.recent()))[0].headers, streamed[0].headers]) {
    t.equal(view.authorization, REDACTED);
    t.equal(view['x-api-key'], REDACTED);
    t.equal(view['user-agent'], 'ua');
  }
  t.notMatch(JSON.stringify(entry), /s3cret|k3y/);
});

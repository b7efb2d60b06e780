// A proxy upstream whose URL carries credentials (http://user:pass@host): the proxy sends them to
// the upstream, and nothing displays them: GET /__mock/config, the dashboard's proxy_config,
// GET /__mock/env, the answers and errors of the endpoints that set the upstream, the proxy's
// problem answers, the request log and the server's log lines at debug all show the password (or
// a lone user name, often a token) as [redacted]; GET /__mock/env masks a variable named like an
// API key. Through `mock serve --admin` and real requests.
import t from 'tap';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';
import { envelope, failure, post } from '../helpers/admin.js';

const PASSWORD = 'UPSTREAM-PASS-1';
const OTHER = 'UPSTREAM-PASS-2';
const TOKEN = 'USERNAME-TOKEN-3';
const API_KEY = 'ENV-API-KEY-4';
const SECRETS = [PASSWORD, OTHER, TOKEN, API_KEY];

const authorizations = [];
const upstream = http.createServer((req, res) => {
  authorizations.push(req.headers.authorization);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ upstream: true }));
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
t.teardown(() => upstream.close());
const host = `127.0.0.1:${upstream.address().port}`;
const basic = (userinfo) => `Basic ${Buffer.from(userinfo).toString('base64')}`;

// a port nobody listens on: the proxy's "unreachable" problem
const closed = http.createServer();
await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
const closedPort = closed.address().port;
await new Promise((resolve) => closed.close(resolve));

const dir = tmpdir();
writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${JSON.stringify(path.join(root, 'examples', 'petstore.yaml'))}]\nproxy: { enabled: true }\n`);
const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--admin', '--admin-port', '0'], {
  cwd: dir,
  env: { MOCK_PROXY_UPSTREAM: `http://alice:${PASSWORD}@${host}/srv`, MOCK_UPSTREAM_API_KEY: API_KEY, MOCK_LOG_LEVEL: 'debug' },
});
t.teardown(() => server.stop());
const admin = (endpoint) => `${server.adminUrl}/__mock/${endpoint}`;
const proxied = async () => {
  const res = await fetch(`${server.url}/v1/pets/1`);
  return { status: res.status, text: await res.text() };
};

t.test('the proxy sends the credentials; the admin API shows the password as [redacted]', async (t) => {
  const before = authorizations.length;
  t.equal((await proxied()).status, 200, 'proxied');
  t.same(authorizations.slice(before), [basic(`alice:${PASSWORD}`)], 'the upstream got the real credentials, as Basic auth');

  const shown = `http://alice:[redacted]@${host}/srv`;
  t.equal((await envelope(t, await fetch(admin('config')))).proxy.upstream_url, shown, 'GET /__mock/config');
  t.equal((await envelope(t, await fetch(admin('dashboard')))).proxy_config.upstream_url, shown, "the dashboard's proxy_config");
  const env = await envelope(t, await fetch(admin('env')));
  t.equal(env.MOCK_PROXY_UPSTREAM, shown, 'GET /__mock/env');
  t.equal(env.MOCK_UPSTREAM_API_KEY, '********', 'and a variable named like an API key is masked');

  // a page that writes back what it was shown keeps the real credentials
  const back = await envelope(t, await post(admin('config'), { proxy: { enabled: true, upstream_url: shown } }));
  t.equal(back.config.proxy.upstream_url, shown);
  await proxied();
  t.equal(authorizations.at(-1), basic(`alice:${PASSWORD}`), 'the upstream still gets the real password');
});

t.test('set at run time: the answers show a lone user name (a token) as [redacted] too', async (t) => {
  const set = await envelope(t, await post(admin('config/proxy'), { upstream_url: `http://${TOKEN}@${host}/srv` }));
  t.equal(set.proxy.upstream_url, `http://[redacted]@${host}/srv`, 'POST /__mock/config/proxy answers with it redacted');
  await proxied();
  t.equal(authorizations.at(-1), basic(`${TOKEN}:`), 'the upstream gets the token');

  await envelope(t, await post(admin('env'), { key: 'MOCK_PROXY_UPSTREAM', value: `http://bob:${OTHER}@${host}/srv` }));
  t.equal((await envelope(t, await fetch(admin('env')))).MOCK_PROXY_UPSTREAM, `http://bob:[redacted]@${host}/srv`, 'GET /__mock/env after POST /__mock/env');
  t.equal((await envelope(t, await fetch(admin('config')))).proxy.upstream_url, `http://bob:[redacted]@${host}/srv`);
  await proxied();
  t.equal(authorizations.at(-1), basic(`bob:${OTHER}`));
});

t.test('errors name the URL without its password', async (t) => {
  await failure(t, await post(admin('config/proxy'), { upstream_url: `http://bob:${OTHER}@${host}/srv?x=1` }), 400, /got "http:\/\/bob:\[redacted\]@127\.0\.0\.1:\d+\/srv\?x=1"/);
  await failure(t, await post(admin('env'), { key: 'MOCK_PROXY_UPSTREAM', value: `http://bob:${OTHER}@${host}/srv#top` }), 400, /bob:\[redacted\]@/);
  await failure(t, await post(admin('config'), { proxy: { upstream_url: `http://${TOKEN}@[::1` } }), 400, /got "http:\/\/\[redacted\]@\[::1"/);

  await envelope(t, await post(admin('config/proxy'), { upstream_url: `http://carol:${OTHER}@127.0.0.1:${closedPort}` }));
  const { status, text } = await proxied();
  t.equal(status, 502, 'an unreachable upstream');
  t.match(text, `proxy to http://127.0.0.1:${closedPort} failed`, 'the problem names the origin');
  for (const secret of SECRETS) t.notMatch(text, secret);
});

t.test('nothing shows a credential: the request log and every log line at debug', async (t) => {
  const logs = await (await fetch(admin('logs'))).text();
  t.ok(logs.includes('/v1/pets/1'), 'the request log has the proxied requests');
  t.match(server.stdout, /proxy configuration changed/, 'the change was logged');
  for (const secret of SECRETS) {
    t.notMatch(logs, secret, `GET /__mock/logs: no ${secret}`);
    t.notMatch(server.stdout + server.stderr, secret, `log lines: no ${secret}`);
  }
});

// Whom the admin trusts (docs/admin.md "Security"), through the real CLI and, where a browser is
// the attacker, headless Chromium: a page planted on the mock port through a runtime mock (anyone
// reaching the port can create one) tries to write through the admin API, with the admin on its
// own port and embedded in the mock; the admin page's own writes carry its browser token; tools
// that send no Origin keep working; the metrics endpoint checks Host.
import t from 'tap';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';
import { exactRequest as request, jsonBody as json } from '../helpers/admin.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';

const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

// The project the planted page tries to rewrite: its description would $ref a secret beside it.
const project = path.join(tmpdir(), 'project');
mkdirSync(project);
const API = `openapi: 3.0.3
info: { title: Things, version: '1' }
paths:
  /things:
    get:
      responses:
        '200': { description: ok, content: { application/json: { example: { id: 1 } } } }
`;
writeFileSync(path.join(project, 'api.yaml'), API);
writeFileSync(path.join(project, 'mock.yaml'), 'specs: [api.yaml]\n');
writeFileSync(path.join(project, 'secret.env'), 'TOKEN=s3cret\n');
const config = path.join(project, 'mock.yaml');
const STOLEN = `openapi: 3.0.3\ninfo: { title: Stolen, version: '1' }\npaths:\n  /secret:\n    get:\n      responses:\n        '200': { description: ok, content: { text/plain: { example: { $ref: '../secret.env' } } } }\n`;

// one after the other: the first builds the project, the second finds the build up to date (two at once
// would build into one folder together, and the second could find the first's build half written)
const server = await startMock(['-c', config, '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'], { cwd: project });
const embedded = await startMock(['-c', config, '--admin-embed'], { cwd: project });
t.teardown(() => Promise.all([server.stop(), embedded.stop()]));
const { adminUrl, metricsUrl, url: mockUrl } = server;

/** One request with full control over the headers (fetch may not set Host, Origin or Sec-Fetch-*). */
const tokenOf = (html) => /<meta name="mock-admin-token" content="([^"]+)">/.exec(html)?.[1];
const mockPaths = async (base) => (await request(base, 'GET', '/__mock/mocks')).json.data.map((m) => m.path);

/**
 * The attacker's page: it tries to read the admin page (for its token) and to write with
 * whatever it found, then leaves what each attempt got in window.__result.
 */
function plantedPage(admin) {
  const save = JSON.stringify({ file_path: 'api.yaml', content: STOLEN });
  const mock = JSON.stringify({ method: 'GET', path: '/planted', response: { body: 'x' } });
  return `<!doctype html><title>planted</title><script>
(async () => {
  const out = {};
  const attempt = async (name, url, init) => {
    try {
      const res = await fetch(url, init);
      out[name] = { status: res.status, text: await res.text() };
    } catch (e) {
      out[name] = { blocked: String(e) };
    }
  };
  await attempt('page', ${JSON.stringify(admin.page)});
  const token = /name="mock-admin-token" content="([^"]+)"/.exec(out.page.text ?? '')?.[1];
  const write = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'x-mock-admin-token': token } : {}) }, body });
  await attempt('save', ${JSON.stringify(admin.api)} + '/__mock/files/save', write(${JSON.stringify(save)}));
  await attempt('mocks', '/__mock/mocks', write(${JSON.stringify(mock)}));
  window.__result = out;
})();
</script>`;
}

t.test('the metrics endpoint answers only this machine\'s names (DNS rebinding)', async (t) => {
  for (const host of ['evil.example', `evil.example:${new URL(metricsUrl).port}`]) {
    const res = await request(metricsUrl, 'GET', '/metrics', { headers: { host } });
    t.equal(res.status, 403, `Host ${host}`);
    t.match(res.text, /Host "evil\.example(:\d+)?" may not reach the metrics endpoint.*admin\.allowed_hosts/);
  }
  for (const host of ['localhost', `127.0.0.1:${new URL(metricsUrl).port}`, '[::1]', '10.0.0.7:9090']) {
    const res = await request(metricsUrl, 'GET', '/metrics', { headers: { host } });
    t.equal(res.status, 200, `Host ${host}`);
    t.match(res.text, /mock_http_requests_total/);
  }
});

t.test('pages from the mock port are not trusted by the admin, nor by the management router', async (t) => {
  const mockOrigin = `http://127.0.0.1:${new URL(mockUrl).port}`;
  for (const origin of [mockOrigin, `http://localhost:${new URL(mockUrl).port}`, `http://[::1]:${new URL(mockUrl).port}`]) {
    const save = await request(adminUrl, 'POST', '/__mock/files/save', json({ file_path: 'api.yaml', content: STOLEN }, { origin }));
    t.equal(save.status, 403, `${origin} may not write to the admin, though the default origins cover it`);
    t.match(save.json.error, /origin .* not allowed/);
    const page = await request(adminUrl, 'GET', '/', { headers: { origin } });
    t.equal(page.status, 403, `${origin} may not read the admin page`);
    t.equal(page.headers['access-control-allow-origin'], undefined);
    const preflight = await request(adminUrl, 'OPTIONS', '/__mock/files/save', { headers: { origin, 'access-control-request-method': 'POST' } });
    t.equal(preflight.status, 403, `${origin}: its preflight fails`);
  }
  const own = await request(mockUrl, 'POST', '/__mock/mocks', json({ method: 'GET', path: '/planted', response: { body: 'x' } }, { origin: mockOrigin, host: new URL(mockUrl).host }));
  t.equal(own.status, 403, 'the management router does not take the mock port as its own origin');
  t.equal(readFileSync(path.join(project, 'api.yaml'), 'utf8'), API);
  t.notOk((await mockPaths(mockUrl)).includes('/planted'));
});

t.test('browser writes need the admin page\'s token; tools without Origin keep to the documented headers', async (t) => {
  const page = await request(adminUrl, 'GET', '/');
  t.equal(page.status, 200);
  const token = tokenOf(page.text);
  t.match(token, /^[A-Za-z0-9_-]{43}$/, 'the admin page carries a 256-bit token');
  t.equal(page.headers['cache-control'], 'no-store', 'never cached');
  const policy = page.headers['content-security-policy'];
  t.match(policy, /frame-ancestors 'none'/, 'never framed');
  t.match(policy, /script-src 'self'(;|$)/, 'scripts only from its own files');
  t.notMatch(policy, /unsafe-inline|unsafe-eval/, 'no inline script or eval');
  t.match(policy, `connect-src 'self' ws://${new URL(adminUrl).host} wss://${new URL(adminUrl).host}`, 'the API and its streams on this host only');
  const embeddedPage = await request(embedded.url, 'GET', '/admin');
  t.match(tokenOf(embeddedPage.text), /^[A-Za-z0-9_-]{43}$/, 'the embedded page carries one too');
  t.not(tokenOf(embeddedPage.text), token, 'per process');

  const dashboard = 'http://localhost:5173';
  const create = (p) => ({ method: 'GET', path: p, response: { body: 'ok' } });
  for (const headers of [{ origin: dashboard }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-dest': 'empty' }, { origin: dashboard, 'x-mock-admin-token': 'guessed' }]) {
    const refused = await request(adminUrl, 'POST', '/__mock/mocks', json(create('/no-token'), headers));
    t.equal(refused.status, 403, `a browser write (${Object.keys(headers).join(', ')}) without the right token`);
    t.match(refused.json, {
      success: false,
      data: null,
      error: /POST \/__mock\/mocks from a browser page needs the header X-Mock-Admin-Token .*the admin page \(GET \/ on the admin port\) carries in <meta name="mock-admin-token">/,
    });
  }
  const viaRouter = await request(mockUrl, 'POST', '/__mock/mocks', json(create('/no-token'), { origin: dashboard }));
  t.equal(viaRouter.status, 403, 'the management router asks for it too');
  t.notOk((await mockPaths(mockUrl)).includes('/no-token'));

  const withToken = await request(adminUrl, 'POST', '/__mock/mocks', json(create('/with-token'), { origin: dashboard, 'x-mock-admin-token': token }));
  t.equal(withToken.status, 201, 'an allowed origin with the token writes');
  t.equal(withToken.headers['access-control-allow-origin'], dashboard);
  const routerWithToken = await request(mockUrl, 'POST', '/__mock/mocks', json(create('/router-token'), { origin: dashboard, 'x-mock-admin-token': token }));
  t.equal(routerWithToken.status, 201, 'on the management router as well');
  const preflight = await request(adminUrl, 'OPTIONS', '/__mock/mocks', { headers: { origin: dashboard, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-mock-admin-token' } });
  t.equal(preflight.status, 204);
  t.match(preflight.headers['access-control-allow-headers'], /x-mock-admin-token/, 'a page may send the header');
  const pageCors = await request(adminUrl, 'GET', '/', { headers: { origin: dashboard } });
  t.equal(pageCors.status, 200);
  t.equal(pageCors.headers['access-control-allow-origin'], undefined, 'an origin allowed by a pattern may not read the page and its token');

  // curl, scripts, mock chaos profile: no Origin, no Sec-Fetch-Site/Dest; Node's fetch sends sec-fetch-mode: cors
  const curl = await request(adminUrl, 'POST', '/__mock/mocks', json(create('/curl')));
  t.equal(curl.status, 201, 'a write without Origin needs no token');
  const script = await fetch(`${mockUrl}/__mock/mocks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(create('/script')) });
  t.equal(script.status, 201, "Node's fetch (sec-fetch-mode only) is a tool, not a browser");
  t.same((await mockPaths(mockUrl)).sort(), ['/curl', '/router-token', '/script', '/with-token']);
  t.equal((await request(adminUrl, 'DELETE', '/__mock/mocks')).status, 200);
});

if (CHROMIUM_MISSING) {
  t.skip(`${CHROMIUM_MISSING} (the planted-page attacks)`);
} else t.test('in Chromium', async (t) => {
  const context = await launchChromium();
  t.teardown(() => context.close());

  /** Plants `html` as a runtime mock at `p` (on the mock port, as anyone reaching it can), opens it and returns what its script found. */
  async function openPlanted(base, p, html) {
    const created = await request(base, 'POST', '/__mock/mocks', json({ method: 'GET', path: p, response: { body: html, headers: { 'content-type': 'text/html; charset=utf-8' } } }));
    if (created.status !== 201) throw new Error(`planting ${p} failed: ${created.text}`);
    const page = await context.newPage();
    try {
      await page.goto(`${base}${p}`);
      await page.waitForFunction(() => window.__result !== undefined, undefined, { timeout: 20_000 });
      return await page.evaluate(() => window.__result);
    } finally {
      await page.close();
    }
  }

  t.test('a page planted on the mock port cannot write through the admin on its own port', async (t) => {
    const found = await openPlanted(mockUrl, '/evil', plantedPage({ page: `${adminUrl}/`, api: adminUrl }));
    t.equal(found.page.status, undefined, `the admin page was not readable (${JSON.stringify(found.page)})`);
    t.not(found.save.status, 200, `files/save refused (${JSON.stringify(found.save)})`);
    t.not(found.mocks.status, 201, `POST /__mock/mocks on the mock port refused (${JSON.stringify(found.mocks)})`);
    t.equal(readFileSync(path.join(project, 'api.yaml'), 'utf8'), API, 'the description is unchanged');
    t.notOk((await mockPaths(mockUrl)).includes('/planted'), 'no mock was planted through the page');
  });

  t.test('embedded, a planted page is sandboxed: it can neither steal the token nor write', async (t) => {
    const base = embedded.url;
    const found = await openPlanted(base, '/evil', plantedPage({ page: '/admin', api: '' }));
    t.equal(found.page.status, undefined, `the admin page beside it was not readable (${JSON.stringify(found.page)})`);
    t.not(found.save.status, 200, `files/save refused (${JSON.stringify(found.save)})`);
    t.not(found.mocks.status, 201, `POST /__mock/mocks refused (${JSON.stringify(found.mocks)})`);
    t.equal(readFileSync(path.join(project, 'api.yaml'), 'utf8'), API, 'the description is unchanged');
    t.notOk((await mockPaths(base)).includes('/planted'), 'no mock was planted through the page');
    const answer = await request(base, 'GET', '/evil');
    t.equal(answer.headers['content-security-policy'], SANDBOX, 'every mock answer is a sandboxed document');
    t.equal((await request(base, 'GET', '/things')).headers['content-security-policy'], SANDBOX, 'answers from the description too');
    t.match((await request(base, 'GET', '/admin')).headers['content-security-policy'], /^default-src 'self';.*frame-ancestors 'none'$/, 'not the admin page: its own policy');
    t.equal((await request(mockUrl, 'GET', '/things')).headers['content-security-policy'], undefined, 'without the embedded admin, nothing is added');
  });

  t.test('the admin page writes with its token from its own origin', async (t) => {
    const page = await context.newPage();
    t.teardown(() => page.close());
    const write = (api, p, withToken) =>
      page.evaluate(
        async ({ api, p, withToken }) => {
          const token = document.querySelector('meta[name="mock-admin-token"]').content;
          const headers = { 'content-type': 'application/json', ...(withToken ? { 'x-mock-admin-token': token } : {}) };
          const res = await fetch(`${api}/__mock/mocks`, { method: 'POST', headers, body: JSON.stringify({ method: 'GET', path: p, response: { body: 'ok' } }) });
          return { status: res.status, body: await res.json() };
        },
        { api, p, withToken },
      );
    await page.goto(`${adminUrl}/`);
    const refused = await write('', '/from-admin-page', false);
    t.equal(refused.status, 403, 'without the token, even from the admin page');
    t.match(refused.body.error, /X-Mock-Admin-Token/);
    t.equal((await write('', '/from-admin-page', true)).status, 201, 'with it');
    await page.goto(`${embedded.url}/admin`);
    t.equal((await write('', '/from-embedded-page', true)).status, 201, 'the embedded admin page too');
    t.ok((await mockPaths(mockUrl)).includes('/from-admin-page'));
    t.ok((await mockPaths(embedded.url)).includes('/from-embedded-page'));
  });
});

// The web dashboard in headless Chromium against a running `mock serve --admin` with admin
// authentication on (the seeded development users): logging in, a request appearing live, an
// unmatched request turned into a runtime mock that then answers, a chaos profile delaying the next
// answer, the validation mode edited, and a viewer who sees write controls disabled and whose
// writes the API refuses. Also how the admin server serves the bundle's files.
import t from 'tap';
import { startMock } from '../helpers/cli.js';
import { exactRequest as request } from '../helpers/admin.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';
import { until } from '../helpers/wait.js';

const streamText = async (stream) => {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
};

const server = await startMock(['--spec', 'examples/petstore.yaml', '--admin', '--admin-port', '0'], { env: { MOCK_ADMIN_AUTH_ENABLED: 'true' } });
t.teardown(() => server.stop());
const { url: mockUrl, adminUrl } = server;

t.test('the admin server serves the bundle files and nothing else', async (t) => {
  const script = await request(adminUrl, 'GET', '/assets/index.js');
  t.equal(script.status, 200);
  t.match(script.headers['content-type'], /^text\/javascript/);
  t.equal(script.headers['x-content-type-options'], 'nosniff');
  const again = await request(adminUrl, 'GET', '/assets/index.js', { headers: { 'if-none-match': script.headers.etag } });
  t.equal(again.status, 304, 'revalidated by ETag');
  t.match((await request(adminUrl, 'GET', '/assets/style.css')).headers['content-type'], /^text\/css/);
  for (const p of ['/assets/nope.js', '/assets/../index.html', '/assets/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/assets/', '/index.html', '/assets/index.js/x']) {
    t.equal((await request(adminUrl, 'GET', p)).status, 404, `${p} is not served`);
  }
  const page = await request(adminUrl, 'GET', '/');
  t.match(page.text, '<base href="/">');
  t.notMatch(page.text, /<script>|<script(?![^>]*src=)[^>]*>/, 'no inline script');
});

if (CHROMIUM_MISSING) {
  t.skip(CHROMIUM_MISSING);
} else {
  t.test('in Chromium', async (t) => {
    const context = await launchChromium({ viewport: { width: 1280, height: 800 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // the admin stream's messages as the page sends and gets them, each with when it was seen
    const stream = { sent: [], received: [] };
    page.on('websocket', (ws) => {
      if (!ws.url().endsWith('/__mock/ws')) return;
      ws.on('framesent', (f) => stream.sent.push({ at: Date.now(), message: JSON.parse(String(f.payload)) }));
      ws.on('framereceived', (f) => stream.received.push({ at: Date.now(), message: JSON.parse(String(f.payload)) }));
    });
    /** Resolves once the server sends metrics it made after `since` (the ticks carry their time: one clock, one machine). */
    const metricsAfter = (since) => until(() => stream.received.find(({ message }) => message.type === 'metrics' && Date.parse(message.data.ts) > since), 10_000, 'a metrics tick');

    const logIn = async (username, on = page, fragment = '') => {
      await on.goto(`${adminUrl}/${fragment}`);
      await on.locator('input[name=username]').fill(username);
      await on.locator('input[name=password]').fill(`${username}-dev-password`);
      await on.getByRole('button', { name: 'Log in' }).click();
      await on.getByText(`${username} (${username})`).waitFor();
    };
    const open = async (name) => {
      await page.locator('nav').getByRole('link', { name, exact: true }).click();
      await page.locator('h2').first().waitFor();
    };

    t.test('an admin logs in and watches a request appear live', async (t) => {
      t.equal((await fetch(`${mockUrl}/before-the-page/1`)).status, 404);
      await logIn('admin');
      await open('Live log');
      await page.locator('.stream.ws').waitFor();
      t.pass('the feed is the admin WebSocket stream');
      await page.locator('.log-row', { hasText: '/before-the-page/1' }).waitFor();
      t.pass('the log is filled in with what came before the page opened (GET /__mock/logs)');
      t.equal((await fetch(`${mockUrl}/live-check/1`)).status, 404);
      await page.locator('.log-row', { hasText: '/live-check/1' }).waitFor({ timeout: 10_000 });
      await page.locator('.log-row', { hasText: '/live-check/1' }).click();
      t.match(await page.locator('.detail').textContent(), /user-agent/, 'the entry opens with its headers');
      const [har] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export HAR' }).click()]);
      const exported = JSON.parse(await streamText(await har.createReadStream()));
      t.equal(exported.log.version, '1.2', 'the log exports as HAR 1.2');
      t.ok(exported.log.entries.some((e) => e.request.url.endsWith('/live-check/1') && e.response.status === 404), 'with the request seen');
      await page.locator('input[aria-label=path]').fill('/no-such-path');
      await page.locator('[data-testid=log-count]', { hasText: /^0 shown/ }).waitFor();
      t.pass('the filter hides what does not match');
      await page.locator('input[aria-label=path]').fill('');
      t.equal((await fetch(`${mockUrl}/v1/pets/1`)).status, 200);
      await page.locator('.log-row', { hasText: '/v1/pets/1' }).waitFor({ timeout: 10_000 });
      const source = page.locator('select[aria-label=source]');
      await source.selectOption('example');
      await page.locator('[data-testid=log-count]', { hasText: /^1 shown/ }).waitFor();
      t.equal(await page.locator('.log-row', { hasText: '/v1/pets/1' }).count(), 1, 'the source filter keeps the description example');
      t.match(await page.locator('.log-row').first().textContent(), /description example/, 'the row names its source');
      await source.selectOption('unmatched');
      await page.locator('.log-row', { hasText: '/live-check/1' }).waitFor();
      t.equal(await page.locator('.log-row', { hasText: '/v1/pets/1' }).count(), 0, 'and the unmatched requests without it');
      await source.selectOption('');
    });

    t.test('the log detail shows what was sent and answered, redacted, and why a request was refused; the HAR export carries the bodies', async (t) => {
      await open('Live log');
      await page.locator('input[aria-label=path]').fill('');
      const pet = { name: 'Rex', kind: 'dog', password: 'hunter2' };
      const created = await fetch(`${mockUrl}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pet) });
      const answered = await created.text();
      const refused = await fetch(`${mockUrl}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"kind":"dog"}' });
      await refused.text();
      t.equal(refused.status, 400, 'refused by validation');
      const rows = page.locator('.log-row', { hasText: '/v1/pets' });
      await rows.filter({ hasText: '400' }).first().click();
      const detail = page.locator('aside.detail');
      await detail.getByTestId('entry-reason').waitFor();
      t.equal(await detail.getByTestId('entry-reason').textContent(), `MOCK_ERR_REQUEST_INVALID ${refused.headers.get('x-mock-error-detail')}`, 'the refusal: code and detail');
      t.equal(await detail.getByTestId('request-body').locator('pre').textContent(), '{"kind":"dog"}', 'what was sent');

      await rows.filter({ hasText: '201' }).first().click();
      await detail.getByTestId('request-body').waitFor();
      t.same(JSON.parse(await detail.getByTestId('request-body').locator('pre').textContent()), { ...pet, password: '[redacted]' }, 'the request body, its password redacted');
      t.equal(await detail.getByTestId('response-body').locator('pre').textContent(), answered, 'the response body');
      t.equal(await detail.getByTestId('entry-reason').count(), 0, 'an answer has no reason');
      t.notMatch(await detail.textContent(), /hunter2/);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export HAR' }).click()]);
      let text = '';
      for await (const chunk of await download.createReadStream()) text += chunk;
      const har = JSON.parse(text).log.entries.find((e) => e.request.method === 'POST' && e.response.status === 201 && e.request.url.endsWith('/v1/pets'));
      t.match(har.request.postData, { mimeType: 'application/json', text: JSON.stringify({ ...pet, password: '[redacted]' }) }, 'HAR postData.text');
      t.match(har.response.content, { text: answered, size: Buffer.byteLength(answered) }, 'HAR content.text');
      t.notMatch(text, /hunter2/, 'no credential in the HAR');
    });

    t.test('a hidden tab stops the entries and fills them in when shown again', async (t) => {
      await page.locator('input[aria-label=path]').fill('');
      const setHidden = (hidden) =>
        page.evaluate((hidden) => {
          Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
          document.dispatchEvent(new Event('visibilitychange'));
        }, hidden);
      await setHidden(true);
      // the page unsubscribes; a tick made after that message left is made after the server read it
      const unsubscribed = await until(() => stream.sent.find(({ message }) => message.type === 'subscribe' && message.logs === false), 10_000, 'the page unsubscribing');
      await metricsAfter(unsubscribed.at);
      t.equal((await fetch(`${mockUrl}/while-hidden/1`)).status, 404);
      // the sentinel: a tick made after the request was answered; a log batch for the request is
      // flushed in the turn the request is logged, before any later tick, so it would have come first
      const answered = Date.now();
      const tick = await metricsAfter(answered);
      const streamed = stream.received.filter(({ at, message }) => at <= tick.at && message.type === 'logs' && message.entries.some((e) => e.path === '/while-hidden/1'));
      t.same(streamed, [], 'nothing streamed while hidden');
      t.equal(await page.locator('.log-row', { hasText: '/while-hidden/1' }).count(), 0, 'nor shown');
      await setHidden(false);
      await page.locator('.log-row', { hasText: '/while-hidden/1' }).waitFor();
      t.pass('shown again, the log is filled in');
    });

    t.test('an unmatched request becomes a runtime mock in one click', async (t) => {
      t.equal((await fetch(`${mockUrl}/v1/petz`)).status, 404, 'nothing answers /v1/petz yet');
      await open('Unmatched');
      await page.locator('.picklist li', { hasText: '/v1/petz' }).first().click({ timeout: 10_000 });
      const detail = page.locator('[data-testid=unmatched-detail]');
      await detail.locator('.closest', { hasText: '/v1/pets' }).first().waitFor();
      t.match(await detail.textContent(), /path/, 'the closest route says which field missed');
      await detail.getByRole('button', { name: 'Mock this request' }).click();
      await detail.getByText('Mock created').waitFor();
      const answer = await fetch(`${mockUrl}/v1/petz`);
      t.equal(answer.status, 200, 'the runtime mock answers it now');
    });

    t.test('a chaos profile applied from the page delays the next answer', async (t) => {
      await open('Chaos');
      await page.locator('button[data-profile=high_latency]').click();
      await page.getByText('Applied high_latency').waitFor();
      const started = performance.now();
      const answer = await fetch(`${mockUrl}/v1/pets`);
      const took = performance.now() - started;
      t.equal(answer.status, 200);
      t.ok(took >= 550, `delayed (${Math.round(took)} ms)`);
      t.ok(Number(answer.headers.get('x-mock-injected-latency-ms')) >= 600, 'and says so');
      await page.getByRole('button', { name: 'Reset', exact: true }).click();
      await page.getByText('Back to the settings of the start').waitFor();
    });

    t.test('the validation mode is edited live (after a refresh of the login)', async (t) => {
      const before = await fetch(`${mockUrl}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"kind": 7}' });
      t.equal(before.status, 400, 'enforced at first');
      // an access token the API no longer takes (as one past its 15 minutes): the page refreshes the login once and goes on
      await page.evaluate(() => {
        const session = JSON.parse(sessionStorage.getItem('mock-dashboard-session'));
        sessionStorage.setItem('mock-dashboard-session', JSON.stringify({ ...session, access_token: 'expired.access.token' }));
      });
      await page.reload();
      await page.getByText('admin (admin)').waitFor();
      await open('Config');
      const form = page.locator('[data-testid=validation]');
      await form.locator('select[name=mode]').selectOption('off');
      await form.getByRole('button', { name: 'Apply' }).click();
      await form.getByText('Saved').waitFor();
      t.equal((await (await fetch(`${adminUrl}/__mock/validation`)).json()).data.mode, 'off');
      t.not(await page.evaluate(() => JSON.parse(sessionStorage.getItem('mock-dashboard-session')).access_token), 'expired.access.token', 'with a refreshed token');
      const after = await fetch(`${mockUrl}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"kind": 7}' });
      t.not(after.status, 400, 'no longer refused');
    });

    t.test('a viewer sees write controls disabled, and the API refuses their writes', async (t) => {
      await page.getByRole('button', { name: 'Log out' }).click();
      await logIn('viewer');
      await open('Mocks & overrides');
      t.ok(await page.getByRole('button', { name: 'New mock' }).isDisabled(), 'no new mock');
      await open('Config');
      t.ok(await page.locator('[data-testid=validation]').getByRole('button', { name: 'Apply' }).isDisabled(), 'no config change');
      await open('Chaos');
      t.ok(await page.locator('button[data-profile=high_latency]').isDisabled(), 'no chaos profile');
      const refused = await page.evaluate(async () => {
        const session = JSON.parse(sessionStorage.getItem('mock-dashboard-session'));
        const token = document.querySelector('meta[name="mock-admin-token"]').content;
        const res = await fetch('/__mock/mocks', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-mock-admin-token': token, authorization: `Bearer ${session.access_token}` },
          body: JSON.stringify({ method: 'GET', path: '/by-viewer', response: { body: 'x' } }),
        });
        return { status: res.status, body: await res.json() };
      });
      t.equal(refused.status, 403, 'the API refuses a viewer');
      t.match(refused.body.error, /editor/);
    });

    t.test('where the WebSocket stream is refused, the page falls back to the SSE log stream', async (t) => {
      const other = await context.newPage();
      t.teardown(() => other.close());
      // accepted, then closed before the stream says hello: what a proxy that does not pass WebSockets does
      await other.routeWebSocket(/\/__mock\/ws$/, (ws) => ws.close());
      await logIn('viewer', other, '#log');
      await other.locator('.stream.sse').waitFor();
      t.equal((await fetch(`${mockUrl}/fallback-check/1`)).status, 404);
      await other.locator('.log-row', { hasText: '/fallback-check/1' }).waitFor({ timeout: 10_000 });
      t.pass('a request appears live through the fallback');
    });

    t.test('the overview charts the stream\'s metrics', async (t) => {
      await open('Overview');
      await page.locator('.tile', { hasText: 'Total requests' }).locator('.tile-value', { hasText: /^[1-9]/ }).waitFor({ timeout: 5000 });
      await page.waitForFunction(() => document.querySelectorAll('.u-legend').length === 3);
      t.pass('the tiles show the stream\'s numbers; the three uPlot charts are mounted');
      await page.locator('td', { hasText: /^(uws|node), HTTP\/1\.1$/ }).waitFor({ timeout: 5000 });
      t.pass('the Servers table says what serves the HTTP port');
    });

    t.test('no script error on any page', async (t) => {
      for (const name of ['Overview', 'Routes', 'Fixtures', 'State & time']) await open(name);
      t.same(errors, []);
    });
  });
}

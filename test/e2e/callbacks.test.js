// OpenAPI callbacks, custom routes' callbacks and OpenAPI 3.1 webhooks (docs/callbacks-webhooks.md),
// through `mock serve` as a process and a receiver this test runs: the runtime expressions
// evaluated, the bodies, the retries after a failing receiver, the allowlist's refusals (by name
// and by resolved address), the Standard Webhooks signature checked here with node:crypto, the
// admin write's guards, `mock webhooks send`, the schedules, and the stage only on routes that
// declare callbacks; the web dashboard (headless Chromium) shows the entries.
import t from 'tap';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { corpus, root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { envelope, failure, post } from '../helpers/admin.js';
import { until } from '../helpers/wait.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';
import { onceAcrossBackends } from '../helpers/node-http.js';

const spec = path.join(root, 'test/fixtures/openapi/callbacks.yaml');
const corpusCallbacks = path.join(corpus, 'openapi/oai-v3.0-callback-example.yaml');
const KEY = Buffer.from('a secret key of the test');
const SECRET = `whsec_${KEY.toString('base64')}`;
const MANAGEMENT = 'a-hosted-management-token-of-the-test';

/** A receiver on 127.0.0.1 that keeps every request; `/flaky` answers 503 twice before 204. */
async function receiver() {
  const seen = [];
  let flaky = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.statusCode = req.url.startsWith('/flaky') && ++flaky <= 2 ? 503 : 204;
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { seen, origin: `http://127.0.0.1:${server.address().port}`, port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

const hooks = await receiver();
t.teardown(() => hooks.close());

const project = tmpdir();
writeFileSync(
  path.join(project, 'mock.yaml'),
  [
    `specs: [${JSON.stringify(spec)}]`,
    'callbacks:',
    '  retries: 2',
    '  retry_delay_ms: 20',
    '  delays: [{ operation: deliver, callback: onConfigured, delay_ms: 600 }]',
    '  webhooks:',
    `    secret: ${SECRET}`,
    '    schedules:',
    `      - { webhook: newPet, url: "${hooks.origin}/scheduled", every_seconds: 1, body: { scheduled: true } }`,
    'http:',
    '  routes:',
    '    - method: POST',
    '      path: /orders',
    '      response: { status: 202, body: { orderId: ord-9 } }',
    '      callbacks:',
    '        - name: orderReady',
    '          url: "{$request.body#/notify}/ready"',
    '          headers: { x-order: "{$response.body#/orderId}", x-label: "{$request.body#/label}" }',
    '          body: { order: "{$response.body#/orderId}", items: "{$request.body#/items}", note: "order {$response.body#/orderId} is ready" }',
    '        - name: flaky',
    `          url: "${hooks.origin}/flaky"`,
    '        - name: later',
    `          url: "${hooks.origin}/later"`,
    '          delay_ms: 300',
    '        - name: metadata',
    '          url: "http://169.254.169.254/latest/meta-data"',
    '        - name: elsewhere',
    '          url: "http://hooks.example.com/x"',
    '    - method: GET',
    '      path: /plain',
    '      response: { status: 200, body: { plain: true } }',
  ].join('\n'),
);
const server = await startMock(['--out', tmpdir(), '--admin', '--admin-port', '0'], { cwd: project });
t.teardown(() => server.stop());

const logs = async () => (await (await fetch(`${server.adminUrl}/__mock/logs?source=callback&limit=1000`)).json()).data;
const requestsTo = (prefix) => hooks.seen.filter((r) => r.url.startsWith(prefix));

t.test("an operation's callbacks: every runtime expression evaluated, the example body, a body sampled from the schema", async (t) => {
  const res = await fetch(`${server.url}/subscriptions/acme?topic=pets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace': 'trace-1' },
    body: JSON.stringify({ callbackUrl: `${hooks.origin}/sub`, events: ['created'] }),
  });
  t.equal(res.status, 201, 'the operation answers first');
  t.same(await res.json(), { id: 'sub-42', status: 'active' });
  const [event] = await until(() => requestsTo('/sub/events').length > 0 && requestsTo('/sub/events'), 10_000, 'the onEvent callback');
  const url = new URL(event.url, hooks.origin);
  t.equal(url.pathname, '/sub/events/sub-42', '$request.body#/callbackUrl and $response.body#/id');
  t.equal(url.searchParams.get('topic'), 'pets', '$request.query.topic');
  t.equal(url.searchParams.get('tenant'), 'acme', '$request.path.tenant');
  t.equal(url.searchParams.get('status'), '201', '$statusCode');
  t.equal(url.searchParams.get('method'), 'POST', '$method');
  t.equal(url.searchParams.get('trace'), 'trace-1', '$request.header.x-trace (case-insensitive)');
  t.equal(event.method, 'POST');
  t.same(JSON.parse(event.body), { event: 'subscription.created', seq: 1 }, "the callback's example body");
  t.equal(event.headers['content-type'], 'application/json');
  const [audit] = await until(() => requestsTo('/sub/audit').length > 0 && requestsTo('/sub/audit'), 10_000, 'the onAudit callback');
  t.equal(audit.method, 'PUT', "the callback's own method");
  const sampled = JSON.parse(audit.body);
  t.equal(sampled.kind, 'audit', 'sampled from the schema (its enum)');
  t.ok(!Number.isNaN(Date.parse(sampled.at)), 'a date-time where the schema asks for one');
  const entries = await until(async () => {
    const list = (await logs()).filter((e) => e.callback?.trigger === 'POST /subscriptions/{tenant}');
    return list.length >= 2 && list;
  });
  const onEvent = entries.find((e) => e.callback.name === 'onEvent');
  t.match(onEvent, { method: 'POST', path: '/sub/events/sub-42', status_code: 204, source: 'callback', callback: { kind: 'callback', outcome: 'delivered', attempts: 1 } }, 'kept in the request log');
  t.notMatch(onEvent.callback.url, /\?/, 'the logged URL leaves out the query (it may carry a credential)');
});

t.test("a custom route's callbacks: expressions in the URL, headers and body; retries; the allowlist by name", async (t) => {
  const res = await post(`${server.url}/orders`, { notify: `${hooks.origin}/orders`, items: [1, 2] });
  t.equal(res.status, 202);
  const [ready] = await until(() => requestsTo('/orders/ready').length > 0 && requestsTo('/orders/ready'), 10_000, 'orderReady');
  t.equal(ready.method, 'POST', 'POST by default');
  t.equal(ready.headers['x-order'], 'ord-9', 'an expression in a header');
  t.same(JSON.parse(ready.body), { order: 'ord-9', items: [1, 2], note: 'order ord-9 is ready' }, 'a whole expression keeps its type, an embedded one is text');
  await until(() => requestsTo('/flaky').length === 3, 10_000, 'three attempts at the failing receiver');
  const entries = await until(async () => {
    const list = (await logs()).filter((e) => e.callback?.trigger === 'POST /orders');
    return list.length >= 5 && list;
  });
  const byName = Object.fromEntries(entries.map((e) => [e.callback.name, e]));
  t.match(byName.flaky, { status_code: 204, callback: { outcome: 'delivered', attempts: 3 } }, 'delivered on the third attempt (retries: 2)');
  t.match(byName.metadata, { status_code: 0, callback: { outcome: 'refused', attempts: 0 } }, 'a link-local address not in allowed_hosts is refused');
  t.match(byName.metadata.error_message, /not in callbacks\.allowed_hosts/);
  t.match(byName.elsewhere, { callback: { outcome: 'refused', attempts: 0 } }, 'a host not in allowed_hosts is refused');
  t.match(byName.elsewhere.error_message, /hooks\.example\.com is not in callbacks\.allowed_hosts/);
  t.equal(requestsTo('/flaky').length, 3, 'no more attempts than retries + 1');
  t.ok(byName.later.response_time_ms >= 300, `a callback's own delay_ms is waited before sending (its entry took ${byName.later.response_time_ms} ms)`);
  await post(`${server.url}/orders`, { notify: `${hooks.origin}/unwritable`, label: 'snow ☃' });
  const unwritable = await until(async () => (await logs()).find((e) => e.callback?.url.endsWith('/unwritable/ready')));
  t.match(unwritable, { callback: { outcome: 'refused', attempts: 0 } }, 'a header value a field cannot carry: refused, and the server goes on');
  t.match(unwritable.error_message, /Invalid character in header content \["x-label"\]/);
  await post(`${server.url}/orders`, { notify: 'nowhere' });
  const bad = await until(async () => (await logs()).find((e) => e.callback?.name === 'orderReady' && e.callback.outcome === 'refused'));
  t.match(bad.error_message, /gave "nowhere\/ready", not an absolute URL/, 'a URL that evaluates to no URL is refused and logged');
});

t.test('only routes that declare callbacks run the stage', async (t) => {
  const dashboard = await envelope(t, await fetch(`${server.adminUrl}/__mock/dashboard`));
  const row = (method, p) => dashboard.routes.find((r) => r.method === method && r.path === p);
  t.ok(row('POST', '/subscriptions/{tenant}').stages.includes('callbacks'), 'the operation with callbacks');
  t.ok(row('POST', '/orders').stages.includes('callbacks'), 'the custom route with callbacks');
  t.notOk(row('GET', '/plain').stages.includes('callbacks'), 'a route without: not on its path');
  const before = hooks.seen.length;
  const refused = await fetch(`${server.url}/subscriptions/acme`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ callbackUrl: `${hooks.origin}/refused` }),
  });
  t.equal(refused.status, 400, 'a request missing its required query is refused');
  await (await fetch(`${server.url}/plain`)).text();
  await post(`${server.url}/orders`, { notify: `${hooks.origin}/marker` });
  await until(() => requestsTo('/marker').length > 0, 10_000, 'a later callback');
  t.same(requestsTo('/refused'), [], 'a refused request sends no callback');
  t.ok(hooks.seen.length > before);
});

/** Standard Webhooks: v1,<base64 HMAC-SHA256 of id.timestamp.body>, verified without the server's code. */
function verify(t, request) {
  const id = request.headers['webhook-id'];
  const timestamp = request.headers['webhook-timestamp'];
  t.match(id, /^msg_/, 'webhook-id');
  t.match(timestamp, /^\d+$/, 'webhook-timestamp in seconds');
  t.ok(Math.abs(Number(timestamp) - Date.now() / 1000) < 300, 'a current timestamp');
  const expected = `v1,${createHmac('sha256', KEY).update(`${id}.${timestamp}.${request.body}`).digest('base64')}`;
  t.equal(request.headers['webhook-signature'], expected, 'the signature verifies with the secret');
}

t.test('webhooks: sent on demand over the admin API, signed per Standard Webhooks', async (t) => {
  const list = await envelope(t, await fetch(`${server.adminUrl}/__mock/webhooks`));
  t.same(list.webhooks, ['newPet']);
  const sent = await envelope(t, await post(`${server.adminUrl}/__mock/webhooks/newPet/send`, { url: `${hooks.origin}/hooks/admin` }));
  t.match(sent, { kind: 'webhook', name: 'newPet', outcome: 'delivered', attempts: 1, status: 204, via: 'admin' });
  const [request] = requestsTo('/hooks/admin');
  t.same(JSON.parse(request.body), { id: 7, name: 'Rex' }, "the description's example");
  t.equal(request.headers['x-event-type'], 'pet.created', "a header parameter of the webhook's path item, with its example");
  t.match(request.headers['x-delivery'], /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a required one without a value: generated from its schema (uuid)');
  t.equal(new URL(request.url, hooks.origin).searchParams.get('source'), 'mock', "an optional query parameter with a default, added to the target's query");
  verify(t, request);
  const custom = await envelope(t, await post(`${server.adminUrl}/__mock/webhooks/newPet/send`, { url: `${hooks.origin}/hooks/custom`, body: { id: 8, name: 'Fido' } }));
  t.equal(custom.outcome, 'delivered');
  const [second] = requestsTo('/hooks/custom');
  t.same(JSON.parse(second.body), { id: 8, name: 'Fido' }, 'a body given');
  verify(t, second);
  t.not(second.headers['webhook-id'], request.headers['webhook-id'], 'a new id per message');
});

t.test("webhooks: the admin write's rules, unknown names and hosts outside the allowlist", async (t) => {
  await failure(t, await post(`${server.adminUrl}/__mock/webhooks/newPet/send`, { url: `${hooks.origin}/hooks/evil` }, { headers: { origin: 'http://evil.example' } }), 403, /cross-site/);
  await failure(
    t,
    await fetch(`${server.adminUrl}/__mock/webhooks/newPet/send`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ url: `${hooks.origin}/hooks/evil` }) }),
    415,
  );
  await failure(t, await post(`${server.adminUrl}/__mock/webhooks/nope/send`, { url: `${hooks.origin}/hooks/nope` }), 404, /no webhook named "nope".*known: newPet/);
  await failure(t, await post(`${server.adminUrl}/__mock/webhooks/newPet/send`, { url: 'http://10.1.2.3/hook' }), 400, /10\.1\.2\.3 is not in callbacks\.allowed_hosts/);
  await failure(t, await post(`${server.adminUrl}/__mock/webhooks/newPet/send`, { url: `${hooks.origin}/x`, extra: 1 }), 400, /unknown field "extra"/);
  // callbacks of earlier subtests (a delay_ms, retries) may still arrive: only what these sends aimed at counts
  t.same([...requestsTo('/hooks/evil'), ...requestsTo('/hooks/nope'), ...requestsTo('/x')], [], 'nothing refused reached the receiver');
  const refusals = (await logs()).filter((e) => e.callback?.kind === 'webhook' && e.callback.outcome === 'refused');
  t.ok(
    refusals.some((e) => e.callback.url.startsWith('http://10.1.2.3')),
    'the refusal is in the request log',
  );
});

t.test(
  'the web dashboard shows what was sent, where, and how it went',
  { skip: CHROMIUM_MISSING || onceAcrossBackends('the page reads the admin API, whichever library serves the mock') },
  async (t) => {
    const context = await launchChromium({ viewport: { width: 1280, height: 800 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.adminUrl}/`);
    await page.locator('nav').getByRole('link', { name: 'Live log', exact: true }).click();
    const row = page.locator('.log-row', { hasText: 'callback onEvent' });
    const detailFields = async () =>
      Object.fromEntries(await page.locator('.detail [data-testid=protocol-fields] dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
    // the scheduled webhook adds rows every second, which may move the list under a click: click until the detail is the row's
    const fields = await until(async () => {
      await row.click();
      const shown = await detailFields();
      return shown.callback === 'onEvent' && shown;
    });
    t.match(await row.textContent(), /POST\s*204\s*\/sub\/events\/sub-42/, 'the row: method, status, the path it was sent to, the callback in the route column');
    t.same(fields, { callback: 'onEvent', 'sent to': `${hooks.origin}/sub/events/sub-42`, outcome: 'delivered after 1 attempt', after: 'POST /subscriptions/{tenant}' }, 'its detail');
    t.same(errors, [], 'no script error');
  },
);

t.test('mock webhooks send talks to the admin API', async (t) => {
  const res = await runMock(['webhooks', 'send', 'newPet', '--url', `${hooks.origin}/hooks/cli`, '--body', '{"id": 9}', '--admin-url', server.adminUrl]);
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, /webhook newPet to http:\/\/127\.0\.0\.1:\d+\/hooks\/cli: delivered after 1 attempt\(s\), status 204/);
  const [request] = requestsTo('/hooks/cli');
  t.same(JSON.parse(request.body), { id: 9 });
  verify(t, request);
  const refused = await runMock(['webhooks', 'send', 'newPet', '--url', 'http://hooks.example.com/x', '--admin-url', server.adminUrl]);
  t.not(refused.code, 0, 'a refusal exits non-zero');
  t.match(refused.stderr, /hooks\.example\.com is not in callbacks\.allowed_hosts/);
  const bad = await runMock(['webhooks', 'send', 'newPet', '--url', `${hooks.origin}/x`, '--body', '{nope', '--admin-url', server.adminUrl]);
  t.not(bad.code, 0);
  t.match(bad.stderr, /--body: not JSON/);
});

t.test('webhooks on a schedule', async (t) => {
  const [request] = await until(() => requestsTo('/scheduled').length > 0 && requestsTo('/scheduled'), 15_000, 'a scheduled webhook');
  t.same(JSON.parse(request.body), { scheduled: true }, "the schedule's body");
  verify(t, request);
  const entry = await until(async () => (await logs()).find((e) => e.callback?.via === 'schedule'));
  t.match(entry, { callback: { kind: 'webhook', name: 'newPet', outcome: 'delivered' } });
});

t.test("a callback operation's parameters (the description's values or generated ones, serialised by style); per-callback delays", async (t) => {
  const res = await post(`${server.url}/deliveries`, { callbackUrl: `${hooks.origin}/deliver` });
  t.equal(res.status, 202);
  const arrived = await until(() => requestsTo('/deliver/').length === 3 && requestsTo('/deliver/'), 10_000, 'the three callbacks of deliver');
  t.same(
    arrived.map((r) => new URL(r.url, hooks.origin).pathname),
    ['/deliver/now', '/deliver/params', '/deliver/configured'],
    "sent in the order of their delays: none, x-mock-delay-ms 300, callbacks.delays 600 (over the path item's x-mock-delay-ms 5)",
  );
  const { headers, url } = arrived[1];
  t.equal(headers['x-region'], 'eu-west', 'a required header of the path item, its example');
  t.equal(headers['x-tenant'], 'acme', "the operation's parameter over the path item's of the same name");
  t.equal(headers['x-tags'], 'red,blue', 'an array: style simple');
  t.equal(headers['x-filter'], 'role=admin,first=20', 'an object: style simple, explode');
  t.match(headers['x-request-id'], /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'generated from the schema: a uuid');
  t.ok(/^[1-5]$/.test(headers['x-priority']), `generated from the schema: an integer from 1 to 5 (${headers['x-priority']})`);
  t.equal(headers['x-mode'], 'fast', 'an optional header with a default is sent');
  t.notOk('x-optional' in headers, 'an optional header with a schema only is not');
  t.equal(headers['content-type'], 'application/json', 'a Content-Type parameter is ignored (OpenAPI says so): the body says its type');
  t.notOk('webhook-signature' in headers, 'nor does a parameter write a signature header');
  t.equal(headers.cookie, 'session=s%201', 'a cookie parameter');
  const query = new URL(url, hooks.origin).searchParams;
  t.equal(query.get('page'), '2', 'a query parameter');
  t.same(query.getAll('ids'), ['3', '4'], 'an array: style form, explode');
  t.same(query.getAll('fixed'), ['url'], "the URL's own query stays as the description wrote it");
  t.notOk(query.has('limit'), 'an optional query parameter without a value is not sent');
  const entries = await until(async () => {
    const list = (await logs()).filter((e) => e.callback?.trigger === 'POST /deliveries');
    return list.length === 3 && Object.fromEntries(list.map((e) => [e.callback.name, e]));
  });
  t.ok(entries.onParams.response_time_ms >= 300, `x-mock-delay-ms is waited (${entries.onParams.response_time_ms} ms)`);
  t.ok(entries.onConfigured.response_time_ms >= 600, `callbacks.delays is waited, over x-mock-delay-ms (${entries.onConfigured.response_time_ms} ms)`);
});

t.test('a listed name that resolves to an address outside the allowlist is refused where it connects; sends need the editor role', async (t) => {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    [`specs: [${JSON.stringify(spec)}]`, 'callbacks:', '  allowed_hosts: [localhost]', '  retries: 0', 'admin:', `  management_token: ${MANAGEMENT}`, '  auth: { enabled: true }'].join('\n'),
  );
  const narrow = await startMock(['--out', tmpdir(), '--admin', '--admin-port', '0'], {
    cwd: dir,
    env: { JWT_SECRET: undefined, MOCK_DISABLE_DEV_SEED_USERS: undefined, MOCK_ADMIN_AUTH_ENABLED: undefined, MOCK_MANAGEMENT_TOKEN: undefined },
  });
  t.teardown(() => narrow.stop());
  for (const target of [`http://localhost:${hooks.port}/by-name`, `${hooks.origin}/by-address`]) {
    const res = await post(`${narrow.url}/subscriptions/acme?topic=t`, { callbackUrl: target }, { headers: { 'x-trace': 'n' } });
    t.equal(res.status, 201);
  }
  const entries = await until(async () => {
    const list = (await (await fetch(`${narrow.adminUrl}/__mock/logs?source=callback`)).json()).data;
    return list.length >= 4 && list;
  });
  const byName = entries.filter((e) => e.callback.url.includes('/by-name/'));
  const byAddress = entries.filter((e) => e.callback.url.includes('/by-address/'));
  t.equal(byName.length, 2);
  for (const entry of byName) {
    t.match(entry, { callback: { outcome: 'refused', attempts: 0 } }, 'localhost is listed, the loopback address it resolves to is not');
    t.match(entry.error_message, /resolves to (127\.0\.0\.1|::1), a loopback, link-local or private address not in callbacks\.allowed_hosts/);
  }
  t.equal(byAddress.length, 2);
  for (const entry of byAddress) t.match(entry, { callback: { outcome: 'refused' } }, 'an address not listed');

  const send = (token, management = MANAGEMENT) =>
    fetch(`${narrow.adminUrl}/__mock/webhooks/newPet/send`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(management === null ? {} : { 'x-mock-management-token': management }),
      },
      body: JSON.stringify({ url: `http://localhost:${hooks.port}/by-role` }),
    });
  const tokenOf = async (username) => (await envelope(t, await post(`${narrow.adminUrl}/__mock/auth/login`, { username, password: `${username}-dev-password` }))).access_token;
  await failure(t, await send(), 401);
  await failure(t, await send(await tokenOf('viewer')), 403, /editor/);
  const editor = await tokenOf('editor');
  await failure(t, await send(editor, null), 401, /X-Mock-Management-Token/);
  const asEditor = await envelope(t, await send(editor));
  t.match(asEditor, { outcome: 'refused', attempts: 0 }, 'an editor with the management token may send; the address check still refuses it');
  const cli = await runMock(['webhooks', 'send', 'newPet', '--url', `http://localhost:${hooks.port}/by-cli`, '--admin-url', narrow.adminUrl, '--token', editor], {
    env: { MOCK_MANAGEMENT_TOKEN: MANAGEMENT },
  });
  t.equal(cli.code, 1, 'the CLI carries both tokens, and exits 1 when the webhook was not delivered');
  t.match(cli.stdout, /webhook newPet to http:\/\/localhost:\d+\/by-cli: refused after 0 attempt\(s\) \(localhost resolves to/);
  t.same(requestsTo('/by-'), [], 'the receiver was never called');
});

t.test('the corpus callback example: {$request.query.callbackUrl}/data with a body sampled from its schema', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${JSON.stringify(corpusCallbacks)}]\n`);
  const mock = await startMock(['--out', tmpdir()], { cwd: dir });
  t.teardown(() => mock.stop());
  const res = await fetch(`${mock.url}/streams?callbackUrl=${encodeURIComponent(`${hooks.origin}/corpus`)}`, { method: 'POST' });
  t.equal(res.status, 201);
  const [request] = await until(() => requestsTo('/corpus/data').length > 0 && requestsTo('/corpus/data'), 10_000, 'the corpus callback');
  t.equal(request.method, 'POST');
  const body = JSON.parse(request.body);
  t.type(body.userData, 'string', 'userData sampled');
  t.ok(!Number.isNaN(Date.parse(body.timestamp)), 'timestamp sampled as a date-time');
});

t.test('a custom route callback outside the grammar fails the build in one line', async (t) => {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    [`specs: [${JSON.stringify(spec)}]`, 'http:', '  routes:', '    - path: /x', '      callbacks:', '        - url: "{$request.cookie.session}/x"'].join('\n'),
  );
  const res = await runMock(['build', '--out', tmpdir()], { cwd: dir });
  t.not(res.code, 0);
  t.match(res.stderr, /http\.routes\[0\]\.callbacks\[0\]\.url: "\$request\.cookie\.session": expected header\.<name>, query\.<name>, path\.<name> or body\[#\/pointer\]/);
});

t.test('callbacks settings the sender could not use are refused in one line each', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'mock.yaml'), [`specs: [${JSON.stringify(spec)}]`, 'callbacks:', '  allowed_hosts: [localhost, 10.0.0.0/99]', '  webhooks: { secret: "whsec_not base64!" }'].join('\n'));
  const res = await runMock(['config', 'validate'], { cwd: dir });
  t.not(res.code, 0);
  const output = res.stdout + res.stderr;
  t.match(output, /callbacks\.allowed_hosts\[1\].*is not a CIDR range such as 10\.1\.0\.0\/16/);
  t.match(output, /callbacks\.webhooks\.secret.*expected whsec_ followed by base64/);
  t.notMatch(output, /not base64!/, 'the secret is not printed');

  const unknown = tmpdir();
  writeFileSync(
    path.join(unknown, 'mock.yaml'),
    [`specs: [${JSON.stringify(spec)}]`, 'callbacks:', '  webhooks:', '    schedules: [{ webhook: oldPet, url: "http://localhost:4000/x", every_seconds: 5 }]'].join('\n'),
  );
  const serve = await runMock(['serve', '--http-port', '0', '--host', '127.0.0.1', '--out', tmpdir()], { cwd: unknown, timeoutMs: 60_000 });
  t.not(serve.code, 0, 'a schedule of a webhook the description does not declare stops the start');
  t.match(serve.stderr, /callbacks\.webhooks\.schedules\[0\]\.webhook: no webhook named "oldPet" in the served descriptions \(known: newPet\)/);

  const delays = tmpdir();
  writeFileSync(path.join(delays, 'mock.yaml'), [`specs: [${JSON.stringify(spec)}]`, 'callbacks:', '  delays: [{ operation: deliver, callback: onConfigured, delay_ms: -5 }]'].join('\n'));
  const invalid = await runMock(['config', 'validate'], { cwd: delays });
  t.not(invalid.code, 0);
  t.match(invalid.stdout + invalid.stderr, /callbacks\.delays\[0\]\.delay_ms: expected number >= 0, got -5/, 'a bad delay is refused naming its key');
  writeFileSync(path.join(delays, 'mock.yaml'), [`specs: [${JSON.stringify(spec)}]`, 'callbacks:', '  delays: [{ operation: deliver, callback: onConfgured, delay_ms: 5 }]'].join('\n'));
  const typo = await runMock(['serve', '--http-port', '0', '--host', '127.0.0.1', '--out', tmpdir()], { cwd: delays, timeoutMs: 60_000 });
  t.not(typo.code, 0, 'a delay for a callback the operation does not declare stops the start');
  t.match(typo.stderr, /callbacks\.delays\[0\]\.callback: operation "deliver" has no callback "onConfgured" \(known: onParams, onNow, onConfigured\)/);
});

t.test('the corpus tic-tac-toe (OpenAPI 3.1): {$request.header.progressUrl}, and its webhook without a body', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${JSON.stringify(path.join(corpus, 'openapi/oai-v3.1-tictactoe.yaml'))}]\n`);
  const mock = await startMock(['--out', tmpdir(), '--admin', '--admin-port', '0'], { cwd: dir });
  t.teardown(() => mock.stop());
  const without = await fetch(`${mock.url}/board/1/2`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: 'Bearer token' }, body: JSON.stringify('O') });
  t.ok(without.status >= 200 && without.status < 300, 'a request without progressUrl');
  const res = await fetch(`${mock.url}/board/1/1`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: 'Bearer token', progressurl: `${hooks.origin}/progress` },
    body: JSON.stringify('X'),
  });
  t.ok(res.status >= 200 && res.status < 300, `answered ${res.status}`);
  const [request] = await until(() => requestsTo('/progress').length > 0 && requestsTo('/progress'), 10_000, 'statusCallback');
  t.equal(request.method, 'POST');
  const status = JSON.parse(request.body);
  t.ok('winner' in status && Array.isArray(status.board), 'a status sampled from the schema it $refs');
  // the entry is written once the receiver's answer is back
  const entries = await until(async () => {
    const list = (await (await fetch(`${mock.adminUrl}/__mock/logs?source=callback`)).json()).data.filter((e) => e.callback.name === 'statusCallback');
    return list.length > 0 && list;
  });
  t.equal(entries.length, 1, 'the request without the header sent nothing and logged no refusal: the callback does not apply to it');
  const sent = await envelope(t, await post(`${mock.adminUrl}/__mock/webhooks/markStatus/send`, { url: `${hooks.origin}/mark-status` }));
  t.equal(sent.outcome, 'delivered');
  const [hook] = requestsTo('/mark-status');
  t.equal(hook.body, '', 'a webhook without a request body sends none');
  t.notOk('content-type' in hook.headers, 'and says no media type');
  t.notOk('webhook-signature' in hook.headers, 'no secret, no signature');
});

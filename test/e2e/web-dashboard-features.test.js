// The web dashboard's pages of the features that landed before it, in headless Chromium against a
// running `mock serve --admin` with fixtures, a state machine, the reality continuum (a real
// upstream on loopback) and time travel: fixtures listed, downloaded, smoke-run, deleted one and in
// bulk; a machine's resources counted and reset; the continuum's ratio set with its slider; the
// virtual clock advanced. Each change is checked through the admin API, not only on the page.
// The same server mocks GraphQL, gRPC and WebSocket: the live log's route column and detail show
// each protocol's fields; the Routes page counts a mock.yaml route apart from the operation of its
// METHOD path; numbers are formatted; the page asks for nothing that 404s (favicon.ico).
import t from 'tap';
import http from 'node:http';
import http2 from 'node:http2';
import WebSocket from 'ws';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';
import { until } from '../helpers/wait.js';

if (CHROMIUM_MISSING) {
  t.skip(CHROMIUM_MISSING);
} else {
  const upstream = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"source":"upstream"}'));
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => upstream.close());

  const dir = tmpdir();
  mkdirSync(path.join(dir, 'fixtures', 'http'), { recursive: true });
  const fixtures = {
    'smoke.json': fixture({ fingerprint: { method: 'GET', path: '/v1/pets/1', query_params: {}, headers: {} }, response_body: '{"id":1,"name":"Tom","kind":"cat"}', metadata: { smoke_test: 'true' } }),
    'one.json': fixture({ fingerprint: { method: 'GET', path: '/v1/recorded/1', query_params: {}, headers: {} } }),
    'two.json': fixture({ fingerprint: { method: 'GET', path: '/v1/recorded/2', query_params: {}, headers: {} } }),
  };
  for (const [name, content] of Object.entries(fixtures)) writeFileSync(path.join(dir, 'fixtures', 'http', name), JSON.stringify(content));
  cpSync(path.join(root, 'test', 'fixtures', 'grpc', 'library'), path.join(dir, 'proto', 'library'), { recursive: true });
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    [
      `specs: [${JSON.stringify(path.join(root, 'examples', 'petstore.yaml'))}]`,
      'server: { ws_port: 0, graphql_port: 0, grpc_port: 0 }',
      "websocket: { routes: [{ path: '/echo/{any}', echo: true }] }",
      `graphql: { schema: ${JSON.stringify(path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql'))} }`,
      'http:',
      '  routes:',
      '    - { method: GET, path: /v1/pets, match: { query: { kind: cat } }, response: { status: 200, body: [{ id: 9, name: Custom }] } }',
      'core:',
      '  fixtures: { dir: fixtures, replay_enabled: true }',
      '  stateful:',
      '    enabled: true',
      '    state_machines:',
      '      - name: orders',
      '        initial_state: initial',
      '        resource_id_extract: { type: json_path, path: $.order_id }',
      '        states:',
      '          - { name: pending, response: { status_code: 201, body_template: { order_id: "{{resource_id}}", status: pending } } }',
      '        transitions:',
      '          - { method: POST, path_pattern: /api/orders, from_state: initial, to_state: pending }',
      'reality_continuum: { enabled: true, default_ratio: 0, merge_strategy: weighted }',
      'time_travel: { enabled: true, initial_time: "2030-01-01T00:00:00Z", scale_factor: 1 }',
      '',
    ].join('\n'),
  );
  const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--admin', '--admin-port', '0'], { cwd: dir, env: { MOCK_PROXY_UPSTREAM: `http://127.0.0.1:${upstream.address().port}` } });
  t.teardown(() => server.stop());
  const { url: mockUrl, adminUrl } = server;
  const api = async (p) => (await (await fetch(`${adminUrl}/__mock/${p}`)).json()).data;

  const context = await launchChromium({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const missing = [];
  page.on('response', (r) => r.status() === 404 && missing.push(r.url()));
  const asked = [];
  page.on('request', (r) => asked.push(r.url()));
  const open = async (name) => {
    await page.locator('nav').getByRole('link', { name, exact: true }).click();
    await page.locator('h2').first().waitFor();
  };
  await page.goto(`${adminUrl}/`);

  t.test('the live log: a GraphQL operation, a gRPC call and a WebSocket session, each with its route and fields', async (t) => {
    const graphqlUrl = /GraphQL on (http:\/\/\S+)/.exec(server.stdout)[1];
    const grpcAddress = /gRPC on (\S+)/.exec(server.stdout)[1];
    const query = await fetch(graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query Me { me { id } }', operationName: 'Me' }) });
    t.equal(query.status, 200, 'a GraphQL query');
    const ws = new WebSocket(`${server.wsUrl}/echo/one`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send('hello');
    await new Promise((resolve) => ws.once('message', resolve));
    ws.close(1000, 'done');
    await new Promise((resolve) => ws.once('close', resolve));
    await new Promise((resolve, reject) => {
      const client = http2.connect(`http://${grpcAddress}`);
      client.on('error', reject);
      const call = client.request({ ':method': 'POST', ':path': '/library.v1.Library/GetBook', 'content-type': 'application/grpc', te: 'trailers' });
      call.on('close', () => (client.close(), resolve()));
      call.resume();
      call.end(Buffer.alloc(5));
    });

    await open('Live log');
    const row = (text) => page.locator('.log-row', { hasText: text });
    const detail = page.locator('.detail');
    const fields = async () => Object.fromEntries(await detail.locator('[data-testid=protocol-fields] dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));

    await row('query Me').click();
    t.match(await row('query Me').textContent(), /POST\s*200\s*\/graphql/, 'the GraphQL row: the operation in the route column');
    t.same(await fields(), { 'operation type': 'query', 'operation name': 'Me' }, 'its detail: the operation');
    t.notMatch(await detail.textContent(), /\[object Object\]/);

    await row('library.v1.Library/GetBook').click();
    t.same(await fields(), { service: 'library.v1.Library', method: 'GetBook', 'grpc status': 'OK', messages: '1 in, 1 out' }, 'the gRPC call: its service, method and status');
    t.match(await detail.textContent(), /routePOST \/library\.v1\.Library\/GetBook/, 'and the route the server logged');

    await row('WS /echo/{any}').click();
    t.match(await row('WS /echo/{any}').textContent(), /\/echo\/one/, 'the WebSocket row: its route beside the path');
    t.same(await fields(), { path: '/echo/one', messages: '1 in, 1 out', closed: '1000 done', played: 'echo' }, 'the session: path, messages, close');
    t.notMatch(await detail.textContent(), /\[object Object\]/);
    await detail.getByRole('button', { name: 'Close' }).click();
  });

  t.test('the Routes page counts the route that answered, not every route of its METHOD path', async (t) => {
    for (let i = 0; i < 2; i++) t.same(await (await fetch(`${mockUrl}/v1/pets?kind=cat`)).json(), [{ id: 9, name: 'Custom' }], 'the mock.yaml route answers');
    for (let i = 0; i < 3; i++) t.equal((await fetch(`${mockUrl}/v1/pets`)).status, 200, 'the description answers');
    await open('Routes');
    await page.locator('.routes-page input').fill('GET /v1/pets');
    const row = (source) => page.locator('.route-row', { hasText: source }).filter({ has: page.locator('.path', { hasText: /^\/v1\/pets$/ }) });
    await row('mock.yaml').waitFor();
    const cells = async (source) => (await row(source).locator(':scope > span').allTextContents()).slice(2, 5);
    await until(async () => (await cells('description'))[1] === '3', 10_000, 'the description row to count 3');
    t.same(await cells('description'), ['description', '3', '0'], 'the operation: its three requests');
    t.same(await cells('mock.yaml'), ['mock.yaml', '2', '0'], 'the mock.yaml route: its two');
    t.match(await row('mock.yaml').textContent(), /200×2/, 'with its own statuses');
    await page.locator('.routes-page input').fill('');
  });

  t.test('numbers are formatted: a rate of 1000 a minute reads 16.67 per second', async (t) => {
    const res = await fetch(`${adminUrl}/__mock/api/chaos/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rate_limit: { requests_per_second: 1000 / 60 } }) });
    t.equal(res.status, 200);
    await open('Chaos');
    const rate = page.locator('section', { has: page.locator('h3', { hasText: 'Rate limit' }) }).locator('input[name=requests_per_second]');
    await until(async () => (await rate.inputValue()) !== '', 10_000, 'the rate limit form');
    t.equal(await rate.inputValue(), '16.67');
    await fetch(`${adminUrl}/__mock/api/chaos/config/reset`, { method: 'POST' });
  });

  t.test('fixtures: listed, downloaded, smoke-run, deleted one and in bulk', async (t) => {
    await open('Fixtures');
    const rows = page.locator('table.list tbody tr');
    await rows.nth(2).waitFor();
    t.equal(await rows.count(), 3, 'the three fixture files');
    const [download] = await Promise.all([page.waitForEvent('download'), rows.filter({ hasText: '/v1/recorded/1' }).getByText('Download').click()]);
    let text = '';
    for await (const chunk of await download.createReadStream()) text += chunk;
    t.match(JSON.parse(text), { fingerprint: { path: '/v1/recorded/1' } }, 'a download is the fixture file');

    await page.getByRole('button', { name: 'Smoke run' }).click();
    await page.locator('pre', { hasText: '/v1/pets/1' }).waitFor();
    t.match(await page.locator('pre').textContent(), /"passed": true/, 'the smoke test replays and passes');

    await rows.filter({ hasText: '/v1/recorded/1' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText(/^Deleted /).waitFor();
    t.same((await api('fixtures')).map((f) => f.path).sort(), ['/v1/pets/1', '/v1/recorded/2'], 'one deleted');

    await rows.filter({ hasText: '/v1/recorded/2' }).locator('input[type=checkbox]').check();
    await page.getByRole('button', { name: 'Delete selected (1)' }).click();
    await page.getByText('Deleted 1').waitFor();
    t.same((await api('fixtures')).map((f) => f.path), ['/v1/pets/1'], 'and one in bulk');
  });

  t.test('state machines: resources counted, and reset', async (t) => {
    const created = await fetch(`${mockUrl}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order_id":"o-1"}' });
    t.equal(created.status, 201, 'an order enters the machine');
    const orders = async () => (await api('state')).find((m) => m.name === 'orders');
    t.equal((await orders()).resources, 1, 'the API counts it');
    await open('State & time');
    const row = page.locator('tr', { hasText: 'orders' });
    await row.getByText('1 resources').waitFor();
    t.match(await row.textContent(), /\[initial\] → pending/, 'its states, the initial one marked');
    await row.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('orders reset').waitFor();
    t.equal((await orders()).resources, 0, 'no resource left');
  });

  t.test('the continuum ratio is set with its slider', async (t) => {
    const form = page.locator('section', { has: page.locator('input[type=range]') });
    await form.locator('input[type=range]').fill('0.5');
    await form.getByText('Upstream share 50%').waitFor();
    await form.getByRole('button', { name: 'Set ratio' }).click();
    await form.getByText('Ratio set').waitFor();
    const ratio = await api('continuum/ratio?path=/v1/pets');
    t.equal(ratio.blend_ratio, 0.5, 'the API says 0.5 for the paths the glob covers');
    const sources = new Set();
    for (let i = 0; i < 40 && sources.size < 2; i++) sources.add((await fetch(`${mockUrl}/v1/pets`)).headers.get('x-mock-source'));
    t.same([...sources].sort(), ['mock', 'upstream'], 'answers now come from both');
  });

  t.test('the virtual clock is advanced from the page', async (t) => {
    const before = Date.parse((await api('time')).virtual_time);
    await page.locator('input[aria-label="advance by"]').fill('2h');
    await page.getByRole('button', { name: 'Advance' }).click();
    await page.locator('p', { hasText: /^virtual 2030-01-01T0[2-3]:/ }).waitFor();
    const after = Date.parse((await api('time')).virtual_time);
    t.ok(after - before >= 2 * 3600_000, `two hours later (${new Date(after).toISOString()})`);
  });

  t.test('no script error on these pages, nothing asked for that is not there', async (t) => {
    t.same(errors, []);
    // GET /__mock/auth/me answers 404 by design while auth is off: how the page learns it is
    t.same(missing.filter((url) => !url.endsWith('/__mock/auth/me')), [], 'no other 404 (a favicon.ico the page does not have)');
    t.same(asked.filter((url) => /favicon/.test(url)), [], 'no favicon request');
    // headless Chromium asks for no favicon at all; a desktop browser asks for /favicon.ico (a 404)
    // unless the page names its icon: it does, and the icon loads under the page's policy
    const icon = await page.evaluate(async () => {
      const href = document.querySelector('link[rel~=icon]')?.getAttribute('href');
      if (href === undefined) return { href: null };
      const blocked = [];
      document.addEventListener('securitypolicyviolation', (e) => blocked.push(e.violatedDirective));
      const img = new Image();
      img.src = href;
      const loaded = await img.decode().then(() => true, () => false);
      return { href: href.slice(0, 19), loaded, blocked };
    });
    t.same(icon, { href: 'data:image/svg+xml,', loaded: true, blocked: [] }, 'the page carries its icon, allowed by img-src');
  });
}

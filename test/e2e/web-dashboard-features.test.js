// The web dashboard's pages of the features that landed before it, in headless Chromium against a
// running `mock serve --admin` with fixtures, a state machine, the reality continuum (a real
// upstream on loopback) and time travel: fixtures listed, downloaded, smoke-run, deleted one and in
// bulk; a machine's resources counted and reset; the continuum's ratio set with its slider; the
// virtual clock advanced. Each change is checked through the admin API, not only on the page.
import t from 'tap';
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';

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
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    [
      `specs: [${JSON.stringify(path.join(root, 'examples', 'petstore.yaml'))}]`,
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
  const open = async (name) => {
    await page.locator('nav').getByRole('link', { name, exact: true }).click();
    await page.locator('h2').first().waitFor();
  };
  await page.goto(`${adminUrl}/`);

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

  t.test('no script error on these pages', async (t) => {
    t.same(errors, []);
  });
}

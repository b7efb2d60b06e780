// Scenarios on a real npm registry: a local Verdaccio started once for the file (no uplinks), the
// CLI publishing with the project's .npmrc token, searching by category and tags, installing
// name@^1, showing, starring and updating.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runCli, startMock, tmpdir } from '../helpers/cli.js';
import { readAnswer } from '../helpers/admin.js';
import { projectDir, scenarioDir } from '../helpers/scenarios.js';
import { startVerdaccio } from '../helpers/verdaccio.js';

const registry = await startVerdaccio(t);
const project = projectDir();
writeFileSync(path.join(project, '.npmrc'), registry.npmrc);
// the user's own ~/.npmrc stays out of it
const env = { NPM_CONFIG_USERCONFIG: path.join(project, 'no-user-npmrc') };
const cli = (args) => runCli(args, { cwd: project, env });
const lock = () => JSON.parse(readFileSync(path.join(project, '.mock', 'scenarios', 'scenarios-lock.json'), 'utf8'));

t.test('publish versions with the .npmrc token; a scenario folder without package.json gets one written', async (t) => {
  for (const version of ['1.0.0', '1.1.0', '2.0.0']) {
    const dir = scenarioDir({ name: 'reg-shop', version, packageJson: false });
    writeFileSync(path.join(dir, '.npmrc'), 'secret=do-not-publish\n');
    const res = await cli(['scenario', 'publish', dir]);
    t.equal(res.code, 0, res.stderr);
    t.equal(res.stdout, `published reg-shop@${version} to ${registry.url}/\n`);
  }
  const base = scenarioDir({ name: 'reg-auth', version: '1.0.0' });
  writeFileSync(
    path.join(base, 'scenario.yaml'),
    readFileSync(path.join(base, 'scenario.yaml'), 'utf8').replace('category: ecommerce', 'category: identity').replace('tags: [shop, test]', 'tags: [auth]'),
  );
  t.equal((await cli(['scenario', 'publish', base])).code, 0);
  const again = await cli(['scenario', 'publish', scenarioDir({ name: 'reg-shop', version: '1.0.0' })]);
  t.equal(again.code, 1);
  t.match(again.stderr, /^publish reg-shop@1\.0\.0: .*; the registry refused it/m);
  const anonymous = projectDir();
  writeFileSync(path.join(anonymous, '.npmrc'), `registry=${registry.url}/\n`);
  const denied = await runCli(['scenario', 'publish', scenarioDir({ name: 'reg-other' })], { cwd: anonymous, env });
  t.equal(denied.code, 1);
  t.match(denied.stderr, /publish reg-other@1\.0\.0: .*log in to the registry/);
  const tarball = await fetch(`${registry.url}/reg-shop/-/reg-shop-2.0.0.tgz`);
  t.equal(tarball.status, 200);
  t.notOk(Buffer.from(await tarball.arrayBuffer()).includes('do-not-publish'), '.npmrc is not packed');
});

t.test('search by category and tags through the registry search endpoint', async (t) => {
  const all = JSON.parse((await cli(['scenario', 'search', '--json'])).stdout);
  t.same(all.map((s) => s.name).sort(), ['reg-auth', 'reg-shop']);
  const shops = JSON.parse((await cli(['scenario', 'search', '--category', 'ecommerce', '--json'])).stdout);
  t.match(shops, [{ name: 'reg-shop', version: '2.0.0', category: 'ecommerce', tags: ['shop', 'test'] }]);
  t.equal(shops.length, 1);
  const auth = JSON.parse((await cli(['scenario', 'search', '--tag', 'auth', '--json'])).stdout);
  t.same(
    auth.map((s) => s.name),
    ['reg-auth'],
  );
  // the registry named by mock.yaml (scenarios.registry) or MOCK_SCENARIO_REGISTRY, without an .npmrc
  const configured = projectDir(`scenarios:\n  registry: ${registry.url}\n`);
  const byConfig = await runCli(['scenario', 'search', '--tag', 'auth', '--json'], { cwd: configured, env });
  t.same(
    JSON.parse(byConfig.stdout).map((s) => s.name),
    ['reg-auth'],
    byConfig.stderr,
  );
  const byEnv = await runCli(['scenario', 'search', '--tag', 'auth', '--json'], { cwd: projectDir(), env: { ...env, MOCK_SCENARIO_REGISTRY: registry.url } });
  t.same(
    JSON.parse(byEnv.stdout).map((s) => s.name),
    ['reg-auth'],
    byEnv.stderr,
  );
  const none = await cli(['scenario', 'search', '--category', 'banking']);
  t.equal(none.stdout, `no scenario found on ${registry.url}/\n`);
});

t.test('install name@^1 resolves the newest 1.x with the registry integrity; review stars it; update stays within the range', async (t) => {
  const res = await cli(['scenario', 'install', 'reg-shop@^1']);
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, 'installed reg-shop@1.1.0');
  const meta = await fetch(`${registry.url}/reg-shop`).then((r) => r.json());
  t.equal(lock().scenarios['reg-shop'].integrity, meta.versions['1.1.0'].dist.integrity, 'the lock holds the integrity the registry published');
  t.equal(lock().scenarios['reg-shop'].requested, 'reg-shop@^1');

  const missing = await cli(['scenario', 'install', 'reg-shop@^3']);
  t.equal(missing.code, 1);
  t.match(missing.stderr, 'reg-shop@^3: cannot fetch it (no published version satisfies the range)');

  const review = await cli(['scenario', 'review', 'reg-shop']);
  t.equal(review.code, 0, review.stderr);
  t.equal(review.stdout, 'starred reg-shop as tester (1 star)\n');
  const info = JSON.parse((await cli(['scenario', 'info', 'reg-shop', '--json'])).stdout);
  t.match(info, { name: 'reg-shop', version: '1.1.0', manifest: { category: 'ecommerce' } });

  const remote = JSON.parse((await cli(['scenario', 'info', 'reg-shop', '--remote', '--json'])).stdout);
  t.match(remote, { name: 'reg-shop', latest: '2.0.0', versions: ['1.0.0', '1.1.0', '2.0.0'], category: 'ecommerce', tags: ['shop', 'test'], stars: 1, integrity: /^sha512-/ });
  const notInstalled = await cli(['scenario', 'info', 'reg-auth']);
  t.match(notInstalled.stdout, /^name: reg-auth\nlatest: 1\.0\.0\n/, 'a scenario not installed is shown from the registry');

  const update = await cli(['scenario', 'update', 'reg-shop']);
  t.equal(update.code, 0, update.stderr);
  t.equal(update.stdout, 'reg-shop@1.1.0 is up to date\n');
});

t.test('dependencies come from the registry, version-resolved', async (t) => {
  const dir = scenarioDir({ name: 'reg-suite', dependencies: ['reg-auth@^1'] });
  const res = await cli(['scenario', 'install', dir]);
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, 'installed reg-auth@1.0.0 in .mock/scenarios/reg-auth (a dependency)');
  t.match(lock().scenarios['reg-auth'], { version: '1.0.0', requested: 'reg-auth@^1', integrity: /^sha512-/ });
  // two dependencies, the first with one of its own: four scenarios fetched into staging at once
  for (const [name, dependencies] of [
    ['reg-leaf', []],
    ['reg-mid', ['reg-leaf@^1']],
    ['reg-side', []],
  ]) {
    const published = await cli(['scenario', 'publish', scenarioDir({ name, dependencies, category: 'toolkit', packageJson: false })]);
    t.equal(published.code, 0, published.stderr);
  }
  const top = await cli(['scenario', 'install', scenarioDir({ name: 'reg-top', dependencies: ['reg-mid@^1', 'reg-side@^1'] })]);
  t.equal(top.code, 0, top.stderr);
  t.match(top.stdout, /installed reg-top@1\.0\.0[^\n]*\ninstalled reg-mid@1\.0\.0[^\n]*dependency\)\ninstalled reg-leaf@1\.0\.0[^\n]*dependency\)\ninstalled reg-side@1\.0\.0[^\n]*dependency\)/);
  const conflict = scenarioDir({ name: 'reg-bad', dependencies: ['reg-auth@^5'] });
  const bad = await cli(['scenario', 'install', conflict]);
  t.equal(bad.code, 1);
  t.match(bad.stderr, 'reg-auth@^5: cannot fetch it (no published version satisfies the range)');
  t.notOk(lock().scenarios['reg-bad'], 'nothing of the failed install is recorded');
});

t.test('the admin API: /api/scenarios marketplace and local endpoints, behind the roles and the cross-site rules', async (t) => {
  const server = await startMock(['--spec', path.join(root, 'examples', 'petstore.yaml'), '--out', tmpdir(), '--admin', '--admin-port', '0'], {
    cwd: project,
    env: { ...env, MOCK_ADMIN_AUTH_ENABLED: 'true', MOCK_DISABLE_DEV_SEED_USERS: undefined, JWT_SECRET: undefined },
  });
  t.teardown(() => server.stop());
  const call = async (method, target, { token, body, headers = {} } = {}) => {
    const h = { connection: 'close', ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    return readAnswer(await fetch(`${server.adminUrl}${target}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) }));
  };
  const login = async (username) => (await call('POST', '/__mock/auth/login', { body: { username, password: `${username}-dev-password` } })).json.data.access_token;
  const admin = await login('admin');
  const viewer = await login('viewer');

  const market = await call('GET', '/api/scenarios/marketplace?category=ecommerce', { token: viewer });
  t.equal(market.status, 200, market.text);
  t.match(market.json, { success: true, data: [{ name: 'reg-shop', version: '2.0.0', category: 'ecommerce' }] });
  const tagged = await call('GET', '/__mock/api/scenarios/marketplace?tags=auth', { token: viewer });
  t.same(
    tagged.json.data.map((s) => s.name),
    ['reg-auth'],
    'tags filter; /__mock/api/ answers the same endpoints',
  );
  const info = await call('GET', '/api/scenarios/marketplace/reg-shop', { token: viewer });
  t.match(info.json.data, { name: 'reg-shop', latest: '2.0.0', versions: ['1.0.0', '1.1.0', '2.0.0'], category: 'ecommerce', stars: 1 });
  t.equal((await call('GET', '/api/scenarios/marketplace/reg-none', { token: viewer })).status, 404);

  for (const source of ['%2Fetc', '..%2F..%2Fsecret', 'git+file%3A%2F%2F%2Ftmp%2Frepo', 'https%3A%2F%2Fevil.example%2Fx.tgz']) {
    const odd = await call('POST', `/api/scenarios/marketplace/${source}/install`, { token: admin });
    t.equal(odd.status, 400, `${decodeURIComponent(source)}: only registry names reach the installer`);
    t.match(odd.json.error, 'is not a scenario name');
  }
  const refused = await call('POST', '/api/scenarios/marketplace/reg-shop/install', { token: viewer });
  t.equal(refused.status, 403, 'a viewer cannot install');
  const exists = await call('POST', '/api/scenarios/marketplace/reg-shop/install', { token: admin });
  t.equal(exists.status, 409, exists.text);
  t.match(exists.json.error, 'reg-shop: installed already (version 1.1.0); pass --force to replace it');
  const crossSite = await call('POST', '/api/scenarios/marketplace/reg-shop/install', { token: admin, body: { force: true }, headers: { origin: 'http://evil.example' } });
  t.equal(crossSite.status, 403, 'a page of another site cannot install');
  const installed = await call('POST', '/api/scenarios/marketplace/reg-shop/install', { token: admin, body: { force: true } });
  t.equal(installed.status, 201, installed.text);
  t.match(installed.json.data, [{ name: 'reg-shop', version: '2.0.0' }], 'the latest version');

  const local = await call('GET', '/api/scenarios/local', { token: viewer });
  t.same(
    local.json.data.map((s) => `${s.name}@${s.version}`),
    ['reg-auth@1.0.0', 'reg-leaf@1.0.0', 'reg-mid@1.0.0', 'reg-shop@2.0.0', 'reg-side@1.0.0', 'reg-suite@1.0.0', 'reg-top@1.0.0'],
  );
  t.match((await call('GET', '/api/scenarios/local/reg-shop', { token: viewer })).json.data, { name: 'reg-shop', version: '2.0.0', manifest: { category: 'ecommerce' } });
  t.equal((await call('GET', '/api/scenarios/local/reg-none', { token: viewer })).status, 404);
  t.equal((await call('POST', '/api/scenarios/local/reg-shop/use', { token: viewer })).status, 403, 'a viewer cannot switch');
  const used = await call('POST', '/api/scenarios/local/reg-shop/use', { token: admin });
  t.equal(used.status, 200, used.text);
  t.match(used.json.data, { name: 'reg-shop', active: true, restart_required: true });
  t.same(JSON.parse(readFileSync(path.join(project, '.mock', 'active-scenario.json'), 'utf8')).name, 'reg-shop');
});

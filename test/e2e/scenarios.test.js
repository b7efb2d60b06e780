// Scenario packages through the CLI: validate, install from a folder, a tarball on loopback and a
// local Git tag, checksums, hostile archives, dependencies, and `scenario use` then `mock serve`.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { root, runCli, startMock, tmpdir } from '../helpers/cli.js';
import { projectDir, scenarioDir, serveFiles, tarball } from '../helpers/scenarios.js';

const lock = (dir) => JSON.parse(readFileSync(path.join(dir, '.mock', 'scenarios', 'scenarios-lock.json'), 'utf8'));
const installed = (dir) => readdirSync(path.join(dir, '.mock', 'scenarios')).filter((name) => name !== 'scenarios-lock.json');

/** The scenario folder as an npm-style tarball (`package/…`). */
function packed(dir) {
  const file = path.join(tmpdir(), 'scenario.tgz');
  tar.c({ gzip: true, cwd: dir, sync: true, file, prefix: 'package/', portable: true }, readdirSync(dir));
  return readFileSync(file);
}

t.test('the blueprints of mock init ship as valid scenarios', async (t) => {
  for (const name of ['ecommerce', 'b2c-saas', 'banking-lite']) {
    const res = await runCli(['scenario', 'validate', path.join(root, 'scenarios', name)]);
    t.equal(res.code, 0, `${name}: ${res.stderr}`);
    t.match(res.stdout, `a valid scenario (mock-scenario-${name} 1.0.0)`);
  }
});

t.test('scenarios/ is what scripts/blueprint-scenarios.js makes of the blueprints now', async (t) => {
  const out = tmpdir();
  execFileSync(process.execPath, [path.join(root, 'scripts', 'blueprint-scenarios.js'), '--out', out]);
  const files = (dir) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort();
  const checkedIn = path.join(root, 'scenarios');
  t.same(files(out), files(checkedIn), 'the same files');
  for (const file of files(out)) t.equal(readFileSync(path.join(out, file), 'utf8'), readFileSync(path.join(checkedIn, file), 'utf8'), `${file} (run node scripts/blueprint-scenarios.js)`);
});

t.test('validate names the file and key of each problem, one line each, exit 1', async (t) => {
  const dir = scenarioDir();
  writeFileSync(path.join(dir, 'scenario.yaml'), 'name: Bad Name\nversion: one\ndescription: x\nauthor: y\ncategory: z\ntags: []\ndependencies: [other@not-a-range]\nvbr_entities: [{ name: 9 }]\n');
  writeFileSync(path.join(dir, 'config.yaml'), 'admin:\n  enabled: true\n');
  const res = await runCli(['scenario', 'validate', dir]);
  t.equal(res.code, 1);
  const lines = res.stderr.trim().split('\n');
  t.match(lines, [
    /scenario\.yaml: name: 'Bad Name' is not valid/,
    /scenario\.yaml: version: "one" is not a semantic version/,
    /scenario\.yaml: dependencies\[0\]/,
    /scenario\.yaml: vbr_entities\[0\]\.name/,
    /config\.yaml: admin: a scenario cannot set the project's admin settings/,
  ]);
  writeFileSync(
    path.join(dir, 'scenario.yaml'),
    'name: ok\nversion: 1.0.0\ndescription: x\nauthor: y\ncategory: z\ntags: []\ndependencies: []\nvbr_entities: [{ name: things, schema: { type: 7 } }]\n',
  );
  writeFileSync(path.join(dir, 'config.yaml'), 'specs: [../../etc/api.json]\n');
  const outside = await runCli(['scenario', 'validate', dir]);
  t.equal(outside.code, 1);
  t.match(outside.stderr, 'config.yaml: specs[0]: "../../etc/api.json" is outside the scenario');
  t.match(outside.stderr, 'scenario.yaml: vbr_entities[0].schema: not a valid JSON Schema');
  writeFileSync(path.join(dir, 'config.yaml'), 'core:\n  fixtures: { record_enabled: true }\nwebsocket:\n  routes: [{ path: /ws, script: /etc/passwd }]\n');
  const writes = await runCli(['scenario', 'validate', dir]);
  t.match(writes.stderr.trim().split('\n').slice(1), [
    /config\.yaml: core\.fixtures\.record_enabled: a scenario cannot record/,
    /config\.yaml: websocket\.routes\[0\]\.script: "\/etc\/passwd" is outside the scenario/,
  ]);
});

t.test('a scenario installed with --skip-validation still cannot reach the project settings: serving it is refused', async (t) => {
  const dir = scenarioDir({ name: 'sneaky' });
  writeFileSync(path.join(dir, 'config.yaml'), 'admin:\n  bind: 0.0.0.0\n');
  const project = projectDir();
  t.equal((await runCli(['scenario', 'install', dir], { cwd: project })).code, 1, 'refused by validation');
  t.equal((await runCli(['scenario', 'install', dir, '--skip-validation'], { cwd: project })).code, 0);
  t.equal((await runCli(['scenario', 'use', 'sneaky'], { cwd: project })).code, 0);
  const show = await runCli(['config', 'show'], { cwd: project });
  t.equal(show.code, 1);
  t.match(show.stderr, "scenario sneaky: config.yaml: admin: a scenario cannot set the project's admin settings");
  t.match(show.stderr, 'or run mock scenario use --clear');
});

t.test('install from a folder, refuse a second install without --force, use it and serve its description, routes and fixtures', async (t) => {
  const project = projectDir('http:\n  routes:\n    - method: GET\n      path: /api/status\n      response: { status: 200, body: { status: project } }\n');
  const first = await runCli(['scenario', 'install', path.join(root, 'scenarios', 'ecommerce')], { cwd: project });
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, 'installed mock-scenario-ecommerce@1.0.0 in .mock/scenarios/mock-scenario-ecommerce');
  t.match(lock(project).scenarios['mock-scenario-ecommerce'], { version: '1.0.0', integrity: /^sha512-/ });

  const again = await runCli(['scenario', 'install', path.join(root, 'scenarios', 'ecommerce')], { cwd: project });
  t.equal(again.code, 1);
  t.match(again.stderr, 'mock-scenario-ecommerce: installed already (version 1.0.0); pass --force to replace it');
  const forced = await runCli(['scenario', 'install', path.join(root, 'scenarios', 'ecommerce'), '--force'], { cwd: project });
  t.equal(forced.code, 0, forced.stderr);

  const use = await runCli(['scenario', 'use', 'mock-scenario-ecommerce'], { cwd: project });
  t.equal(use.code, 0, use.stderr);
  t.equal(readFileSync(path.join(project, 'mock.yaml'), 'utf8').includes('scenario'), false, 'mock.yaml is not rewritten');
  const list = await runCli(['scenario', 'list', '--json'], { cwd: project });
  t.match(JSON.parse(list.stdout), [{ name: 'mock-scenario-ecommerce', version: '1.0.0', active: true, category: 'ecommerce' }]);

  const server = await startMock(['--out', path.join(project, 'build')], { cwd: project });
  t.teardown(() => server.stop());
  t.match(server.stdout, 'mock: serving scenario mock-scenario-ecommerce@1.0.0 under mock.yaml (mock scenario use --clear stops)');
  const products = await fetch(`${server.url}/api/products`);
  t.equal(products.status, 200, 'the description of the scenario is served');
  t.match(await products.json(), { items: [{ sku: 'MUG-0001' }] });
  const status = await (await fetch(`${server.url}/api/status`)).json();
  t.same(status, { status: 'project' }, "the project's own route comes before the scenario's");
  const fixture = await fetch(`${server.url}/api/orders/ord_8f3a2c1d9e`, { headers: { accept: 'application/json' } });
  t.match(await fixture.json(), { order_id: 'ord_8f3a2c1d9e', status: 'pending' }, 'the fixture of the scenario answers');
  const expired = await fetch(`${server.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ coupon_code: 'EXPIRED10' }) });
  t.equal(expired.status, 422, "the scenario's custom routes are served after the project's");
});

t.test("a scenario's vbr_entities are served as collections: list, create, read, replace, merge, delete over real HTTP", async (t) => {
  const entities = [
    'vbr_entities:',
    '  - name: customers',
    '    path: /api/customers',
    '    schema: { type: object, properties: { id: { type: integer }, name: { type: string } } }',
    '    seed_data: [{ id: 1, name: Ada }, { id: 2, name: Grace }]',
    '  - name: tickets',
    "    seed_data: [{ id: t-1, title: 'printer on fire' }]",
    'mockai_rules: [{ endpoint: /api/assistant, rules: [answer politely] }]',
    '',
  ].join('\n');
  const dir = scenarioDir({ name: 'crm', extra: entities });
  const project = projectDir();
  t.equal((await runCli(['scenario', 'install', dir], { cwd: project })).code, 0);
  t.equal((await runCli(['scenario', 'use', 'crm'], { cwd: project })).code, 0);
  const server = await startMock(['--out', path.join(project, 'build')], { cwd: project });
  t.teardown(() => server.stop());
  const call = async (method, target, body) => {
    const res = await fetch(`${server.url}${target}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text === '' ? undefined : JSON.parse(text), code: res.headers.get('x-mock-error-code') };
  };
  t.same(
    (await call('GET', '/api/customers')).json,
    [
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
    ],
    'the seed data is listed',
  );
  t.same(await call('POST', '/api/customers', { name: 'Linus' }), { status: 201, json: { id: 3, name: 'Linus' }, code: null }, 'created with the next id');
  t.same((await call('GET', '/api/customers/3')).json, { id: 3, name: 'Linus' });
  t.same((await call('PUT', '/api/customers/3', { name: 'Linus T.' })).json, { id: 3, name: 'Linus T.' }, 'PUT replaces');
  t.same((await call('PATCH', '/api/customers/1', { email: 'ada@example.com' })).json, { id: 1, name: 'Ada', email: 'ada@example.com' }, 'PATCH merges');
  t.equal((await call('DELETE', '/api/customers/2')).status, 204);
  t.match(await call('GET', '/api/customers/2'), { status: 404, code: 'MOCK_ERR_ENTITY_NOT_FOUND', json: { detail: 'customers: no item with id "2"' } });
  t.match(await call('POST', '/api/customers', { id: 1, name: 'again' }), { status: 409, code: 'MOCK_ERR_ENTITY_CONFLICT' });
  t.match(await call('POST', '/api/customers', [1]), { status: 400, code: 'MOCK_ERR_ENTITY_INVALID' });
  t.match(await call('POST', '/api/customers', { name: 5 }), { status: 400, code: 'MOCK_ERR_ENTITY_INVALID', json: { detail: 'customers: name must be string' } }, 'the schema holds');
  t.match(await call('PUT', '/api/customers/3', { name: ['x'] }), { status: 400, json: { detail: 'customers: name must be string' } });
  t.same((await call('GET', '/api/customers/3')).json, { id: 3, name: 'Linus T.' }, 'a refused write changes nothing');
  t.same(
    (await call('GET', '/api/customers')).json.map((c) => c.id),
    [1, 3],
  );
  t.same((await call('GET', '/tickets/t-1')).json, { id: 't-1', title: 'printer on fire' }, 'an entity without a path is served at /<name>');
  t.equal((await call('GET', '/api/products')).status, 200, "the scenario's description still answers its own paths");
});

t.test('install a tarball served on loopback, checked by --checksum before unpacking; a mismatch is refused', async (t) => {
  const archive = packed(scenarioDir({ name: 'tar-shop', version: '1.2.0' }));
  const server = await serveFiles({ '/tar-shop-1.2.0.tgz': archive });
  t.teardown(server.close);
  const url = `${server.url}/tar-shop-1.2.0.tgz`;
  const project = projectDir();
  const wrong = await runCli(['scenario', 'install', url, '--checksum', `sha256:${'0'.repeat(64)}`], { cwd: project });
  t.equal(wrong.code, 1);
  t.match(wrong.stderr, /tar-shop-1\.2\.0\.tgz: the archive's sha256 is [0-9a-f]{64}, not 0{64} \(--checksum\); nothing was unpacked/);
  t.same(installed(project), [], 'nothing installed');

  const sha = createHash('sha256').update(archive).digest('hex');
  const right = await runCli(['scenario', 'install', url, '--checksum', `sha256:${sha}`], { cwd: project });
  t.equal(right.code, 0, right.stderr);
  t.match(lock(project).scenarios['tar-shop'], { version: '1.2.0', resolved: url, integrity: /^sha512-/ });
  t.ok(existsSync(path.join(project, '.mock', 'scenarios', 'tar-shop', 'openapi.json')));
});

t.test('install a tarball file by its path', async (t) => {
  const file = path.join(tmpdir(), 'file-shop-1.0.0.tgz');
  writeFileSync(file, packed(scenarioDir({ name: 'file-shop' })));
  const project = projectDir();
  const res = await runCli(['scenario', 'install', file, '--checksum', `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`], { cwd: project });
  t.equal(res.code, 0, res.stderr);
  t.match(lock(project).scenarios['file-shop'], { version: '1.0.0', requested: file, integrity: /^sha512-/ });
});

t.test('install from a local Git repository at a version tag', async (t) => {
  const repo = scenarioDir({ name: 'git-shop', version: '1.0.0' });
  const git = (...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'v1');
  git('tag', 'v1.0.0');
  writeFileSync(path.join(repo, 'scenario.yaml'), readFileSync(path.join(repo, 'scenario.yaml'), 'utf8').replace('1.0.0', '2.0.0'));
  git('commit', '-qam', 'v2');
  const project = projectDir();
  const res = await runCli(['scenario', 'install', `git+file://${repo}#v1.0.0`], { cwd: project });
  t.equal(res.code, 0, res.stderr);
  t.match(lock(project).scenarios['git-shop'], { version: '1.0.0', resolved: new RegExp(`^file://${repo}#[0-9a-f]{40}$`) });
  t.notOk(existsSync(path.join(project, '.mock', 'scenarios', 'git-shop', '.git')), 'the repository itself is not copied');
});

t.test('hostile archives are refused whole, and leave nothing behind', async (t) => {
  const scenario = [
    { path: 'package/scenario.yaml', body: 'name: evil\nversion: 1.0.0\n' },
    { path: 'package/config.yaml', body: '' },
  ];
  const cases = {
    'a .. path': [...scenario, { path: 'package/../../escaped.txt', body: 'x' }],
    'an absolute path': [...scenario, { path: '/tmp/mock-scenario-absolute.txt', body: 'x' }],
    'a symbolic link out of the folder': [...scenario, { path: 'package/link', type: 'SymbolicLink', linkpath: '/etc/passwd' }],
    'a hard link': [...scenario, { path: 'package/hard', type: 'Link', linkpath: 'package/scenario.yaml' }],
    'a character device': [...scenario, { path: 'package/dev', type: 'CharacterDevice' }],
    'a block device': [...scenario, { path: 'package/blk', type: 'BlockDevice' }],
    'a FIFO': [...scenario, { path: 'package/fifo', type: 'FIFO' }],
    'too many files': [...scenario, ...Array.from({ length: 10_001 }, (_, i) => ({ path: `package/f/${i}`, body: '' }))],
    'a decompression bomb': [...scenario, { path: 'package/zeros', data: Buffer.alloc(101 * 1024 * 1024), size: 101 * 1024 * 1024 }],
  };
  const files = Object.fromEntries(Object.entries(cases).map(([name, entries], i) => [`/${i}.tgz`, tarball(entries)]));
  const server = await serveFiles(files);
  t.teardown(server.close);
  const project = projectDir();
  const why = [
    /"package\/\.\.\/\.\.\/escaped\.txt" leads out/,
    /is an absolute path/,
    /is a SymbolicLink entry/,
    /is a Link entry/,
    /is a CharacterDevice entry/,
    /is a BlockDevice entry/,
    /is a FIFO entry/,
    /holds 10003 entries, over the cap of 10000/,
    /unpacks to more than 104857600 bytes/,
  ];
  let i = 0;
  for (const name of Object.keys(cases)) {
    const res = await runCli(['scenario', 'install', `${server.url}/${i}.tgz`, '--skip-validation'], { cwd: project });
    t.equal(res.code, 1, name);
    t.match(res.stderr, why[i], name);
    t.match(res.stderr, 'the archive is refused and nothing was unpacked', name);
    i += 1;
  }
  t.same(installed(project), [], 'nothing installed');
  t.notOk(existsSync(path.join(project, '.mock', 'escaped.txt')) || existsSync('/tmp/mock-scenario-absolute.txt'), 'nothing written outside');
});

t.test('dependencies: a cycle is refused and nothing is installed', async (t) => {
  const project = projectDir();
  const b = scenarioDir({ name: 'dep-b', dependencies: ['dep-a@^1'] });
  const a = scenarioDir({ name: 'dep-a', dependencies: [] });
  writeFileSync(path.join(a, 'config.yaml'), 'http:\n  routes:\n    - { method: GET, path: /api/from-a, response: { status: 200, body: { from: a } } }\n');
  // dep-a's dependency is served from a folder: install dep-b, whose dependency dep-a is already in place
  t.equal((await runCli(['scenario', 'install', a], { cwd: project })).code, 0);
  const ok = await runCli(['scenario', 'install', b], { cwd: project });
  t.equal(ok.code, 0, ok.stderr);
  t.same(lock(project).scenarios['dep-b'].dependencies, ['dep-a@^1']);
  // using dep-b merges dep-a's configuration under it: its lists come last
  t.equal((await runCli(['scenario', 'use', 'dep-b'], { cwd: project })).code, 0);
  const show = await runCli(['config', 'show'], { cwd: project });
  t.equal(show.code, 0, show.stderr);
  const specs = [...show.stdout.matchAll(/\.mock\/scenarios\/(dep-[ab])\/openapi\.json/g)].map((m) => m[1]);
  t.same(specs, ['dep-b', 'dep-a'], "the scenario's description, then its dependency's");
  t.ok(show.stdout.indexOf('/api/from-a') > show.stdout.indexOf('/api/status'), "the dependency's routes come after the scenario's");
  const self = scenarioDir({ name: 'loop', dependencies: ['loop@^1'] });
  const cycle = await runCli(['scenario', 'install', self], { cwd: project });
  t.equal(cycle.code, 1);
  t.match(cycle.stderr, 'loop → loop: the dependencies form a cycle; remove one of them');
  t.notOk(installed(project).includes('loop'));
});

t.test('--checksum on a folder, a bad checksum flag and an unknown scenario are one-line errors', async (t) => {
  const project = projectDir();
  const folder = await runCli(['scenario', 'install', path.join(root, 'scenarios', 'ecommerce'), '--checksum', `sha256:${'a'.repeat(64)}`], { cwd: project });
  t.match(folder.stderr, '--checksum checks an archive');
  const flag = await runCli(['scenario', 'install', 'x', '--checksum', 'md5:abc'], { cwd: project });
  t.match(flag.stderr, '--checksum md5:abc: not a sha256');
  const use = await runCli(['scenario', 'use', 'nope'], { cwd: project });
  t.equal(use.code, 1);
  t.match(use.stderr, 'nope: not installed in');
});

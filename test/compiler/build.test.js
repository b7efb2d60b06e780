// compiler/build.ts, staleness.ts, inputs.ts: deterministic output, minimal rewrites, --check, staleness.
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { build, checkBuild, isBuildStale, defaultName, TOOL_VERSION } from '../../dist/compiler/index.js';
import { loadInputs, sha256 } from '../../dist/compiler/inputs.js';
import { loadBuild } from '../../dist/runtime/terminal/openapi/index.js';

const petstore = fs.readFileSync(new URL('../../examples/petstore.yaml', import.meta.url), 'utf8');
const routes = [{ path: '/health', method: 'GET', response: { body: { ok: true } } }];

const cwd = t.testdir({ 'petstore.yaml': petstore, specs: { 'other.yaml': petstore } });
const options = (extra = {}) => ({ specs: [{ source: 'petstore.yaml' }], routes, outDir: 'generated', cwd, ...extra });
const filesOf = (dir) => fs.readdirSync(dir).sort();
const EXPECTED_FILES = ['index.js', 'index.ts', 'manifest.json', 'package.json', 'responders.js', 'responders.ts', 'routes.js', 'routes.ts', 'types.ts', 'validators.d.ts', 'validators.js'];

t.test('defaultName', (t) => {
  t.equal(defaultName('./specs/petstore.yaml'), 'petstore');
  t.equal(defaultName('petstore.YML'), 'petstore');
  t.equal(defaultName('https://x.io/apis/petstore.json?version=2#top'), 'petstore');
  t.equal(defaultName('My API (v2).yaml'), 'My-API--v2-');
  t.equal(defaultName('spec.v1.yaml'), 'spec-v1', 'a build name has no dots');
  t.equal(defaultName('.yaml'), 'api');
  t.end();
});

t.test('the inputs hash covers documents, base paths, routes, name and tool version', async (t) => {
  const base = await loadInputs(options());
  t.equal(base.name, 'petstore');
  t.equal(base.inputs[0].description.dialect, 'openapi-3.0');
  t.equal((await loadInputs(options())).inputsHash, base.inputsHash, 'stable');
  t.not((await loadInputs(options({ routes: [] }))).inputsHash, base.inputsHash, 'routes');
  t.not((await loadInputs(options({ specs: [{ source: 'petstore.yaml', basePath: '/x' }] }))).inputsHash, base.inputsHash, 'base path');
  t.not((await loadInputs(options({ name: 'other' }))).inputsHash, base.inputsHash, 'name');
  t.equal((await loadInputs(options({ specs: [{ source: 'specs/other.yaml' }] }))).name, 'other');
  const elsewhere = await loadInputs(options({ cwd: path.join(cwd, 'specs'), specs: [{ source: '../petstore.yaml' }], outDir: path.join(cwd, 'generated') }));
  t.equal(elsewhere.inputsHash, base.inputsHash, 'not the cwd: the same spec and build folder from another cwd');
  t.same(elsewhere.sources, ['../../petstore.yaml'], 'the spec is recorded by its path from the build folder');
  t.end();
});

t.test('no specs, no GraphQL schema and no protos is MOCK_ERR_NO_SPEC', async (t) => {
  await t.rejects(build(options({ specs: [] })), {
    code: 'MOCK_ERR_NO_SPEC',
    message: 'nothing to build: pass --spec <file|url> (an API description), --graphql-schema <path> (a GraphQL schema) or --proto-dir <dir> (.proto files), or list specs: or graphql.schema in mock.yaml',
  });
});

t.test('two builds of the same input are byte-identical', async (t) => {
  // as deep as generated/: the recorded spec path, from the build folder, is the same
  const other = path.join(cwd, 'elsewhere');
  const a = await build(options());
  const b = await build(options({ outDir: other }));
  t.equal(a.name, 'petstore');
  t.equal(a.dir, path.join(cwd, 'generated', 'petstore'));
  t.equal(b.dir, path.join(other, 'petstore'), 'an absolute outDir is used as is');
  t.same(filesOf(a.dir), EXPECTED_FILES);
  t.same([...a.written].sort(), EXPECTED_FILES, 'a first build writes every file');
  t.equal(a.written.at(-1), 'manifest.json', 'manifest written last');
  t.same(a.unchanged, []);
  for (const file of EXPECTED_FILES) t.equal(fs.readFileSync(path.join(b.dir, file), 'utf8'), fs.readFileSync(path.join(a.dir, file), 'utf8'), file);
  t.same(a.warnings, []);
  t.notOk(fs.readdirSync(a.dir).some((f) => f.endsWith('.tmp')), 'no temp files left');
});

t.test('manifest.json records inputs and file hashes', async (t) => {
  const dir = path.join(cwd, 'generated', 'petstore');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  t.equal(manifest.tool, 'mock');
  t.equal(manifest.version, TOOL_VERSION);
  t.equal(manifest.name, 'petstore');
  t.equal(manifest.inputs_sha256, (await loadInputs(options())).inputsHash);
  t.same(manifest.specs, [{ source: '../../petstore.yaml', sha256: sha256(petstore) }]);
  t.equal(manifest.custom_routes, 1);
  t.ok(manifest.operations > 0);
  t.same(Object.keys(manifest.files), EXPECTED_FILES.filter((f) => f !== 'manifest.json'));
  for (const [file, hash] of Object.entries(manifest.files)) t.equal(sha256(fs.readFileSync(path.join(dir, file), 'utf8')), hash, file);
});

t.test('the emitted index.js loads and routes', async (t) => {
  const mod = await loadBuild(path.join(cwd, 'generated', 'petstore'));
  t.equal(mod.name, 'petstore');
  t.same(mod.specs.map((s) => s.basePath), ['/v1']);
  const values = [];
  const terminal = mod.match(['', 'v1', 'pets', '12'], values);
  t.ok(terminal.methods.GET, 'GET /v1/pets/{petId}');
  t.same(values, ['12']);
  t.equal(mod.operations[terminal.methods.GET[0].index].path, '/v1/pets/{petId}');
  t.same(mod.match(['', 'health'], []).methods.GET, [{ kind: 'route', index: 0, names: [] }]);
  await t.rejects(loadBuild(path.join(cwd, 'nowhere')), { code: 'MOCK_ERR_BUILD_MISSING' });
});

t.test('a rebuild rewrites only what changed', async (t) => {
  const dir = path.join(cwd, 'generated', 'petstore');
  const before = fs.statSync(path.join(dir, 'types.ts')).mtimeMs;
  const again = await build(options());
  t.same(again.written, [], 'nothing written');
  t.same([...again.unchanged].sort(), EXPECTED_FILES);
  t.equal(fs.statSync(path.join(dir, 'types.ts')).mtimeMs, before, 'files untouched');

  fs.appendFileSync(path.join(dir, 'routes.ts'), '// hand edit\n');
  t.same((await checkBuild(options())).stale, ['routes.ts'], 'checkBuild reports the modified file');
  t.same((await isBuildStale(options())).stale, false, 'the cheap staleness test looks at inputs only');
  const repaired = await build(options());
  t.same(repaired.written, ['routes.ts']);
  t.equal(repaired.unchanged.length, EXPECTED_FILES.length - 1);
  t.same((await checkBuild(options())).stale, []);

  fs.rmSync(path.join(dir, 'validators.js'));
  t.same((await checkBuild(options())).stale, ['validators.js'], 'a missing file is stale');
  t.same(await isBuildStale(options()), { dir, stale: true }, 'an incomplete build is stale');
  t.same((await build(options())).written, ['validators.js']);
});

t.test('files an older build listed are removed', async (t) => {
  const dir = path.join(cwd, 'generated', 'petstore');
  const manifestPath = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  manifest.files['leftover.js'] = 'x';
  fs.writeFileSync(manifestPath, JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, 'leftover.js'), '');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
  const result = await build(options());
  t.same(result.written, ['manifest.json']);
  t.notOk(fs.existsSync(path.join(dir, 'leftover.js')), 'listed by the old manifest: removed');
  t.ok(fs.existsSync(path.join(dir, 'notes.txt')), 'files the build never wrote are kept');
});

t.test('editing the spec makes the build stale', async (t) => {
  const dir = path.join(cwd, 'generated', 'petstore');
  t.same(await isBuildStale(options()), { dir, stale: false });
  const spec = path.join(cwd, 'petstore.yaml');
  fs.writeFileSync(spec, petstore.replace('summary: List all pets', 'summary: List every pet'));
  t.same(await isBuildStale(options()), { dir, stale: true });
  const check = await checkBuild(options());
  t.ok(check.stale.includes('manifest.json') && check.stale.includes('routes.ts'), 'checkBuild lists the affected files');
  t.notOk(check.stale.includes('validators.js'), 'a summary does not change validators');
  const rebuilt = await build(options());
  t.ok(rebuilt.written.includes('routes.ts'));
  t.ok(rebuilt.unchanged.includes('validators.js'));
  t.same(await isBuildStale(options()), { dir, stale: false });
  t.same(await isBuildStale(options({ routes: [] })), { dir, stale: true }, 'changed routes');
  fs.writeFileSync(path.join(dir, 'manifest.json'), '{not json');
  t.same(await isBuildStale(options()), { dir, stale: true }, 'unreadable manifest');
  t.same(await isBuildStale(options({ name: 'never-built' })), { dir: path.join(cwd, 'generated', 'never-built'), stale: true }, 'no build');
});

// Where a build may write. Regression: `build: {out_dir: <elsewhere>, name: victim}` in mock.yaml
// overwrote victim/package.json and victim/src/index.js, and `name: ..` was accepted. Now
// build.out_dir stays in the project unless --out names the folder, a build name is one plain
// folder name, and a build replaces only a folder that is absent, empty or an earlier build.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const petstore = readFileSync(path.join(root, 'examples/petstore.yaml'), 'utf8');

/** Someone's project, next to the mock's. */
const victimOf = (parent) => {
  const victim = path.join(parent, 'victim');
  mkdirSync(path.join(victim, 'src'), { recursive: true });
  writeFileSync(path.join(victim, 'package.json'), '{"name": "victim"}\n');
  writeFileSync(path.join(victim, 'src', 'index.js'), 'export const mine = true;\n');
  return victim;
};
const untouched = (t, victim) => {
  t.equal(readFileSync(path.join(victim, 'package.json'), 'utf8'), '{"name": "victim"}\n', 'victim/package.json untouched');
  t.equal(readFileSync(path.join(victim, 'src', 'index.js'), 'utf8'), 'export const mine = true;\n', 'victim/src/index.js untouched');
  t.same(readdirSync(victim).sort(), ['package.json', 'src'], 'nothing added');
};
const oneLine = (t, res, pattern) => {
  t.equal(res.code, 1, 'exit 1');
  t.equal(res.stderr.trim().split('\n').length, 1, `one line: ${res.stderr}`);
  t.match(res.stderr, pattern);
  t.notMatch(res.stderr, /\n\s+at /, 'no stack trace');
};

t.test('build.out_dir of mock.yaml outside the project is refused; --out on the command line is the opt-in', async (t) => {
  const parent = t.testdir({ project: { 'api.yaml': petstore } });
  const victim = victimOf(parent);
  const project = path.join(parent, 'project');
  writeFileSync(path.join(project, 'mock.yaml'), `specs: [api.yaml]\nbuild: {out_dir: ${JSON.stringify(parent)}, name: victim}\n`);
  // both refused before anything is written: side by side
  const [build, serve] = await Promise.all([runMock(['build'], { cwd: project }), startMock([], { cwd: project }).catch((e) => e)]);
  oneLine(t, build, `build.out_dir in mock.yaml leads outside the project ${project} (to ${parent}); a path elsewhere is written only when the command line gives it: pass --out ${parent}`);
  oneLine(t, serve, /build\.out_dir in mock\.yaml leads outside the project/);
  untouched(t, victim);

  // --out names the folder: allowed elsewhere, but still never over a folder that is not a build
  const forced = await runMock(['build', '--out', parent], { cwd: project });
  oneLine(t, forced, `${victim} holds files but no manifest.json of a mock build: a build replaces only an earlier build; pick another --out or --name, or empty the folder`);
  untouched(t, victim);
  const elsewhere = tmpdir();
  t.equal((await runMock(['build', '--out', elsewhere], { cwd: project })).code, 0, 'an empty folder elsewhere, given with --out');
  const again = await runMock(['build', '--out', elsewhere], { cwd: project });
  t.equal(again.code, 0, `an earlier build is replaced: ${again.stderr}`);
  t.match(again.stdout, '(0 written, 11 unchanged)');
});

t.test('an out_dir that is a symbolic link out of the project is refused', async (t) => {
  const parent = t.testdir({ project: { 'api.yaml': petstore, 'mock.yaml': 'specs: [api.yaml]\nbuild: {out_dir: gen}\n' } });
  const victim = victimOf(parent);
  symlinkSync(victim, path.join(parent, 'project', 'gen'));
  oneLine(t, await runMock(['build', '--name', 'src'], { cwd: path.join(parent, 'project') }), `leads outside the project ${path.join(parent, 'project')} (to ${victim})`);
  untouched(t, victim);
});

t.test('a build name is one plain folder name; a default name derived from a file name is made one', async (t) => {
  const dir = t.testdir({ 'api.v2.yaml': petstore, 'mock.yaml': 'specs: [api.v2.yaml]\nbuild: {name: ..}\n' });
  // all refused before anything is written: side by side
  const names = ['../x', 'a.b'];
  const [fromConfig, ...fromFlag] = await Promise.all([runMock(['build'], { cwd: dir }), ...names.map((name) => runMock(['build', '--name', name], { cwd: dir }))]);
  oneLine(t, fromConfig, 'build name ".." is not a plain folder name: use letters, digits, "-" and "_" only (no "/", "\\" or "."), in --name or build.name of mock.yaml');
  names.forEach((name, i) => oneLine(t, fromFlag[i], `build name ${JSON.stringify(name)} is not a plain folder name`));
  t.same(readdirSync(dir).sort(), ['api.v2.yaml', 'mock.yaml'], 'nothing written');

  writeFileSync(path.join(dir, 'mock.yaml'), 'specs: [api.v2.yaml]\n');
  const res = await runMock(['build'], { cwd: dir });
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, /^mock: built api-v2 in generated\/api-v2 /, 'api.v2.yaml builds as api-v2');
});

t.test('a rebuild removes only the files of its own manifest, by plain name', async (t) => {
  const out = tmpdir();
  const dir = t.testdir({ 'api.yaml': petstore, 'keep.txt': 'mine\n' });
  t.equal((await runMock(['build', '--spec', 'api.yaml', '--out', out], { cwd: dir })).code, 0);
  // a manifest planted (or edited) to name files beyond the build folder
  const manifestFile = path.join(out, 'api', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  manifest.files[path.relative(path.join(out, 'api'), path.join(dir, 'keep.txt'))] = 'x';
  manifest.files['old.ts'] = 'x';
  writeFileSync(manifestFile, JSON.stringify(manifest));
  writeFileSync(path.join(out, 'api', 'old.ts'), '// from an earlier build\n');
  const res = await runMock(['build', '--spec', 'api.yaml', '--out', out], { cwd: dir });
  t.equal(res.code, 0, res.stderr);
  t.equal(readFileSync(path.join(dir, 'keep.txt'), 'utf8'), 'mine\n', 'a path out of the folder is never removed');
  t.notOk(existsSync(path.join(out, 'api', 'old.ts')), 'a file the build no longer makes is');
});

// Builds that work anywhere: a build loads whatever package.json the project around it has, and
// its files do not depend on the folder mock build ran in.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const spec = path.join(root, 'examples/petstore.yaml');

/** A project whose package.json has this `type` (`npm init -y` writes "commonjs"). */
const packageJson = (type) => JSON.stringify({ name: 'app', version: '1.0.0', type }, null, 2);

/** Serves the build in `out` and answers one request; the server is stopped before returning. */
async function serveOnce(t, cwd, out = 'mocks') {
  const server = await startMock(['--spec', spec, '--out', out], { cwd });
  try {
    const response = await fetch(`${server.url}/v1/pets/1`);
    t.equal(response.status, 200, 'answers from the build');
    return server.stdout;
  } finally {
    await server.stop();
  }
}

/** `mock build` of the example into `<cwd>/mocks`. */
async function build(t, cwd) {
  const built = await runMock(['build', '--spec', spec, '--out', 'mocks'], { cwd });
  t.equal(built.code, 0, built.stderr);
}

// One CommonJS project with the description in it, built once, for the first and the last test
// (the commonjs build that serves, and the build that is up to date from any folder): each built
// the example into a project of its own.
const project = t.testdir({ 'package.json': packageJson('commonjs'), api: { 'petstore.yaml': readFileSync(spec, 'utf8') }, src: {}, sub: { deeper: {} } });
const projectBuild = runMock(['build', '--spec', 'api/petstore.yaml', '--out', 'mocks'], { cwd: project });

t.test('a build under a "type": "commonjs" project loads and serves', async (t) => {
  const built = await projectBuild;
  t.equal(built.code, 0, built.stderr);
  const server = await startMock(['--spec', '../api/petstore.yaml', '--out', '../mocks'], { cwd: path.join(project, 'src') });
  try {
    t.equal((await fetch(`${server.url}/v1/pets/1`)).status, 200, 'answers from the build');
    t.notMatch(server.stdout, /rebuilt/, 'served from another folder of the project: still fresh');
  } finally {
    await server.stop();
  }
});

t.test('a build under a "type": "module" project serves, and still does once the project turns CommonJS', async (t) => {
  const cwd = t.testdir({ 'package.json': packageJson('module') });
  await build(t, cwd);
  await serveOnce(t, cwd);
  // a checked-in build does not depend on the project it was made in
  writeFileSync(path.join(cwd, 'package.json'), packageJson('commonjs'));
  t.notMatch(await serveOnce(t, cwd), /rebuilt/, 'the same build, not a rebuild');
});

t.test('a build made in one folder is up to date from any other', async (t) => {
  const built = await projectBuild;
  t.equal(built.code, 0, built.stderr);
  const buildDir = path.join(project, 'mocks', 'petstore');

  t.test('mock build --check from another cwd, given relative or absolute paths', async (t) => {
    const relative = await runMock(['build', '--check', '--spec', '../../api/petstore.yaml', '--out', '../../mocks'], { cwd: path.join(project, 'sub', 'deeper') });
    t.equal(relative.code, 0, relative.stderr);
    t.match(relative.stdout, /is up to date/);
    const absolute = await runMock(['build', '--check', '--spec', path.join(project, 'api/petstore.yaml'), '--out', path.join(project, 'mocks')], { cwd: tmpdir() });
    t.equal(absolute.code, 0, absolute.stderr);
  });

  t.test('manifest.json, index.ts and index.js name the spec by its path from the build folder, not from the cwd', async (t) => {
    const manifest = JSON.parse(readFileSync(path.join(buildDir, 'manifest.json'), 'utf8'));
    t.equal(path.resolve(buildDir, manifest.specs[0].source), path.join(project, 'api', 'petstore.yaml'), 'the recorded path leads to the spec');
    for (const file of ['manifest.json', 'index.ts', 'index.js']) {
      const text = readFileSync(path.join(buildDir, file), 'utf8');
      t.ok(text.includes('"../../api/petstore.yaml"'), `${file}: from the build folder`);
      t.notOk(text.includes('"api/petstore.yaml"'), `${file}: not from the cwd`);
    }
  });
});

// Builds that work anywhere: a build loads whatever package.json the project around it has.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, startMock } from '../helpers/cli.js';

const spec = path.join(root, 'examples/petstore.yaml');

/** A project whose package.json has this `type` (`npm init -y` writes "commonjs"). */
const packageJson = (type) => JSON.stringify({ name: 'app', version: '1.0.0', type }, null, 2);

/** Serves the build under `<cwd>/mocks` and answers one request; the server is stopped before returning. */
async function serveOnce(t, cwd) {
  const server = await startMock(['--spec', spec, '--out', 'mocks'], { cwd });
  try {
    const response = await fetch(`${server.url}/v1/pets/1`);
    t.equal(response.status, 200, 'answers from the build');
    return server.stdout;
  } finally {
    await server.stop();
  }
}

const build = async (t, cwd) => {
  const built = await runMock(['build', '--spec', spec, '--out', 'mocks'], { cwd });
  t.equal(built.code, 0, built.stderr);
};

t.test('a build under a "type": "commonjs" project loads and serves', async (t) => {
  const cwd = t.testdir({ 'package.json': packageJson('commonjs') });
  await build(t, cwd);
  await serveOnce(t, cwd);
});

t.test('a build under a "type": "module" project serves, and still does once the project turns CommonJS', async (t) => {
  const cwd = t.testdir({ 'package.json': packageJson('module') });
  await build(t, cwd);
  await serveOnce(t, cwd);
  // a checked-in build does not depend on the project it was made in
  writeFileSync(path.join(cwd, 'package.json'), packageJson('commonjs'));
  t.notMatch(await serveOnce(t, cwd), /rebuilt/, 'the same build, not a rebuild');
});

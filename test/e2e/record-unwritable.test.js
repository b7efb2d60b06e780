// Record mode when core.fixtures.dir cannot be written, through the real CLI. The tests run as
// root, whom permissions do not stop, so the folder is made unusable the way they cannot undo: a
// path through a regular file (ENOTDIR). At start that is one line naming the setting and exit 1;
// while serving (the folder swapped for a file) each exchange that cannot be saved is a warning
// naming it, the folder's watcher says it cannot read it, and the server serves on, and records
// again once the folder is back.
import t from 'tap';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, root, runCli, startMock, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const spec = path.join(root, 'examples', 'petstore.yaml');
const out = await buildOnce(spec);
const config = (dir) => `specs: [${JSON.stringify(spec)}]\ncore: { fixtures: { dir: ${dir}, record_enabled: true, replay_enabled: true } }\n`;

t.test('at start: a fixture folder under a regular file stops mock serve with one line naming core.fixtures.dir', async (t) => {
  const project = tmpdir();
  writeFileSync(path.join(project, 'blocker'), 'a regular file\n');
  writeFileSync(path.join(project, 'mock.yaml'), config('blocker/fixtures'));
  const started = await runCli(['serve', '--out', out, '--http-port', '0', '--host', '127.0.0.1'], { cwd: project });
  t.equal(started.code, 1, 'exit 1');
  t.same(
    started.stderr.trim().split('\n'),
    [
      `core.fixtures.dir: ${path.join(project, 'blocker', 'fixtures', 'http')} cannot be read (ENOTDIR: a part of the path is a file, not a folder); point core.fixtures.dir (MOCK_FIXTURES_DIR) at a folder mock can read and write`,
    ],
    'one line naming the setting, the folder, the reason and the fix',
  );
});

t.test('while serving: the folder swapped for a file; warnings, serving on, recording again once it is back', async (t) => {
  const project = tmpdir();
  const fixtures = path.join(project, 'fixtures');
  const http = path.join(fixtures, 'http');
  mkdirSync(fixtures);
  writeFileSync(path.join(project, 'mock.yaml'), config('fixtures'));
  const server = await startMock(['--out', out, '--admin', '--admin-port', '0'], { cwd: project });
  t.teardown(() => server.stop());
  // fixture files in http/, which the recorder makes with the first of them
  const saved = () => (existsSync(http) ? readdirSync(http).filter((name) => name.endsWith('.json')).length : 0);

  t.equal((await fetch(`${server.url}/v1/pets/1`)).status, 200);
  await until(() => saved() === 1, 10_000, 'the first exchange recorded');

  rmSync(fixtures, { recursive: true });
  writeFileSync(fixtures, 'no longer a folder\n');
  const unreadable = `fixtures: ${http} cannot be read (ENOTDIR: a part of the path is a file, not a folder); nothing is replayed from it until it can be read (POST /__mock/fixtures/reload reads it again)`;
  await until(() => server.stdout.includes(unreadable), 10_000, "the watcher's warning");
  t.pass('the watcher says the folder cannot be read');

  const answered = await fetch(`${server.url}/v1/pets/1`);
  t.equal(answered.status, 200, 'the server serves on');
  t.equal(answered.headers.get('x-mock-fixture'), null, 'from the mock: the fixture read before is no longer replayed');
  const lost = `WARN: recording: cannot save a fixture of GET /v1/pets/1 in ${http}: ENOTDIR: not a directory, mkdir '${http}'`;
  await until(() => server.stdout.includes(lost), 10_000, 'the warning for the exchange not saved');
  t.pass('each exchange that cannot be saved is a warning naming it and the folder');
  const listed = await (await fetch(`${server.adminUrl}/__mock/fixtures`)).json();
  t.equal(listed.error, `Failed to load fixtures: ${http} cannot be read (ENOTDIR)`, 'the admin API says why it cannot list them');
  t.notMatch(server.stdout + server.stderr, /this is a bug of mock/, 'no exception escaped');

  rmSync(fixtures);
  mkdirSync(fixtures);
  const reloaded = await fetch(`${server.adminUrl}/__mock/fixtures/reload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(reloaded.status, 200, 'the folder back, POST /__mock/fixtures/reload reads it');
  t.equal((await fetch(`${server.url}/v1/pets/2`)).status, 200);
  await until(() => saved() === 1, 10_000, 'the next exchange recorded');
  t.pass('recording goes on in the folder once it is back');
});

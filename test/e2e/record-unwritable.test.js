// Record mode when core.fixtures.dir cannot be written, through the real CLI. The tests run as
// root, whom permissions do not stop, so the folder is made unusable the way they cannot undo: a
// path through a regular file (ENOTDIR). At start that is one line naming the setting and exit 1;
// while serving (the folder swapped for a file) each exchange that cannot be saved is a warning
// naming it, the folder's watcher says it cannot read it, and the server serves on, and records
// again once the folder is back. When requests come faster than fixtures can be written, what waits
// in memory is bounded by core.fixtures.max_unsaved_mb: past it exchanges are not recorded, with
// one warning line saying how many and of which routes, and the files written are whole.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, root, runCli, sideBySide, startMock, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';
import { connect } from '../helpers/websocket.js';

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

t.test('falling behind: a flood past core.fixtures.max_unsaved_mb is answered, its overflow not recorded with one warning line, every file written whole', async (t) => {
  const project = tmpdir();
  writeFileSync(path.join(project, 'mock.yaml'), `specs: [${JSON.stringify(spec)}]\ncore: { fixtures: { dir: fixtures, record_enabled: true, max_sequence: 0, max_unsaved_mb: 1 } }\n`);
  const server = await startMock(['--out', out], { cwd: project });
  t.teardown(() => server.stop());
  // each exchange's fixture holds its 300 KB request body: the 1 MB budget holds three of them, so
  // 20 clients at once outrun the disk (each save is a write, an fsync and a rename)
  const REQUESTS = 200;
  const note = 'n'.repeat(300 * 1024);
  const statuses = await sideBySide(
    Array.from({ length: REQUESTS }, (_, i) => async () => {
      const res = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `p${i}`, kind: 'cat', note }) });
      await res.arrayBuffer();
      return res.status;
    }),
    20,
  );
  t.same(new Set(statuses), new Set([201]), 'every request answered as usual');
  t.equal(await server.stop(), 0, 'a clean stop writes what was waiting');

  const folder = path.join(project, 'fixtures', 'http');
  const files = readdirSync(folder, { recursive: true }).filter((name) => name.endsWith('.json'));
  const fixtures = files.map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')));
  t.ok(fixtures.every((f) => f.status_code === 201 && JSON.parse(f.request.body).note === note), `each of the ${files.length} files written is whole`);
  t.same(
    fixtures.map((f) => Number(f.metadata.sequence)).sort((a, b) => a - b),
    Array.from({ length: files.length }, (_, i) => i + 1),
    'numbered 1 to n without a gap: an exchange not recorded takes no number',
  );
  const lines = server.stdout.split('\n').filter((line) => line.includes('recording fell behind'));
  const dropped = lines.map((line) => Number(/fell behind: (\d+) exchange\(s\) not recorded \(POST \/v1\/pets: \1\)/.exec(line)?.[1]));
  t.ok(lines.length >= 1 && lines.length <= 2, `one warning line when it fell behind (and one more for the rest at the stop): ${lines.length}`);
  t.match(lines[0], /WARN: recording fell behind: \d+ exchange\(s\) not recorded \(POST \/v1\/pets: \d+\): the fixtures waiting to be written reached core\.fixtures\.max_unsaved_mb \(1\) or 10000 exchanges; the disk is slower than the traffic$/);
  t.ok(dropped.every((n) => n > 0), 'each line counts what it reports');
  t.equal(files.length + dropped.reduce((a, b) => a + b, 0), REQUESTS, 'written and reported not recorded add up to every exchange');
  t.ok(files.length < REQUESTS, `${REQUESTS - files.length} of ${REQUESTS} not recorded: the budget held`);
});

t.test('falling behind on WebSocket: a line past core.fixtures.max_unsaved_mb stops its recording there with one warning; the next sessions record', async (t) => {
  const project = tmpdir();
  writeFileSync(
    path.join(project, 'mock.yaml'),
    `specs: [${JSON.stringify(spec)}]
server: { ws_port: 0 }
core: { fixtures: { dir: fixtures, record_enabled: true, max_unsaved_mb: 1 } }
websocket: { max_message_bytes: 2097152, routes: [{ path: '/echo/{any}', echo: true }] }
`,
  );
  const server = await startMock(['--out', out], { cwd: project });
  t.teardown(() => server.stop());
  // one message larger than what every recording together may hold unwritten (max_recording_mb, 64, would take it)
  const big = await connect(`${server.wsUrl}/echo/big`);
  big.send('b'.repeat(1200 * 1024));
  t.equal((await big.next()).text.length, 1200 * 1024, 'the message is answered as usual');
  big.send('small');
  t.equal((await big.next()).text, 'small');
  big.close(1000, 'done');
  await big.closed;
  const later = await connect(`${server.wsUrl}/echo/later`);
  later.send('after');
  await later.next();
  later.close(1000, 'done');
  await later.closed;
  t.equal(await server.stop(), 0);

  const warnings = server.stdout.split('\n').filter((line) => line.includes('/echo/big stopped at core.fixtures.max_unsaved_mb (1)'));
  t.equal(warnings.length, 1, 'one warning naming the setting, not one per message left out');
  const folder = (name) => path.join(project, 'fixtures', 'websocket', 'echo', name);
  t.notOk(existsSync(path.join(folder('big'), 'session-0001.jsonl')), 'the session stopped before its first line: no recording');
  const recorded = readFileSync(path.join(folder('later'), 'session-0001.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  t.match(recorded, [{ dir: 'in', text: 'after' }, { dir: 'out', text: 'after' }], 'a later session records: the budget was not left taken');
});

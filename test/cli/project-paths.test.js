// Files the run writes to stay in the project unless the command line names them. Regression:
// `logging: {file: ../../.bashrc}` in a planted mock.yaml appended request lines (with paths a
// client chose) to a file outside the project, and rotation renamed and deleted it.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, startCommand, startMock } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const petstore = readFileSync(path.join(root, 'examples/petstore.yaml'), 'utf8');

t.test('logging.file of mock.yaml outside the project is refused by serve and admin; --log-file is the opt-in', async (t) => {
  const parent = t.testdir({ project: { 'api.yaml': petstore, 'mock.yaml': 'specs: [api.yaml]\nlogging: {file: ../victim.rc}\n' }, 'victim.rc': 'mine\n' });
  const project = path.join(parent, 'project');
  const victim = path.join(parent, 'victim.rc');
  const expected = `logging.file in mock.yaml leads outside the project ${project} (to ${victim}); a path elsewhere is written only when the command line gives it: pass --log-file ${victim}`;
  for (const [name, start] of [
    ['serve', () => startMock([], { cwd: project })],
    ['admin', () => startCommand(['admin', '--port', '0'], /admin on (http:\S+)/, { cwd: project })],
  ]) {
    const refused = await start().then(
      (server) => server.stop().then(() => ({ code: 0, stderr: 'started' })),
      (e) => e,
    );
    t.equal(refused.code, 1, `${name}: exit 1`);
    t.equal(refused.stderr.trim(), expected, `${name}: one line naming the setting, the project and the flag`);
  }
  t.equal(readFileSync(victim, 'utf8'), 'mine\n', 'the file outside is untouched');

  const server = await startMock(['--log-file', victim], { cwd: project, env: { MOCK_LOG_LEVEL: 'info' } });
  await (await fetch(`${server.url}/v1/health`)).arrayBuffer();
  await server.stop();
  t.match(readFileSync(victim, 'utf8'), /^mine\n.*GET \/v1\/health 200/s, 'given on the command line, it is written');
});

t.test('a log file in the project is written as before', async (t) => {
  const project = t.testdir({ 'api.yaml': petstore, 'mock.yaml': 'specs: [api.yaml]\nlogging: {file: logs/mock.log}\n', logs: {} });
  const server = await startMock([], { cwd: project, env: { MOCK_LOG_LEVEL: 'info' } });
  await (await fetch(`${server.url}/v1/health`)).arrayBuffer();
  await server.stop();
  t.match(readFileSync(path.join(project, 'logs', 'mock.log'), 'utf8'), /GET \/v1\/health 200/, 'the request line is in the file');
  writeFileSync(path.join(project, 'mock.yaml'), 'specs: [api.yaml]\nlogging: {file: stderr}\n');
  const streamed = await startMock([], { cwd: project, env: { MOCK_LOG_LEVEL: 'info' } });
  t.teardown(() => streamed.stop());
  await (await fetch(`${streamed.url}/v1/health`)).arrayBuffer();
  await until(() => /GET \/v1\/health 200/.test(streamed.stderr), 10_000, 'the request line on stderr');
  t.equal(await streamed.stop(), 0, 'stopped cleanly');
  t.notMatch(streamed.stdout, /GET \/v1\/health/, 'logging.file: stderr writes to stderr, not stdout');
  t.notOk(existsSync(path.join(project, 'stderr')), 'stdout and stderr are streams, not paths: no file named stderr');
});

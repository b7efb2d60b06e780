import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { startMock } from '../helpers/cli.js';
import { tinySpec } from './fixtures/run-cli.js';

t.test('mock serve logs one info line per configured feature that is not built yet', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': 'specs: [api.json]\nlogging: { format: json }\nadmin: { port: 9100 }\nwebsocket: { max_connections: 10 }\nai: { rag_provider: openai }\n',
    'api.json': tinySpec(1),
  });
  const server = await startMock([], { cwd, env: { MOCK_LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());
  const expected = ['ai'].map((key) => `${key} is configured but not implemented yet (see docs/configuration.md)`);
  // the log destination is asynchronous: the lines may follow "serving on"
  for (let i = 0; i < 50 && !expected.every((line) => server.stdout.includes(line)); i++) await sleep(100);
  const notes = server.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((entry) => /not implemented yet/.test(entry.msg));
  t.same(
    notes.map((entry) => [entry.level, entry.msg]),
    expected.map((line) => [30, line]),
  );
});

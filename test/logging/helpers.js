// Shared by the logging tests: a mock served from a directory holding a mock.yaml.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';

export const spec = path.join(root, 'examples/petstore.yaml');

/** One build for the whole test file: the first server builds it, the others find it fresh. */
const out = tmpdir();

/** `mock serve` in a fresh directory whose mock.yaml is `yaml`; the log level comes from MOCK_LOG_LEVEL. */
export async function serveWith(yaml, { level = 'info', dir = tmpdir() } = {}) {
  writeFileSync(path.join(dir, 'mock.yaml'), yaml);
  const server = await startMock(['--spec', spec, '--out', out], { cwd: dir, env: { MOCK_LOG_LEVEL: level } });
  return Object.assign(server, { dir });
}

export { until } from '../helpers/wait.js';

/** The JSON lines of a text, skipping the CLI's own `mock: …` lines. */
export const jsonLines = (text) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

export const requestLines = (text) => jsonLines(text).filter((line) => line.request !== undefined);

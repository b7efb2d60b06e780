import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { plainNode } from '../helpers/plain-node.js';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

/** Runs the real CLI in a child process, without the MOCK_* variables of this environment. */
function runCli(args, { cwd, env = {} } = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MOCK_')));
  const childEnv = { ...clean, NO_COLOR: '1', ...env };
  const result = spawnSync(...plainNode([bin, ...args], childEnv), { cwd, env: childEnv, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

t.test('serve --print-config shows each value with its source and exits 0', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': 'server:\n  http_port: 4000\n  bind: 10.0.0.1\nspecs: [api.yaml]\nvalidation:\n  mode: warn\n  aggregate_errors: true\n',
  });
  const { code, stdout, stderr } = runCli(
    ['serve', '--print-config', '--http-port', '8080', '--no-aggregate-errors', '--spec', 'other.yaml'],
    { cwd, env: { MOCK_HTTP_HOST: '127.0.0.1', MOCK_SEED: '7' } },
  );
  t.equal(stderr, '');
  t.equal(code, 0);
  t.match(stdout, `# config file: ${path.join(cwd, 'mock.yaml')} (found by search from the current directory)\n`);
  t.match(stdout, '\n  http_port: 8080 # from flag\n');
  t.match(stdout, '\n  bind: 127.0.0.1 # from env\n');
  t.match(stdout, `\nspecs: # from flag\n  - path: ${path.join(cwd, 'other.yaml')}\n`);
  t.match(stdout, '\n  mode: warn # from file\n');
  t.match(stdout, '\n  aggregate_errors: false # from flag\n');
  t.match(stdout, '\n  status_code: 400 # from default\n');
  t.match(stdout, '\nseed: 7 # from env\n');
  t.notMatch(stdout, /mock: serving/, 'does not start the server');
});

t.test('an unset flag does not mask the environment or the file', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'validation:\n  validate_responses: true\n' });
  const { code, stdout } = runCli(['serve', '--print-config'], { cwd, env: { MOCK_REQUEST_VALIDATION: 'off' } });
  t.equal(code, 0);
  t.match(stdout, '\n  mode: off # from env\n');
  t.match(stdout, '\n  validate_responses: true # from file\n');
  t.match(stdout, '\n  aggregate_errors: false # from default\n');
  t.match(stdout, '\n  http_port: 3000 # from default\n');
});

t.test('-c and MOCK_CONFIG_FILE choose the file', async (t) => {
  const cwd = t.testdir({ 'a.yaml': 'seed: 1\n', 'b.yaml': 'seed: 2\n' });
  const byFlag = runCli(['serve', '--print-config', '-c', 'a.yaml'], { cwd, env: { MOCK_CONFIG_FILE: 'b.yaml' } });
  t.match(byFlag.stdout, `# config file: ${path.join(cwd, 'a.yaml')} (found by --config)\n`);
  t.match(byFlag.stdout, '\nseed: 1 # from file\n');
  const byEnv = runCli(['serve', '--print-config'], { cwd, env: { MOCK_CONFIG_FILE: 'b.yaml' } });
  t.match(byEnv.stdout, `# config file: ${path.join(cwd, 'b.yaml')} (found by MOCK_CONFIG_FILE)\n`);
  t.match(byEnv.stdout, '\nseed: 2 # from file\n');
});

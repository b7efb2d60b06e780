import { spawnSync } from 'node:child_process';
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

/** Nothing on stdout, exactly one line on stderr, and the exit code (never 0). */
function failsWith(t, result, line, code) {
  t.equal(result.stdout, '', 'nothing on stdout');
  t.equal(result.stderr, `${line}\n`, 'one line on stderr');
  t.equal(result.code, code, `exit ${code}`);
}

t.test('invalid flag values', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': '' });
  failsWith(
    t,
    runCli(['serve', '--validation', 'maybe'], { cwd }),
    'mock: Expected --validation=maybe to be one of: off, warn, enforce (see mock serve --help)',
    2,
  );
  failsWith(
    t,
    runCli(['serve', '--http-port', 'abc'], { cwd }),
    'mock: --http-port: Expected an integer but received: abc (see mock serve --help)',
    2,
  );
  failsWith(t, runCli(['serve', '--seed', '1.5'], { cwd }), 'mock: --seed: Expected an integer but received: 1.5 (see mock serve --help)', 2);
  failsWith(t, runCli(['serve', '--bogus'], { cwd }), 'mock: Nonexistent flag: --bogus (see mock serve --help)', 2);
  failsWith(t, runCli(['build', '--spec'], { cwd }), 'mock: Flag --spec expects a value (see mock build --help)', 2);
  failsWith(t, runCli(['serve', '--validation-status', '999'], { cwd }), '--validation-status: expected integer <= 599, got 999', 1);
  failsWith(t, runCli(['serve', '--http-port', '70000'], { cwd }), '--http-port: expected integer <= 65535, got 70000', 1);
});

t.test('a missing argument: one line naming it, its place and an example', async (t) => {
  const cwd = t.testdir({});
  failsWith(t, runCli(['init'], { cwd }), 'mock init: missing the <name> argument: run mock init <name>, e.g. mock init my-api', 2);
  failsWith(
    t,
    runCli(['init', '--blueprint', 'ecommerce'], { cwd }),
    'mock init: missing the <name> argument: run mock init <name>, e.g. mock init my-api',
    2,
  );
  failsWith(
    t,
    runCli(['admin', 'hash-password'], { cwd }),
    'mock admin hash-password: missing the <password> argument: run mock admin hash-password <password>, e.g. mock admin hash-password "correct horse battery staple"',
    2,
  );
});

t.test('a missing --config file', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': '' });
  failsWith(t, runCli(['serve', '--config', './x.yaml'], { cwd }), 'config not found: ./x.yaml (checked --config)', 1);
  failsWith(t, runCli(['build', '-c', 'nope.yml'], { cwd }), 'config not found: nope.yml (checked --config)', 1);
  failsWith(
    t,
    runCli(['serve'], { cwd, env: { MOCK_CONFIG_FILE: 'gone.yaml' } }),
    'config not found: gone.yaml (checked MOCK_CONFIG_FILE)',
    1,
  );
});

t.test('bad config files and environment values', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'server:\n  http_port: abc\n', broken: { 'mock.yaml': 'a: [1\n' } });
  failsWith(t, runCli(['serve', '--print-config'], { cwd }), 'mock.yaml: server.http_port: expected integer, got "abc"', 1);
  const yamlError =
    '2:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; align keys of the same mapping at the same column';
  failsWith(t, runCli(['serve'], { cwd: `${cwd}/broken` }), `mock.yaml:${yamlError}`, 1);
  failsWith(t, runCli(['serve', '-c', 'broken/mock.yaml'], { cwd }), `broken/mock.yaml:${yamlError}`, 1);
  const clean = t.testdir({ 'mock.yaml': '' });
  failsWith(t, runCli(['serve'], { cwd: clean, env: { MOCK_HTTP_PORT: 'x' } }), 'MOCK_HTTP_PORT: expected integer, got "x"', 1);
});

t.test('no spec and a missing spec', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'specs: [missing.yaml]\n', empty: { 'mock.yaml': '' } });
  failsWith(t, runCli(['build'], { cwd: `${cwd}/empty` }), 'no spec given: pass --spec <path|url> or list specs: in mock.yaml', 1);
  failsWith(t, runCli(['serve'], { cwd: `${cwd}/empty` }), 'no spec given: pass --spec <path|url> or list specs: in mock.yaml', 1);
  failsWith(t, runCli(['build', '--spec', 'nope.yaml'], { cwd }), 'spec not found: nope.yaml (checked --spec)', 1);
  failsWith(t, runCli(['serve'], { cwd }), 'spec not found: missing.yaml (checked specs: in mock.yaml)', 1);
});

t.test('stack traces only with --debug or MOCK_LOG_LEVEL=debug', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': '' });
  const plain = runCli(['serve', '-c', 'x.yaml'], { cwd });
  t.notMatch(plain.stderr, /\n\s+at /);
  for (const [args, env] of [
    [['serve', '-c', 'x.yaml', '--debug'], {}],
    [['serve', '-c', 'x.yaml'], { MOCK_LOG_LEVEL: 'debug' }],
  ]) {
    const { code, stderr } = runCli(args, { cwd, env });
    t.equal(code, 1);
    t.match(stderr, /^config not found: x\.yaml \(checked --config\)\n/);
    t.match(stderr, /\n\s+at .*lookup\.js/);
  }
});

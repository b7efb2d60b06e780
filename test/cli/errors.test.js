import { fileURLToPath } from 'node:url';
import t from 'tap';
import { runCli } from '../helpers/cli.js';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

/** Starts every run of `runs` ([args, options]) at once; resolves with their results in order. */
const runAll = (runs) => Promise.all(runs.map(([args, options]) => runCli(args, options)));

/** Nothing on stdout, exactly one line on stderr, and the exit code (never 0). */
function failsWith(t, result, line, code) {
  t.equal(result.stdout, '', 'nothing on stdout');
  t.equal(result.stderr, `${line}\n`, 'one line on stderr');
  t.equal(result.code, code, `exit ${code}`);
}

t.test('invalid flag values', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': '' });
  const cases = [
    [['serve', '--validation', 'maybe'], 'mock: Expected --validation=maybe to be one of: off, warn, enforce (see mock serve --help)', 2],
    [['serve', '--http-port', 'abc'], 'mock: --http-port: Expected an integer but received: abc (see mock serve --help)', 2],
    [['serve', '--seed', '1.5'], 'mock: --seed: Expected an integer but received: 1.5 (see mock serve --help)', 2],
    [['serve', '--bogus'], 'mock: Nonexistent flag: --bogus (see mock serve --help)', 2],
    [['build', '--spec'], 'mock: Flag --spec expects a value (see mock build --help)', 2],
    [['serve', '--validation-status', '999'], '--validation-status: expected integer <= 599, got 999', 1],
    [['serve', '--http-port', '70000'], '--http-port: expected integer <= 65535, got 70000', 1],
  ];
  const results = await runAll(cases.map(([args]) => [args, { cwd }]));
  cases.forEach(([, line, code], i) => failsWith(t, results[i], line, code));
});

t.test('an unknown flag: one line naming the closest flag of that command', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': '' });
  const cases = [
    [['serve', '--port', '3000'], 'mock: Nonexistent flag: --port; did you mean --http-port? (see mock serve --help)', 2],
    [['serve', '--hots', '127.0.0.1'], 'mock: Nonexistent flag: --hots; did you mean --host? (see mock serve --help)', 2],
    [['init', 'x', '--blue-print', 'ecommerce'], 'mock: Nonexistent flag: --blue-print; did you mean --blueprint? (see mock init --help)', 2],
    [['init', 'x', '--no-example'], 'mock: Nonexistent flag: --no-example; did you mean --no-examples? (see mock init --help)', 2],
    [['build', '--outdir', 'gen'], 'mock: Nonexistent flag: --outdir; did you mean --out? (see mock build --help)', 2],
    [['serve', '--port', '1', '--frobnicate'], 'mock: Nonexistent flags: --port, --frobnicate; did you mean --http-port (for --port)? (see mock serve --help)', 2],
  ];
  const results = await runAll(cases.map(([args]) => [args, { cwd }]));
  cases.forEach(([, line, code], i) => failsWith(t, results[i], line, code));
});

t.test('a missing argument: one line naming it, its place and an example', async (t) => {
  const cwd = t.testdir({});
  const cases = [
    [['init'], 'mock init: missing the <name> argument: run mock init <name>, e.g. mock init my-api', 2],
    [['init', '--blueprint', 'ecommerce'], 'mock init: missing the <name> argument: run mock init <name>, e.g. mock init my-api', 2],
    [
      ['admin', 'hash-password'],
      'mock admin hash-password: missing the <password> argument: run mock admin hash-password <password>, e.g. mock admin hash-password "correct horse battery staple"',
      2,
    ],
  ];
  const results = await runAll(cases.map(([args]) => [args, { cwd }]));
  cases.forEach(([, line, code], i) => failsWith(t, results[i], line, code));
});

t.test('a missing --config file', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': '' });
  const [flag, short, env] = await runAll([
    [['serve', '--config', './x.yaml'], { cwd }],
    [['build', '-c', 'nope.yml'], { cwd }],
    [['serve'], { cwd, env: { MOCK_CONFIG_FILE: 'gone.yaml' } }],
  ]);
  failsWith(t, flag, 'config not found: ./x.yaml (checked --config)', 1);
  failsWith(t, short, 'config not found: nope.yml (checked --config)', 1);
  failsWith(t, env, 'config not found: gone.yaml (checked MOCK_CONFIG_FILE)', 1);
});

t.test('bad config files and environment values', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'server:\n  http_port: abc\n', broken: { 'mock.yaml': 'a: [1\n' }, clean: { 'mock.yaml': '' } });
  const [printConfig, broken, brokenFlag, envValue] = await runAll([
    [['serve', '--print-config'], { cwd }],
    [['serve'], { cwd: `${cwd}/broken` }],
    [['serve', '-c', 'broken/mock.yaml'], { cwd }],
    [['serve'], { cwd: `${cwd}/clean`, env: { MOCK_HTTP_PORT: 'x' } }],
  ]);
  failsWith(t, printConfig, 'mock.yaml: server.http_port: expected integer, got "abc"', 1);
  const yamlError =
    '2:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; align keys of the same mapping at the same column';
  failsWith(t, broken, `mock.yaml:${yamlError}`, 1);
  failsWith(t, brokenFlag, `broken/mock.yaml:${yamlError}`, 1);
  failsWith(t, envValue, 'MOCK_HTTP_PORT: expected integer, got "x"', 1);
});

t.test('no spec and a missing spec', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'specs: [missing.yaml]\n', empty: { 'mock.yaml': '' } });
  const [build, serve, flag, listed] = await runAll([
    [['build'], { cwd: `${cwd}/empty` }],
    [['serve'], { cwd: `${cwd}/empty` }],
    [['build', '--spec', 'nope.yaml'], { cwd }],
    [['serve'], { cwd }],
  ]);
  failsWith(t, build, 'no spec given: pass --spec <path|url> (or --graphql-schema <path> to mock a GraphQL schema, put .proto files in proto/ or --proto-dir <dir> to mock gRPC, or --ws-port <port> or websocket.routes in mock.yaml to mock WebSocket) or list specs: in mock.yaml', 1);
  failsWith(t, serve, 'no spec given: pass --spec <path|url> (or --graphql-schema <path> to mock a GraphQL schema, put .proto files in proto/ or --proto-dir <dir> to mock gRPC, or --ws-port <port> or websocket.routes in mock.yaml to mock WebSocket) or list specs: in mock.yaml', 1);
  failsWith(t, flag, 'spec not found: nope.yaml (checked --spec)', 1);
  failsWith(t, listed, 'spec not found: missing.yaml (checked specs: in mock.yaml)', 1);
});

t.test('stack traces only with --debug or MOCK_LOG_LEVEL=debug', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': '' });
  const [plain, ...debug] = await runAll([
    [['serve', '-c', 'x.yaml'], { cwd }],
    [['serve', '-c', 'x.yaml', '--debug'], { cwd }],
    [['serve', '-c', 'x.yaml'], { cwd, env: { MOCK_LOG_LEVEL: 'debug' } }],
  ]);
  t.notMatch(plain.stderr, /\n\s+at /);
  for (const { code, stderr } of debug) {
    t.equal(code, 1);
    t.match(stderr, /^config not found: x\.yaml \(checked --config\)\n/);
    t.match(stderr, /\n\s+at .*lookup\.js/);
  }
});

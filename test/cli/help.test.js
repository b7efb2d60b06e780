import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

/** Runs the real CLI in a child process, without the MOCK_* variables of this environment. */
function runCli(args, { cwd, env = {} } = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MOCK_')));
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, env: { ...clean, NO_COLOR: '1', ...env }, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

t.test('mock --help lists the commands', async (t) => {
  const { code, stdout } = runCli(['--help']);
  t.equal(code, 0);
  t.match(stdout, /USAGE\n\s+\$ mock \[COMMAND\]/);
  t.match(stdout, /\n\s+build\s+Compile API descriptions/);
  t.match(stdout, /\n\s+serve\s+Serve mocks of API descriptions/);
});

t.test('mock serve --help shows every flag of this issue, the examples and the defaults', async (t) => {
  const { code, stdout } = runCli(['serve', '--help']);
  t.equal(code, 0);
  for (const flag of [
    '--spec=<path|url>...',
    '-c, --config=<path>',
    '--http-port=<port>',
    '--host=<address>',
    '--validation=<option>',
    '--validation-status=<code>',
    '--[no-]aggregate-errors',
    '--[no-]validate-responses',
    '--[no-]response-template-expand',
    '--seed=<int>',
    '--out=<dir>',
    '--name=<value>',
    '--print-config',
    '--debug',
  ]) {
    t.ok(stdout.includes(flag), flag);
  }
  t.match(stdout, /<options: off\|warn\|enforce>/);
  t.match(stdout, /HTTP port; 0 picks a free one \[default:\s+3000\]/);
  t.match(stdout, /EXAMPLES\n\s+\$ mock serve --spec api\.yaml\n/);
  t.notMatch(stdout, /--ws-port|--grpc-port|--admin/, 'flags of later issues are not there yet');
});

t.test('mock build --help shows its flags and examples', async (t) => {
  const { code, stdout } = runCli(['build', '--help']);
  t.equal(code, 0);
  for (const flag of ['--spec=<path|url>...', '-c, --config=<path>', '--out=<dir>', '--name=<value>', '--check', '--json', '--debug']) {
    t.ok(stdout.includes(flag), flag);
  }
  t.match(stdout, /EXAMPLES\n\s+\$ mock build --spec api\.yaml\n/);
  t.match(stdout, /\$ mock build --check/);
});

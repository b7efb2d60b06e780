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

t.test('mock --help lists the commands', async (t) => {
  const { code, stdout } = runCli(['--help']);
  t.equal(code, 0);
  t.match(stdout, /USAGE\n\s+\$ mock \[COMMAND\]/);
  t.match(stdout, /\n\s+build\s+Compile API descriptions/);
  t.match(stdout, /\n\s+serve\s+Serve mocks of API descriptions/);
  t.match(stdout, /\n\s+config\s+Check mock\.yaml/, 'the config topic');
});

t.test('mock config --help lists validate and show', async (t) => {
  const { code, stdout } = runCli(['config', '--help']);
  t.equal(code, 0);
  t.match(stdout, /\n\s+config show\s+Print the effective configuration/);
  t.match(stdout, /\n\s+config validate\s+Check a config file/);
});

t.test('mock serve --help shows every flag of the spec, the examples and the defaults', async (t) => {
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
    '--ws-port=<port>',
    '--grpc-port=<port>',
    '--[no-]admin ',
    '--admin-port=<port>',
    '--[no-]admin-embed',
    '--admin-mount-path=<path>',
    '--[no-]admin-standalone',
    '--disable-admin-api',
    '--[no-]latency-enabled',
    '--[no-]failures-enabled',
    '--[no-]chaos ',
    '--chaos-latency-range=<min-max>',
    '--chaos-http-errors=<codes>',
    '--chaos-http-error-probability=<number>',
    '--chaos-rate-limit=<rps>',
    '--[no-]rate-limit',
    '--chaos-bandwidth-limit=<bytes/s>',
    '--chaos-packet-loss=<percent>',
    '--chaos-profile=<name>',
    '--[no-]record ',
    '--[no-]replay',
    '--proxy-target=<url>',
    '--[no-]recorder ',
    '--recorder-db=<path>',
    '--[no-]metrics ',
    '--metrics-port=<port>',
    '--max-connections=<n>',
    '--[no-]ai-enabled',
    '--rag-provider=<recorder|fixtures>',
  ]) {
    t.ok(stdout.includes(flag), flag);
  }
  t.match(stdout, /<options: off\|warn\|enforce>/);
  t.match(stdout, /HTTP port; 0 picks a free one \[default:\s+3000\]/);
  const flat = stdout.replace(/\s+/g, ' '); // help text wraps at the terminal width
  t.match(flat, 'checked against the response schema, the generator as fallback (docs/ai.md) [default: false]', 'AI-assisted mocks are built');
  t.notMatch(flat, 'not implemented yet', 'every serve flag is built');
  t.match(flat, 'gRPC port, which starts the gRPC server (.proto files from grpc.proto_dir, proto/ by default); 0 picks a free one [default: 50051]', 'the gRPC server is built');
  t.match(flat, 'WebSocket port, which starts the WebSocket server; 0 picks a free one [default: 3001]', 'the WebSocket server is built');
  t.match(flat, 'Metrics port [default: 9090]', 'built features do not');
  t.match(flat, 'Random latency range in ms, e.g. 10-500 [default: 0-1000]');
  t.match(flat, 'Record every answered exchange as a fixture file under core.fixtures.dir [default: false]', 'record and replay are built');
  t.match(flat, 'HTTP port; 0 picks a free one [default: 3000]', 'built features do not');
  t.match(stdout, /\nADMIN FLAGS\n/);
  t.match(stdout, /\nCHAOS FLAGS\n/);
  t.match(stdout, /EXAMPLES\n\s+\$ mock serve --spec api\.yaml\n/);
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

// The repository root, where the README's quick start leaves a newcomer, has no mock.yaml (one
// there would be found from every folder below it, the tests' t.testdir() folders included): the
// README gives the commands with what they read, and they work there as written.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { root } from '../helpers/cli.js';
import { failsWith, runCli } from './fixtures/run-cli.js';

const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');

t.test('mock config validate and mock build --check, as the README gives them for the repository root', async (t) => {
  const validate = ['config', 'validate', '-c', 'blueprints/petstore/mock.yaml'];
  const check = ['build', '--check', '--spec', 'examples/petstore.yaml'];
  for (const args of [validate, check, ['serve', '--spec', 'examples/petstore.yaml']]) {
    t.match(readme, `\`mock ${args.join(' ')}\``, `the README gives mock ${args.join(' ')}`);
  }
  const validated = runCli(validate, { cwd: root });
  t.equal(validated.code, 0, validated.stderr);
  t.match(validated.stdout, /^blueprints\/petstore\/mock\.yaml: valid\n/);
  const checked = runCli(check, { cwd: root });
  t.equal(checked.code, 0, checked.stderr);
  t.equal(checked.stdout, 'mock: generated/petstore is up to date\n');
});

t.test('bare, they say in one line what they miss', async (t) => {
  t.notOk(fs.existsSync(path.join(root, 'mock.yaml')), 'no mock.yaml in the repository root');
  failsWith(t, runCli(['build', '--check'], { cwd: root }), 'no spec given: pass --spec <path|url> (or --graphql-schema <path> to mock a GraphQL schema, put .proto files in proto/ or --proto-dir <dir> to mock gRPC, or --ws-port <port> or websocket.routes in mock.yaml to mock WebSocket) or list specs: in mock.yaml', 1);
  failsWith(
    t,
    runCli(['config', 'validate'], { cwd: root }),
    `no config file found: looked for mock.yaml, mock.yml, .mock.yaml, .mock.yml in ${root} and its parents; pass -c <path> or create one with mock init`,
    1,
  );
});

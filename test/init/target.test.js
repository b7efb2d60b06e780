// Where `mock init` writes: a new folder, `.`, refusing a non-empty folder, --force.
import t from 'tap';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { spawn } from 'node:child_process';
import { bin, root, runMock, tmpdir } from '../helpers/cli.js';
import { plainNode } from '../helpers/plain-node.js';

const PETSTORE_FILES = ['README.md', 'api.yaml', 'fixtures/http/get-pet-1.json', 'mock.yaml'];
// a PATH without `mock` (the CLI is started by file, as after `npm install` in a clone), outside npm
const NO_MOCK_ON_PATH = { PATH: path.dirname(process.execPath), npm_command: undefined };
const script = realpathSync(bin);
/** The next command without mock on the PATH: this bin/run.js by its path from the project folder, or absolute when that is shorter. */
const serveByFile = (project) => {
  const relative = path.relative(realpathSync(project), script);
  return `node ${relative.length < script.length ? relative : script} serve`;
};

t.test('mock init <name> creates the folder, lists the files and prints the next command', async (t) => {
  const cwd = t.testdir();
  const { code, stdout, stderr } = await runMock(['init', 'my-api'], { cwd, env: NO_MOCK_ON_PATH });
  t.equal(code, 0, stderr);
  t.equal(stderr, '');
  t.equal(
    stdout,
    [
      'mock: created my-api from the petstore blueprint',
      ...PETSTORE_FILES.map((f) => `  created   my-api/${f}`),
      '',
      `Next: cd my-api && ${serveByFile(path.join(cwd, 'my-api'))}`,
      '',
    ].join('\n'),
    'without mock on the PATH the next command runs this bin/run.js with node',
  );
  for (const file of PETSTORE_FILES) t.ok(existsSync(path.join(cwd, 'my-api', file)), file);
});

t.test('the next command is `mock serve` only when the `mock` on the PATH is this installation', async (t) => {
  const cwd = t.testdir({ linked: {}, other: {} });
  symlinkSync(bin, path.join(cwd, 'linked', 'mock')); // what npm link or a global install makes
  symlinkSync(process.execPath, path.join(cwd, 'other', 'mock')); // some other program called mock
  const withPath = (dir, extra = {}) => ({ cwd, env: { ...NO_MOCK_ON_PATH, PATH: `${path.join(cwd, dir)}${path.delimiter}${path.dirname(process.execPath)}`, ...extra } });
  const [linked, other, npx, runBy] = await Promise.all([
    runMock(['init', 'a'], withPath('linked')),
    runMock(['init', 'b'], withPath('other')),
    runMock(['init', 'c'], withPath('linked', { npm_command: 'exec' })),
    runMock(['init', 'd'], withPath('linked', { npm_command: 'run-script' })),
  ]);
  t.match(linked.stdout, /\nNext: cd a && mock serve\n$/, 'linked: mock serve');
  t.match(other.stdout, `\nNext: cd b && ${serveByFile(path.join(cwd, 'b'))}\n`, 'another mock on the PATH is not this one');
  t.match(npx.stdout, '\nNext: cd c && npx mock-compiler serve\n', "under npx (npm_command=exec) the command as the user ran it, whatever npm's PATH holds");
  t.match(runBy.stdout, `\nNext: cd d && ${serveByFile(path.join(cwd, 'd'))}\n`, "under npm run the PATH is npm's, not the shell's");
});

t.test('run from npx\'s cache (its _npx folder), the next command is npx with the package\'s name, not the cache\'s path', async (t) => {
  // what `npx mock-compiler` runs: the package installed under ~/.npm/_npx/<hash>/node_modules
  const cwd = t.testdir({ cache: { _npx: { '4f2a': { node_modules: {} } } }, work: {} });
  const installed = path.join(cwd, 'cache', '_npx', '4f2a', 'node_modules', 'mock-compiler');
  symlinkSync(root, installed);
  const env = { ...process.env, ...NO_MOCK_ON_PATH };
  delete env.npm_command;
  const { code, stdout, stderr } = await new Promise((resolve) => {
    const child = spawn(...plainNode([path.join(installed, 'bin', 'run.js'), 'init', 'my-api'], env), { cwd: path.join(cwd, 'work'), env });
    let [out, err] = ['', ''];
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
  });
  t.equal(code, 0, stderr);
  t.match(stdout, /\nNext: cd my-api && npx mock-compiler serve\n$/);
  t.notMatch(stdout, '_npx');
});

t.test('mock init . scaffolds the current directory, named after it', async (t) => {
  const cwd = path.join(t.testdir({ 'orders-mock': { '.git': { HEAD: 'ref: refs/heads/main\n' } } }), 'orders-mock');
  const { code, stdout, stderr } = await runMock(['init', '.', '--blueprint', 'ecommerce'], { cwd, env: NO_MOCK_ON_PATH });
  t.equal(code, 0, `a folder holding only .git counts as empty: ${stderr}`);
  t.match(stdout, 'mock: created a project in the current directory from the ecommerce blueprint\n');
  t.match(stdout, '  created   mock.yaml\n');
  t.ok(stdout.endsWith(`\nNext: ${serveByFile(cwd)}\n`), 'no cd when the project is here');
  t.match(readFileSync(path.join(cwd, 'README.md'), 'utf8'), /^# orders-mock\n/);
  t.match(readFileSync(path.join(cwd, 'api.yaml'), 'utf8'), 'title: "orders-mock shop"');
  t.ok(existsSync(path.join(cwd, '.git', 'HEAD')));
});

t.test('a non-empty folder is refused without --force; --force overwrites only the project files', async (t) => {
  const cwd = t.testdir({ 'my-api': { 'notes.txt': 'mine\n', 'mock.yaml': 'server: { http_port: 8080 }\n', fixtures: { 'recorded.json': '{}' } } });
  const dir = path.join(cwd, 'my-api');
  const refused = await runMock(['init', 'my-api'], { cwd });
  t.equal(refused.code, 1);
  t.equal(refused.stdout, '');
  t.equal(refused.stderr, "mock: my-api is not empty; use --force to write the project's files into it (other files are kept)\n", 'one line naming the folder and --force');
  t.equal(readFileSync(path.join(dir, 'mock.yaml'), 'utf8'), 'server: { http_port: 8080 }\n', 'nothing written');
  t.notOk(existsSync(path.join(dir, 'api.yaml')));

  const forced = await runMock(['init', 'my-api', '--force'], { cwd });
  t.equal(forced.code, 0, forced.stderr);
  t.match(forced.stdout, '  overwrote my-api/mock.yaml\n');
  t.match(forced.stdout, '  created   my-api/api.yaml\n');
  t.match(readFileSync(path.join(dir, 'mock.yaml'), 'utf8'), 'specs:\n  - ./api.yaml\n');
  t.equal(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'mine\n', 'other files are kept');
  t.equal(readFileSync(path.join(dir, 'fixtures', 'recorded.json'), 'utf8'), '{}');

  // another blueprint over it, without examples: nothing is deleted, the old example fixture stays
  const again = await runMock(['init', 'my-api', '--force', '--blueprint', 'banking-lite', '--no-examples'], { cwd });
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, 'from the banking-lite blueprint (no examples)');
  t.same(readdirSync(path.join(dir, 'fixtures')).sort(), ['http', 'recorded.json']);
  t.same(readdirSync(path.join(dir, 'fixtures', 'http')).sort(), ['.gitkeep', 'get-pet-1.json']);
  t.match(readFileSync(path.join(dir, 'mock.yaml'), 'utf8'), 'banking-lite blueprint');
  t.equal(readdirSync(dir).filter((f) => !f.startsWith('.')).length, 5, 'README.md, api.yaml, fixtures, mock.yaml, notes.txt');
});

t.test('bad targets and flags are one-line errors', async (t) => {
  const cwd = t.testdir({ 'a-file': 'x' });
  const file = await runMock(['init', 'a-file'], { cwd });
  t.equal(file.code, 1);
  t.equal(file.stderr, 'mock: a-file exists and is not a directory; choose another name\n');

  const blueprint = await runMock(['init', 'x', '--blueprint', 'crm'], { cwd });
  t.not(blueprint.code, 0);
  t.match(blueprint.stderr, /^mock: .*--blueprint=crm.*petstore, ecommerce, b2c-saas, banking-lite.*\n$/);
  t.equal(blueprint.stderr.trim().split('\n').length, 1);
  t.notOk(existsSync(path.join(cwd, 'x')));

  const missing = await runMock(['init'], { cwd });
  t.not(missing.code, 0);
  t.equal(missing.stderr.trim().split('\n').length, 1, missing.stderr);
  t.match(missing.stderr, /name/i);
});

t.test('a project name that YAML would misread is written safely; a path with spaces is quoted in the next command', async (t) => {
  const cwd = tmpdir();
  mkdirSync(path.join(cwd, 'apps'));
  const { code, stdout, stderr } = await runMock(['init', 'apps/my "api": v2'], { cwd, env: NO_MOCK_ON_PATH });
  t.equal(code, 0, stderr);
  t.match(stdout, `Next: cd 'apps/my "api": v2' && ${serveByFile(path.join(cwd, 'apps', 'my "api": v2'))}`);
  const api = readFileSync(path.join(cwd, 'apps', 'my "api": v2', 'api.yaml'), 'utf8');
  t.equal(parse(api).info.title, 'my "api": v2 pet store');
});

t.test('mock init --help documents the blueprints, --no-examples and --force', async (t) => {
  const { code, stdout } = await runMock(['init', '--help'], { env: { NO_COLOR: '1' } });
  t.equal(code, 0);
  for (const text of ['--blueprint=<name>', '[default: petstore]', '--[no-]examples', '--force', 'petstore', 'ecommerce', 'b2c-saas', 'banking-lite', '$ mock init my-api', '$ mock init . --blueprint banking-lite --no-examples']) {
    t.ok(stdout.includes(text), text);
  }
});

// `mock plugin install/list/info/update/uninstall/validate/test/bench` as a user runs them: a local
// file, a URL served on loopback, a local Git repository's version tag; --checksum verified before
// anything is written; --force; update to the repository's newest tag; one-line errors.
import t from 'tap';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { root, runMock, tmpdir } from '../helpers/cli.js';
import { constant, testPlugin } from '../helpers/plugins.js';

const upper = path.join(root, 'plugins/examples/template-function/upper.wasm');
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const mock = (cwd, ...args) => runMock(['plugin', ...args], { cwd });
const installed = (cwd) => (existsSync(path.join(cwd, '.mock/plugins')) ? readdirSync(path.join(cwd, '.mock/plugins')) : []);
const greeter = (version, text) =>
  testPlugin('greeter', { hello: 'template_function' }, `${constant(128, JSON.stringify(text))} (func (export "hello") (param i32 i32) (result i32) (i32.const 128))`, {
    version,
    tests: [{ action: 'hello', input: [], output: text }],
  });

t.test('a local file: installed, listed, described, validated, tested, benchmarked, uninstalled', async (t) => {
  const cwd = tmpdir();
  const install = await mock(cwd, 'install', upper);
  t.equal(install.code, 0, install.stderr);
  t.match(install.stdout, `installed plugin upper 1.0.0 (sha256:${sha(readFileSync(upper))})`);
  const record = JSON.parse(readFileSync(path.join(cwd, '.mock/plugins/upper/install.json'), 'utf8'));
  t.same(record, { name: 'upper', version: '1.0.0', source: upper, sha256: sha(readFileSync(upper)) });
  const list = JSON.parse((await mock(cwd, 'list', '--json')).stdout);
  t.same(
    list.map((p) => [p.name, p.actions]),
    [['upper', { upper: 'template_function' }]],
  );
  const info = JSON.parse((await mock(cwd, 'info', 'upper', '--json')).stdout);
  t.same(info.limits, { max_memory_mb: 50, max_execution_ms: 1000, allowed_paths: [] });
  t.equal(info.memory_max_bytes, 16 * 65536);
  t.match((await mock(cwd, 'validate', 'upper')).stdout, 'plugin upper 1.0.0 is valid (ABI 1; actions upper (template_function))');
  const test = await mock(cwd, 'test', 'upper');
  t.equal(test.code, 0);
  t.match(test.stdout, '2 test cases passed');
  const bench = await mock(cwd, 'bench', 'upper', '--calls', '2000', '--json');
  t.equal(bench.code, 0, bench.stderr);
  const measured = JSON.parse(bench.stdout);
  t.equal(measured.action, 'upper');
  t.ok(measured.calls_per_second > 0 && measured.p99_us >= measured.p50_us);
  const again = await mock(cwd, 'install', upper);
  t.equal(again.code, 1);
  t.match(again.stderr, 'plugin upper is installed already');
  t.match(again.stderr, '--force');
  t.equal((await mock(cwd, 'install', upper, '--force')).code, 0);
  t.equal((await mock(cwd, 'uninstall', 'upper')).code, 0);
  t.same(installed(cwd), []);
  const gone = await mock(cwd, 'info', 'upper');
  t.equal(gone.code, 1);
  t.match(gone.stderr, 'plugin upper is not installed');
});

t.test('--checksum: a match installs, a mismatch is refused before anything is written', async (t) => {
  const cwd = tmpdir();
  const wrong = await mock(cwd, 'install', upper, '--checksum', `sha256:${'0'.repeat(64)}`);
  t.equal(wrong.code, 1);
  t.match(wrong.stderr, `checksum mismatch for ${upper}: expected sha256:${'0'.repeat(64)}, got sha256:${sha(readFileSync(upper))}`);
  t.same(installed(cwd), [], 'nothing written');
  const malformed = await mock(cwd, 'install', upper, '--checksum', 'md5:abc');
  t.equal(malformed.code, 1);
  t.match(malformed.stderr, 'is not a SHA-256 checksum');
  const right = await mock(cwd, 'install', upper, '--checksum', `sha256:${sha(readFileSync(upper))}`);
  t.equal(right.code, 0, right.stderr);
  t.equal(JSON.parse(readFileSync(path.join(cwd, '.mock/plugins/upper/install.json'), 'utf8')).pinned, `sha256:${sha(readFileSync(upper))}`);
  const unpinned = await mock(cwd, 'update', 'upper');
  t.equal(unpinned.code, 1, 'a pinned plugin is not updated without the new checksum');
  t.match(unpinned.stderr, 'plugin upper was installed with --checksum: give the checksum of');
  const pinned = await mock(cwd, 'update', 'upper', '--checksum', `sha256:${sha(readFileSync(upper))}`);
  t.equal(pinned.code, 0, pinned.stderr);
  t.match(pinned.stdout, 'plugin upper 1.0.0 is up to date');
});

t.test('a URL served on loopback', async (t) => {
  const bytes = readFileSync(upper);
  const server = http.createServer((req, res) => (req.url === '/upper.wasm' ? res.end(bytes) : res.writeHead(404).end()));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${server.address().port}`;
  const cwd = tmpdir();
  const res = await mock(cwd, 'install', `${url}/upper.wasm`, '--checksum', `sha256:${sha(bytes)}`);
  t.equal(res.code, 0, res.stderr);
  t.equal(JSON.parse(readFileSync(path.join(cwd, '.mock/plugins/upper/install.json'), 'utf8')).source, `${url}/upper.wasm`);
  const missing = await mock(cwd, 'install', `${url}/nope.wasm`);
  t.equal(missing.code, 1);
  t.match(missing.stderr, `plugin source cannot be fetched: ${url}/nope.wasm answered 404`);
});

t.test("a local Git repository's version tag, then update to its newest tag", async (t) => {
  const repo = tmpdir();
  const git = (...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q');
  writeFileSync(path.join(repo, 'plugin.wasm'), greeter('1.0.0', 'hello'));
  git('add', '.');
  git('commit', '-qm', 'one');
  git('tag', 'v1.0.0');
  const cwd = tmpdir();
  const untagged = await mock(cwd, 'install', `git+${repo}`);
  t.equal(untagged.code, 1);
  t.match(untagged.stderr, 'names no version tag: write git+<repository>#v1.2.0');
  const res = await mock(cwd, 'install', `git+${repo}#v1.0.0`);
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, 'installed plugin greeter 1.0.0');
  t.match((await mock(cwd, 'update', 'greeter')).stdout, 'plugin greeter 1.0.0 is up to date');
  writeFileSync(path.join(repo, 'plugin.wasm'), greeter('1.1.0', 'hello again'));
  git('commit', '-qam', 'two');
  git('tag', 'v1.1.0');
  const update = await mock(cwd, 'update', 'greeter');
  t.equal(update.code, 0, update.stderr);
  t.match(update.stdout, `updated plugin greeter 1.0.0 -> 1.1.0`);
  const record = JSON.parse(readFileSync(path.join(cwd, '.mock/plugins/greeter/install.json'), 'utf8'));
  t.equal(record.source, `git+${repo}#v1.1.0`);
  t.match((await mock(cwd, 'test', 'greeter')).stdout, '1 test cases passed');
});

t.test('validate refuses a module that breaks the ABI or the limits, naming each problem', async (t) => {
  const cwd = tmpdir();
  mkdirSync(path.join(cwd, 'm'));
  const big = path.join(cwd, 'm/big.wasm');
  writeFileSync(big, testPlugin('big', { a: 'data_source' }, `(func (export "a") (param i32 i32) (result i32) (i32.const 0))`, { memory: '(memory (export "memory") 1 1600)' }));
  const res = await mock(cwd, 'validate', big);
  t.equal(res.code, 1);
  t.match(res.stderr, 'memory maximum 100 MB is above max_memory_mb 50');
  const unbounded = path.join(cwd, 'm/unbounded.wasm');
  writeFileSync(unbounded, testPlugin('unbounded', { a: 'data_source' }, `(func (export "a") (param i32 i32) (result i32) (i32.const 0))`, { memory: '(memory (export "memory") 1)' }));
  t.match((await mock(cwd, 'install', unbounded)).stderr, 'memory declares no maximum');
  t.same(installed(cwd), []);
  const missing = path.join(cwd, 'm/missing.wasm');
  writeFileSync(missing, testPlugin('missing', { absent: 'middleware' }, ''));
  t.match((await mock(cwd, 'validate', missing)).stderr, 'export absent is missing');
  const failing = path.join(cwd, 'm/failing.wasm');
  writeFileSync(
    failing,
    testPlugin('failing', { a: 'data_source' }, `${constant(128, '1')} (func (export "a") (param i32 i32) (result i32) (i32.const 128))`, { tests: [{ action: 'a', input: [], output: 2 }] }),
  );
  t.equal((await mock(cwd, 'install', failing)).code, 0);
  const test = await mock(cwd, 'test', 'failing');
  t.equal(test.code, 1);
  t.match(test.stdout, 'not ok 1 a: expected 2, got 1');
  t.match(test.stderr, 'plugin failing: 1 of 1 test cases failed');
});

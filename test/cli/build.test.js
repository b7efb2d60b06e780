import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
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

const spec = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: { responses: { 200: { description: 'ok', content: { 'application/json': { example: [{ id: 1 }] } } } } },
    },
  },
});

t.test('build writes the mock, --check passes when fresh and names stale files otherwise', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'specs: [api/pets.json]\nbuild: { out_dir: out }\n', api: { 'pets.json': spec } });

  const built = runCli(['build'], { cwd });
  t.equal(built.code, 0, built.stderr);
  t.match(built.stdout, /^mock: built pets in out\/pets \(\d+ written, 0 unchanged\)\n/);
  t.match(built.stdout, '\n  wrote out/pets/manifest.json\n');

  const again = runCli(['build', '--json'], { cwd });
  t.equal(again.code, 0);
  const result = JSON.parse(again.stdout);
  t.equal(result.dir, path.join(cwd, 'out', 'pets'));
  t.same(result.written, []);

  const fresh = runCli(['build', '--check'], { cwd });
  t.same(fresh, { code: 0, stdout: 'mock: out/pets is up to date\n', stderr: '' });

  appendFileSync(path.join(cwd, 'api', 'pets.json'), '\n ');
  const stale = runCli(['build', '--check'], { cwd });
  t.equal(stale.code, 1);
  t.equal(stale.stdout, '');
  t.match(stale.stderr, /^(out\/pets\/\S+ is stale: run mock build\n)+$/);
  t.match(stale.stderr, 'out/pets/manifest.json is stale: run mock build\n');

  const staleJson = runCli(['build', '--check', '--json'], { cwd });
  t.equal(staleJson.code, 1);
  t.ok(JSON.parse(staleJson.stdout).stale.includes('manifest.json'));
});

t.test('--spec replaces the specs of the config file; --name and --out choose the folder', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'specs: [missing.json]\n', 'other.json': spec });
  const { code, stdout, stderr } = runCli(['build', '--spec', 'other.json', '--name', 'custom', '--out', 'gen'], { cwd });
  t.equal(code, 0, stderr);
  t.match(stdout, /^mock: built custom in gen\/custom /);
});

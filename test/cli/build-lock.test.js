// Two builds of one project at once (compiler/build-lock.ts): the second waits while the first
// writes the build folder, instead of finding it half written (files without their manifest.json)
// and refusing it; a lock left by a process that is gone is taken over.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

t.test('three builds of one project at once all succeed, and the folder holds one whole build', async (t) => {
  const out = tmpdir();
  const results = await Promise.all([0, 1, 2].map(() => runMock(['build', '--spec', petstore, '--out', out])));
  for (const result of results) t.equal(result.code, 0, result.stderr);
  const manifest = JSON.parse(readFileSync(path.join(out, 'petstore', 'manifest.json'), 'utf8'));
  t.ok(Object.keys(manifest.files).every((file) => existsSync(path.join(out, 'petstore', file))), 'every file the manifest lists');
  t.notOk(existsSync(path.join(out, 'petstore.lock')), 'the lock is gone');
});

t.test('a build waits while another process holds the lock, then writes', async (t) => {
  const out = tmpdir();
  const lock = path.join(out, 'petstore.lock');
  // this test's own process holds it, as a running build would
  writeFileSync(lock, String(process.pid));
  let done = false;
  const build = runMock(['build', '--spec', petstore, '--out', out]).then((result) => ((done = true), result));
  // long enough to have compiled and reached the lock (a build takes about a second here)
  for (let waited = 0; waited < 3000 && !done; waited += 100) await sleep(100);
  t.notOk(done, 'still waiting');
  t.notOk(existsSync(path.join(out, 'petstore', 'manifest.json')), 'nothing written while the lock is held');
  rmSync(lock);
  const result = await build;
  t.equal(result.code, 0, result.stderr);
  t.ok(existsSync(path.join(out, 'petstore', 'manifest.json')), 'written once it was free');
});

t.test('a lock whose process is gone is taken over', async (t) => {
  const out = tmpdir();
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  writeFileSync(path.join(out, 'petstore.lock'), gone);
  const result = await runMock(['build', '--spec', petstore, '--out', out]);
  t.equal(result.code, 0, result.stderr);
  t.ok(existsSync(path.join(out, 'petstore', 'manifest.json')));
  t.notOk(existsSync(path.join(out, 'petstore.lock')));
});

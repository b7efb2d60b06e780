// The committed dashboard/dist is what its sources build to: rebuilt here into a temporary folder
// with the same Vite config and compared byte for byte, so a source change without a rebuild fails;
// and it stays small.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { root, tmpdir } from '../helpers/cli.js';

const committed = path.join(root, 'dashboard', 'dist');

/** Every file under `dir`, relative, sorted. */
const filesOf = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.relative(dir, path.join(d.parentPath, d.name))).sort();

t.test('dashboard/dist is fresh', async (t) => {
  const { build } = await import('vite');
  const out = tmpdir();
  await build({ configFile: path.join(root, 'dashboard', 'vite.config.ts'), logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
  const fix = 'dashboard/dist is stale: run npm run build:dashboard and commit dashboard/dist';
  t.same(filesOf(out), filesOf(committed), `the same files (${fix})`);
  for (const file of filesOf(out)) {
    t.ok(readFileSync(path.join(out, file)).equals(readFileSync(path.join(committed, file))), `${file} is as built (${fix})`);
  }
});

t.test('the bundle is under 150 KB gzipped', async (t) => {
  const gzipped = filesOf(committed).reduce((sum, file) => sum + gzipSync(readFileSync(path.join(committed, file)), { level: 9 }).length, 0);
  t.ok(gzipped < 150 * 1024, `${gzipped} bytes gzipped`);
});

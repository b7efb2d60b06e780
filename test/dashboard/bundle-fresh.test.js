// The committed dashboard/dist and graphiql/dist are what their sources build to: each rebuilt here
// into a temporary folder with the same Vite config and compared byte for byte, so a source change
// (or a dependency update) without a rebuild fails; and each stays within its size budget.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { root, tmpdir } from '../helpers/cli.js';

/** Every file under `dir`, relative, sorted. */
const filesOf = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.relative(dir, path.join(d.parentPath, d.name))).sort();

// GraphiQL is React, graphql-js and CodeMirror 5: about 370 KB gzipped, loaded only by a browser that opens it
for (const [name, budgetKb] of [['dashboard', 150], ['graphiql', 450]]) {
  const committed = path.join(root, name, 'dist');

  t.test(`${name}/dist is fresh`, async (t) => {
    const { build } = await import('vite');
    const out = tmpdir();
    await build({ configFile: path.join(root, name, 'vite.config.ts'), logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
    const fix = `${name}/dist is stale: run npm run build:${name} and commit ${name}/dist`;
    t.same(filesOf(out), filesOf(committed), `the same files (${fix})`);
    for (const file of filesOf(out)) {
      t.ok(readFileSync(path.join(out, file)).equals(readFileSync(path.join(committed, file))), `${file} is as built (${fix})`);
    }
  });

  t.test(`the ${name} bundle is under ${budgetKb} KB gzipped`, async (t) => {
    const gzipped = filesOf(committed).reduce((sum, file) => sum + gzipSync(readFileSync(path.join(committed, file)), { level: 9 }).length, 0);
    t.ok(gzipped < budgetKb * 1024, `${gzipped} bytes gzipped`);
  });
}

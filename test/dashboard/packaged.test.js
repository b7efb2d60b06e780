// The package ships the built dashboard (so mock serve --admin needs no build step), not its sources.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../helpers/cli.js';

t.test('npm pack lists dashboard/dist and nothing else of dashboard/', async (t) => {
  const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  const [{ files }] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, env, encoding: 'utf8' }));
  const shipped = files.map((f) => f.path).filter((p) => p.startsWith('dashboard/')).sort();
  const built = readdirSync(path.join(root, 'dashboard', 'dist'), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
  t.same(shipped, built, 'every built file, no source');
  t.ok(shipped.includes('dashboard/dist/index.html'));
});

// The "State" table of docs/configuration.md lists the stores the runtime opens (runtime/store's STORE_NAMES), in
// the same order, and every store name in the code is opened somewhere by that name.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { STORE_NAMES } from '../../dist/runtime/store/index.js';
import { root } from '../helpers/cli.js';

const readme = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
const section = readme.slice(readme.indexOf('\n## State\n'), readme.indexOf('\n## Budgets\n'));

t.test('docs/configuration.md names every store, in the order of STORE_NAMES', async (t) => {
  const rows = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
  t.same(rows, [...STORE_NAMES]);
});

t.test('each store is opened by its name in the runtime', async (t) => {
  const sources = execFileSync('git', ['grep', '-h', '-o', "'[a-z-]*', [a-zA-Z]*[Bb]udget", '--', 'runtime'], { cwd: root, encoding: 'utf8' });
  const opened = new Set([...sources.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]));
  for (const name of STORE_NAMES) t.ok(opened.has(name), `${name} is opened with its budget`);
  t.same([...opened].filter((name) => !STORE_NAMES.includes(name)), [], 'no store is opened under a name the list lacks');
});

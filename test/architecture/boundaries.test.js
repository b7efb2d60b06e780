// The compiler and the runtime meet only in common/; the CLI (src/) reaches each through its index.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function* sources(dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Every relative module a source file imports or re-exports, as a path from the project root. */
function imports(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const found = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)) {
    const target = m[1] ?? m[2];
    found.push(relative(root, resolve(root, dirname(file), target)).replace(/\.js$/, '.ts'));
  }
  return found;
}

const top = (path) => path.split('/')[0];

t.test('runtime/ never imports compiler/, compiler/ never imports runtime/, common/ imports neither', async (t) => {
  const forbidden = { runtime: ['compiler', 'src'], compiler: ['runtime', 'src'], common: ['compiler', 'runtime', 'src'] };
  let checked = 0;
  for (const [tree, banned] of Object.entries(forbidden)) {
    for (const file of sources(tree)) {
      for (const target of imports(file)) {
        checked++;
        t.notOk(banned.includes(top(target)), `${file} imports ${target}`);
      }
    }
  }
  t.ok(checked > 200, `${checked} imports checked`);
});

// compiler/serving.ts is the compiler's light face for `mock serve` (staleness and rebuilds
// without loading the parser and emitters); runtime/checks.ts the runtime's for configuration
// checks (without loading the servers); index.ts is each one's full face.
const FACES = new Set(['compiler/index.ts', 'compiler/serving.ts', 'runtime/index.ts', 'runtime/checks.ts']);

t.test('src/ reaches the compiler and the runtime through their faces only', async (t) => {
  let reached = 0;
  for (const file of sources('src')) {
    for (const target of imports(file)) {
      if (top(target) !== 'compiler' && top(target) !== 'runtime') continue;
      reached++;
      t.ok(FACES.has(target), `${file} imports ${target}`);
    }
  }
  t.ok(reached > 10, `${reached} imports of the compiler or the runtime from src/`);
});

// The architecture's boundaries (.dependency-cruiser.cjs), checked by dependency-cruiser over the
// TypeScript sources, type-only imports included: the compiler and the runtime meet only in
// common/; the CLI reaches them through their faces; uWebSockets.js stays in its folder, and so do
// the code generators that ship bundled (compiler/bundled/, development dependencies); stages
// never touch a server; terminals never touch a server; the chain imports no terminal and nothing
// of control/; a terminal imports no other protocol's terminal (the fake data GraphQL and gRPC
// share is terminal/fake-data/, through its index); the store stands alone and no other runtime
// file keeps an LRU of state; the Exchange and the matching module stand alone; no import cycle anywhere;
// both data generators take field-name rules from one module.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from '../helpers/cli.js';

const require = createRequire(import.meta.url);
const config = require(path.join(root, '.dependency-cruiser.cjs'));
const cli = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const result = JSON.parse(execFileSync(process.execPath, [cli, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'src', 'compiler', 'runtime', 'common'], { cwd: root, maxBuffer: 256 * 1024 * 1024 }).toString());

t.test('the sources were cruised, every kind of import seen', async (t) => {
  t.ok(result.summary.totalCruised > 400, `${result.summary.totalCruised} modules`);
  t.ok(result.summary.totalDependenciesCruised > 1000, `${result.summary.totalDependenciesCruised} imports`);
  // `import type { Engine }`: erased by tsc, still a dependency of the design
  const registry = result.modules.find((m) => m.source === 'runtime/control/registry/server-info.ts');
  t.ok(registry.dependencies.some((d) => d.resolved === 'runtime/terminal/openapi/index.ts'), 'type-only imports count too');
});

t.test('one set of field-name rules: the OpenAPI generator and the GraphQL and gRPC mocks read names through common/field-kinds.ts', async (t) => {
  for (const reader of ['compiler/generate/hints.ts', 'runtime/terminal/fake-data/name-kinds.ts']) {
    const module = result.modules.find((m) => m.source === reader);
    t.ok(module?.dependencies.some((d) => d.resolved === 'common/field-kinds.ts'), `${reader} imports common/field-kinds.ts`);
  }
});

for (const name of [...new Set(config.forbidden.map((rule) => rule.name))]) {
  t.test(`${name}`, async (t) => {
    const broken = result.summary.violations.filter((v) => v.rule.name === name).map((v) => (v.cycle === undefined ? `${v.from} → ${v.to}` : v.cycle.map((c) => c.name ?? c).join(' → ')));
    t.same(broken, [], broken.join('\n'));
  });
}

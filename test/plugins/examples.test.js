// The example plugins (plugins/examples/<kind>/): one per kind, each .wasm what its WAT and manifest
// build (npm run build:plugins is deterministic, so the modules are checked in), each valid under
// the default limits, and each passing the test cases its manifest declares.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { DEFAULT_LIMITS, PLUGIN_KINDS, Sandbox, checkModule } from '../../dist/runtime/plugins/index.js';
import { root } from '../helpers/cli.js';

const dir = path.join(root, 'plugins/examples');
const examples = readdirSync(dir).map((folder) => {
  const manifest = JSON.parse(readFileSync(path.join(dir, folder, 'plugin.json'), 'utf8'));
  return { folder, manifest, bytes: readFileSync(path.join(dir, folder, `${manifest.name}.wasm`)) };
});

t.test('the checked-in modules are what their sources build', async (t) => {
  t.doesNotThrow(() => execFileSync(process.execPath, [path.join(root, 'scripts/build-plugins.js'), '--check'], { cwd: root, stdio: 'pipe' }));
});

t.test('one example per kind', async (t) => {
  const kinds = new Set(examples.flatMap(({ manifest }) => Object.values(manifest.actions).map((a) => a.kind)));
  t.same([...kinds].sort(), [...PLUGIN_KINDS].sort());
});

for (const { folder, manifest, bytes } of examples) {
  t.test(`${folder}: valid, and its declared test cases pass in its sandbox`, async (t) => {
    const report = checkModule(bytes, DEFAULT_LIMITS);
    t.same(report.problems, []);
    t.same(report.manifest, manifest);
    t.ok(manifest.tests.length > 0, 'it declares test cases');
    const sandbox = new Sandbox(bytes, Object.keys(manifest.actions), DEFAULT_LIMITS, report.usesWasi);
    sandbox.start();
    t.teardown(() => sandbox.stop());
    for (const { action, input, output } of manifest.tests) {
      const result = sandbox.call(action, JSON.stringify(input));
      t.ok(result.ok, `${action} answers`);
      t.ok(isDeepStrictEqual(JSON.parse(result.json), output), `${action}(${JSON.stringify(input)}) answers ${JSON.stringify(output)}`);
    }
  });
}

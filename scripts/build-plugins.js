// Builds the example plugins (plugins/examples/<kind>/plugin.wat and plugin.json) into
// plugins/examples/<kind>/<name>.wasm, the files `mock plugin install` takes. `--check` fails when a
// checked-in module differs from what its sources build (CI).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pluginWasm } from './plugin-wasm.js';

const root = path.resolve(fileURLToPath(new URL('../plugins/examples', import.meta.url)));
const check = process.argv.includes('--check');
let stale = 0;
for (const kind of readdirSync(root).sort()) {
  const dir = path.join(root, kind);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'plugin.json'), 'utf8'));
  const bytes = pluginWasm(`${kind}/plugin.wat`, readFileSync(path.join(dir, 'plugin.wat'), 'utf8'), manifest);
  const file = path.join(dir, `${manifest.name}.wasm`);
  if (check) {
    let current;
    try {
      current = readFileSync(file);
    } catch {
      current = Buffer.alloc(0);
    }
    if (!current.equals(bytes)) {
      console.error(`stale: ${path.relative(process.cwd(), file)} (run npm run build:plugins)`);
      stale++;
    }
  } else {
    writeFileSync(file, bytes);
    console.log(`${path.relative(process.cwd(), file)} ${bytes.length} bytes`);
  }
}
process.exitCode = stale === 0 ? 0 : 1;

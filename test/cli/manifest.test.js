import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(root, 'oclif.manifest.json'), 'utf8'));
const commandsDir = path.join(root, 'dist', 'src', 'commands');

/** `config/validate.js` → `config:validate`, `data/index.js` → `data`. */
function commandFiles(dir, prefix = []) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return commandFiles(path.join(dir, entry.name), [...prefix, entry.name]);
    if (!entry.name.endsWith('.js')) return [];
    const name = entry.name.slice(0, -3);
    return [{ id: [...prefix, ...(name === 'index' ? [] : [name])].join(':'), file: path.join(dir, entry.name) }];
  });
}

t.test('oclif.manifest.json is fresh: the commands, flags and examples of dist (run npm run manifest)', async (t) => {
  const files = commandFiles(commandsDir);
  t.same(Object.keys(manifest.commands).sort(), files.map((f) => f.id).sort(), 'the same commands');
  for (const { id, file } of files) {
    const { default: command } = await import(pathToFileURL(file).href);
    const entry = manifest.commands[id];
    if (!entry) continue;
    t.same(Object.keys(entry.flags).sort(), Object.keys({ ...command.baseFlags, ...command.flags }).sort(), `${id} flags`);
    t.same(entry.examples, command.examples, `${id} examples`);
  }
});

t.test('every command has examples and a description', async (t) => {
  for (const [id, command] of Object.entries(manifest.commands)) {
    t.ok(command.examples?.length > 0, `${id} has examples`);
    t.ok(command.description || command.summary, `${id} has a description`);
  }
});

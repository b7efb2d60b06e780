// oclif writes oclif.manifest.json's commands in the order its folder reads finish, which varies
// from run to run: sorted by id, the file changes only when a command does.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../oclif.manifest.json', import.meta.url);
const manifest = JSON.parse(readFileSync(file, 'utf8'));
manifest.commands = Object.fromEntries(Object.entries(manifest.commands).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);

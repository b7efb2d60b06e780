import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What `mock plugin install` records beside the module (install.json): where it came from and what it was. */
export interface InstallRecord {
  name: string;
  version: string;
  /** As given to install: a path, a URL, or git+<repository>#<tag>. */
  source: string;
  /** Of plugin.wasm, hex. */
  sha256: string;
  /** The checksum the user pinned (--checksum), which update holds the source to. */
  pinned?: string;
}

export const MODULE_FILE = 'plugin.wasm';
export const RECORD_FILE = 'install.json';

export interface InstalledPlugin {
  record: InstallRecord;
  dir: string;
  module: Uint8Array;
}

/** The plugins installed under `dir` (plugins.dir), by name; none when it does not exist. */
export function readInstalled(dir: string): InstalledPlugin[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && existsSync(path.join(dir, entry.name, RECORD_FILE)))
    .map((entry) => {
      const at = path.join(dir, entry.name);
      return { record: JSON.parse(readFileSync(path.join(at, RECORD_FILE), 'utf8')) as InstallRecord, dir: at, module: readFileSync(path.join(at, MODULE_FILE)) };
    })
    .sort((a, b) => a.record.name.localeCompare(b.record.name));
}

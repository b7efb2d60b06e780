import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { ScenarioHome } from './project.js';

/** What the lock file records of one installed scenario. */
export interface LockedScenario {
  version: string;
  /** What was asked for: a path, URL, Git reference or `name@range`. */
  requested: string;
  /** Where it came from: the tarball URL, the Git commit, the folder. */
  resolved: string;
  /** Subresource-integrity hash (sha512) of the archive, or of the files for a folder or a Git checkout. */
  integrity: string;
  /** Its dependencies as `name@range`. */
  dependencies: string[];
}

export interface LockFile {
  lockfileVersion: 1;
  scenarios: Record<string, LockedScenario>;
}

export function readLock(home: ScenarioHome): LockFile {
  if (!existsSync(home.lock)) return { lockfileVersion: 1, scenarios: {} };
  return JSON.parse(readFileSync(home.lock, 'utf8')) as LockFile;
}

export function writeLock(home: ScenarioHome, lock: LockFile): void {
  mkdirSync(path.dirname(home.lock), { recursive: true });
  const sorted = Object.fromEntries(Object.entries(lock.scenarios).sort(([a], [b]) => a.localeCompare(b)));
  writeFileAtomic.sync(home.lock, `${JSON.stringify({ lockfileVersion: 1, scenarios: sorted }, null, 2)}\n`);
}

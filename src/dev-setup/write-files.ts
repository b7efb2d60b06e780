import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import type { GeneratedFile } from './generate.js';

export interface WriteOutcome {
  /** Absolute paths written. */
  written: string[];
  /** Absolute paths that already held the same text, left alone. */
  unchanged: string[];
}

/**
 * Writes the files under `folder`. A file that exists with other content is the user's until
 * `force`: without it, the first such file is named and nothing at all is written.
 */
export function writeFiles(folder: string, files: readonly GeneratedFile[], force: boolean, shown: (file: string) => string): WriteOutcome {
  const targets = files.map((file) => ({ file: path.join(folder, ...file.path.split('/')), text: file.text }));
  const same = (file: string, text: string) => existsSync(file) && readFileSync(file, 'utf8') === text;
  if (!force) {
    const taken = targets.find(({ file, text }) => existsSync(file) && !same(file, text));
    if (taken) {
      throw new MockError('MOCK_ERR_DEV_SETUP_EXISTS', `${shown(taken.file)} exists: pass --force to overwrite it, or --output another folder (nothing was written)`);
    }
  }
  const outcome: WriteOutcome = { written: [], unchanged: [] };
  for (const { file, text } of targets) {
    if (same(file, text)) {
      outcome.unchanged.push(file);
      continue;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    outcome.written.push(file);
  }
  return outcome;
}

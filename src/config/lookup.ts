import { statSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';

/** Names searched in each directory, in this order. */
export const CONFIG_FILE_NAMES = ['mock.yaml', 'mock.yml', '.mock.yaml', '.mock.yml'] as const;

export interface ConfigLocation {
  /** Absolute path of the file. */
  file: string;
  /** How it was found: `--config`, `MOCK_CONFIG_FILE`, or the search from cwd upwards. */
  via: 'flag' | 'env' | 'search';
}

/**
 * Finds the config file: `--config`, then `MOCK_CONFIG_FILE`, then the first of CONFIG_FILE_NAMES in
 * cwd or its nearest parent (unless `search` is false). A path given explicitly must exist; finding
 * nothing by search is fine.
 */
export function findConfigFile(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  explicit?: string,
  search = true,
): ConfigLocation | undefined {
  if (explicit !== undefined) return { file: requireFile(cwd, explicit, '--config'), via: 'flag' };
  const fromEnv = env.MOCK_CONFIG_FILE;
  if (fromEnv) return { file: requireFile(cwd, fromEnv, 'MOCK_CONFIG_FILE'), via: 'env' };
  if (!search) return undefined;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) {
      const file = path.join(dir, name);
      if (statSync(file, { throwIfNoEntry: false })?.isFile()) return { file, via: 'search' };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function requireFile(cwd: string, given: string, checked: string): string {
  const file = path.resolve(cwd, given);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) throw new MockError('MOCK_ERR_CONFIG_NOT_FOUND', `config not found: ${given} (checked ${checked})`);
  if (!stat.isFile()) {
    throw new MockError('MOCK_ERR_CONFIG_NOT_FOUND', `config is not a file: ${given} (checked ${checked}); pass the path of a YAML file`);
  }
  return file;
}

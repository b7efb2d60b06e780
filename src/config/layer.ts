import type { MockErrorCode } from '../../common/errors.js';
import { appendKeyPath, formatKeyPath, splitKey, type KeyPath } from './key-path.js';
import { setIn, type Tree } from './tree.js';

/** Where a value of the effective configuration came from, highest precedence first. */
export type ConfigSource = 'flag' | 'env' | 'file' | 'default';

/** The values one source sets, checked against the schema on its own so errors name that source. */
export interface Layer {
  source: Exclude<ConfigSource, 'default'>;
  /** A partial configuration; unchecked until `checkLayer`. */
  values: unknown;
  /** How an error about the value at `path` starts: `mock.yaml: server.http_port`, `MOCK_HTTP_PORT`, `--http-port`. */
  name(path: KeyPath): string;
  errorCode: MockErrorCode;
}

/** One value of a flat source: an environment variable or a command-line flag. */
export interface Setting {
  /** `MOCK_HTTP_PORT`, `--http-port`. */
  label: string;
  /** Dotted config key, e.g. `server.http_port`. */
  key: string;
  value: unknown;
}

export function layerFromSettings(source: 'env' | 'flag', settings: readonly Setting[], errorCode: MockErrorCode): Layer {
  const values: Tree = {};
  for (const setting of settings) setIn(values, splitKey(setting.key), setting.value);
  // A value deeper than the key a setting names (an item of a list, a field of a JSON value) is
  // named by the setting plus the rest of the path: `MOCK_HTTP_OVERRIDES[0].name`.
  const name = (path: KeyPath): string => {
    const owner = settings.find((setting) => splitKey(setting.key).every((key, i) => path[i] === key));
    return owner ? appendKeyPath(owner.label, path.slice(splitKey(owner.key).length)) : formatKeyPath(path);
  };
  return { source, values, name, errorCode };
}

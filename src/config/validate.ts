import type { ValidateFunction } from 'ajv';
import { MockError, type MockErrorCode } from '../../common/errors.js';
import { describeErrors } from './describe-error.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import type { Layer } from './layer.js';
import type { Tree } from './tree.js';
import type { MockConfig } from './types.generated.js';
import { validate } from './validator.generated.js';

// Ajv standalone code generated from schema.json (npm run gen:config-types): no schema is compiled
// at start, and configuration is never validated on the request path.
const validateConfig = validate as unknown as ValidateFunction<MockConfig>;

/** Every schema error of `data`, one line each, so that one run shows all there is to fix. */
function check(data: unknown, name: (path: KeyPath) => string, code: MockErrorCode): asserts data is MockConfig {
  if (validateConfig(data)) return;
  const lines = describeErrors(validateConfig.errors ?? [], data).map(({ path, text }) => `${name(path)}: ${text}`);
  throw new MockError(code, lines.join('\n'));
}

/** Checks a layer on its own (defaults filled into a copy, so required keys are satisfied). */
export function checkLayer(layer: Layer): Tree {
  check(structuredClone(layer.values), layer.name, layer.errorCode);
  return layer.values as Tree; // checked above: an object of known keys
}

function checkWhole(values: Tree): asserts values is Tree & MockConfig {
  check(values, (path) => formatKeyPath(path) || 'configuration', 'MOCK_ERR_CONFIG_INVALID');
}

/** Every key that has a default, set to it. */
export function defaults(): Tree {
  const values: Tree = {};
  checkWhole(values);
  return values;
}

/** Types the merged layers, each checked already, as the whole configuration. */
export function asConfig(values: Tree): MockConfig {
  checkWhole(values);
  return values;
}

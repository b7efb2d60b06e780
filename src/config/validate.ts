import type { ValidateFunction } from 'ajv';
import { MockError, type MockErrorCode } from '../../common/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../common/json-depth.js';
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

/**
 * Where a layer nests deeper than MAX_JSON_DEPTH (a JSON variable, a YAML body), named down to the
 * setting (`MOCK_HTTP_OVERRIDES`, `mock.yaml: http.routes[0]`): the copy and the checks below
 * recurse, and would overflow the stack.
 */
function tooDeep(values: unknown): KeyPath | undefined {
  if (!nestsDeeperThan(values, MAX_JSON_DEPTH)) return undefined;
  const path: Array<string | number> = [];
  let node = values as Record<string, unknown> | unknown[];
  for (let left = MAX_JSON_DEPTH - 1; path.length < 3; left--) {
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((value, i) => [i, value]) : Object.entries(node);
    const deep = entries.find(([, value]) => nestsDeeperThan(value, left));
    if (deep === undefined) break;
    path.push(deep[0]);
    node = deep[1] as Record<string, unknown> | unknown[];
  }
  return path;
}

/**
 * Where a layer has a `__proto__` key (YAML and JSON make it an ordinary key): merged, it would set
 * or walk into the prototype every object shares. Walks at most MAX_JSON_DEPTH levels (tooDeep first).
 */
function protoKey(values: unknown, path: Array<string | number> = []): KeyPath | undefined {
  if (values === null || typeof values !== 'object') return undefined;
  const entries: Array<[string | number, unknown]> = Array.isArray(values) ? values.map((value, i) => [i, value]) : Object.entries(values);
  for (const [key, value] of entries) {
    if (key === '__proto__') return [...path, key];
    const found = protoKey(value, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Checks a layer on its own (defaults filled into a copy, so required keys are satisfied). */
export function checkLayer(layer: Layer): Tree {
  const deep = tooDeep(layer.values);
  if (deep !== undefined) throw new MockError(layer.errorCode, `${layer.name(deep)}: nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; flatten it`);
  const proto = protoKey(layer.values);
  if (proto !== undefined) throw new MockError(layer.errorCode, `${layer.name(proto)}: "__proto__" cannot be a key of the configuration; rename it`);
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

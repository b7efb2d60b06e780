import { splitKey } from './key-path.js';
import { isTree } from './tree.js';
import { defaults } from './validate.js';

/** The built-in default of a dotted key (for help texts), or undefined when it has none. */
export function defaultValue(key: string): unknown {
  let node: unknown = defaults();
  for (const segment of splitKey(key)) node = isTree(node) ? node[segment] : undefined;
  return node;
}

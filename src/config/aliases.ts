import { splitKey } from './key-path.js';
import type { Merged } from './precedence.js';
import { DEPRECATIONS, isWithin } from './schema-notes.js';
import { isTree, setIn, type Tree } from './tree.js';

/**
 * Gives each deprecated key's value to its replacement, unless the replacement is set itself (by
 * any layer, the file included: the canonical spelling wins over the old one). Flags and
 * environment variables set the canonical keys, so they outrank an old spelling in the file.
 */
export function applyAliases(merged: Merged): void {
  for (const { key, replacement } of DEPRECATIONS) {
    const source = merged.sources[key];
    if (source === undefined || source === 'default') continue;
    const replacementSet = Object.entries(merged.sources).some(([leaf, s]) => s !== 'default' && isWithin(leaf, replacement));
    if (replacementSet) continue;
    const value = getIn(merged.values, splitKey(key));
    setIn(merged.values, splitKey(replacement), structuredClone(value));
    merged.sources[replacement] = source;
  }
}

function getIn(tree: Tree, path: readonly string[]): unknown {
  let node: unknown = tree;
  for (const segment of path) node = isTree(node) ? node[segment] : undefined;
  return node;
}

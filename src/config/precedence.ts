import { formatKeyPath } from './key-path.js';
import type { ConfigSource } from './layer.js';
import { forEachLeaf, isTree, type Tree } from './tree.js';

export interface CheckedLayer {
  source: Exclude<ConfigSource, 'default'>;
  values: Tree;
}

export interface Merged {
  values: Tree;
  /** Source of each leaf set by a layer (not a default), keyed by `formatKeyPath`. */
  sources: Record<string, ConfigSource>;
}

/**
 * Merges layers, given lowest precedence first (file, env, flags), over the defaults: objects merge
 * key by key, any other value (scalars, arrays) replaces the lower one whole. Starting from the
 * defaults keeps keys in schema order when printed.
 */
export function mergeLayers(defaults: Tree, layers: readonly CheckedLayer[]): Merged {
  const merged: Merged = { values: defaults, sources: {} };
  for (const layer of layers) mergeInto(merged, merged.values, layer.values, layer.source, []);
  return merged;
}

function mergeInto(merged: Merged, target: Tree, values: Tree, source: ConfigSource, prefix: string[]): void {
  for (const [key, value] of Object.entries(values)) {
    const path = [...prefix, key];
    // own values only: a key such as `constructor` is a key like another, not Object
    const current = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isTree(value) && (Object.keys(value).length > 0 || isTree(current))) {
      mergeInto(merged, isTree(current) ? current : (target[key] = {}), value, source, path);
    } else {
      target[key] = structuredClone(value);
      merged.sources[formatKeyPath(path)] = source;
    }
  }
}

/** The source of every leaf of `config`: the layer that set it, else `default`. */
export function sourcesOf(config: Tree, recorded: Readonly<Record<string, ConfigSource>>): Record<string, ConfigSource> {
  const sources: Record<string, ConfigSource> = {};
  forEachLeaf(config, (path) => {
    const key = formatKeyPath(path);
    sources[key] = recorded[key] ?? 'default';
  });
  return sources;
}

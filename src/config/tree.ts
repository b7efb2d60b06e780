/** Plain-object helpers for partial configuration trees (parsed YAML, env and flag values). */
export type Tree = Record<string, unknown>;

export const isTree = (value: unknown): value is Tree =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets `value` at `path`, creating the objects on the way. */
export function setIn(tree: Tree, path: readonly string[], value: unknown): void {
  let node = tree;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = isTree(next) ? next : (node[key] = {});
  }
  node[path[path.length - 1]] = value;
}

/**
 * Calls `visit` for every leaf: a value that is not an object (scalars and arrays, which are
 * replaced whole, never merged) or an empty object.
 */
export function forEachLeaf(tree: Tree, visit: (path: string[], value: unknown) => void, prefix: string[] = []): void {
  for (const [key, value] of Object.entries(tree)) {
    const path = [...prefix, key];
    if (isTree(value) && Object.keys(value).length > 0) forEachLeaf(value, visit, path);
    else visit(path, value);
  }
}

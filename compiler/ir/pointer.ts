/** Resolves a local JSON pointer (`#/a/b~1c`) inside a document; undefined when it leads nowhere. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Follows `$ref` chains of non-schema objects (parameters, responses, request bodies, headers, examples). */
export function deref<T>(document: unknown, node: T, seen = new Set<string>()): T {
  let current: unknown = node;
  while (current && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string') {
    const ref = (current as { $ref: string }).$ref;
    if (seen.has(ref)) return current as T;
    seen.add(ref);
    const target = resolvePointer(document, ref);
    if (target === undefined) return current as T;
    current = target;
  }
  return current as T;
}

/** The JSON pointer (`#/paths/~1pets/get`) of every object and array in a document, the first path that reaches it. */
export function pointerIndex(document: unknown): WeakMap<object, string> {
  const index = new WeakMap<object, string>();
  const visit = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== 'object' || index.has(node)) return;
    index.set(node, pointer);
    for (const [key, value] of Object.entries(node)) visit(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  visit(document, '#');
  return index;
}

/**
 * OpenAPI 3.2's `$self`: the description's own URI, the base its relative references (and relative
 * server URLs) resolve against, whatever place it was read from. The copy `mock` reads stands for
 * it: a `$ref` naming `$self` itself is internal (`#…`), and one naming a file under `$self`'s folder
 * is the file at the same place under the description's folder, so a description that writes its
 * references as absolute URIs resolves offline, within the project. References elsewhere stay as
 * written (the ref policy then decides, as for any URL).
 */
export function withSelfReferences(document: Record<string, unknown>): Record<string, unknown> {
  const self = selfUri(document);
  if (self === undefined) return document;
  const own = self.href.replace(/#.*$/, '');
  const folder = own.slice(0, own.lastIndexOf('/') + 1);
  const rewrite = (ref: string): string => {
    let absolute: URL;
    try {
      absolute = new URL(ref, self);
    } catch {
      return ref;
    }
    const target = absolute.href.replace(/#.*$/, '');
    if (target === own) return absolute.hash === '' ? '#' : decodeURIComponent(absolute.hash);
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && target.startsWith(folder)) return `${decodeURIComponent(target.slice(folder.length))}${decodeURIComponent(absolute.hash)}`;
    return ref;
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === '$ref' && typeof value === 'string' ? rewrite(value) : walk(value);
    return out;
  };
  return walk(document) as Record<string, unknown>;
}

/** `$self` as an absolute URI (3.2 allows a relative one, resolved against the retrieval URI: then it adds nothing here). */
export function selfUri(document: Record<string, unknown>): URL | undefined {
  if (typeof document.$self !== 'string' || typeof document.openapi !== 'string' || !/^3\.([2-9]|\d\d+)\./.test(document.openapi)) return undefined;
  try {
    return new URL(document.$self);
  } catch {
    return undefined;
  }
}

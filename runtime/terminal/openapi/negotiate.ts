import Negotiator from 'negotiator';

const MAX_CACHED = 256;

/**
 * Picks the response media type for an Accept header (with q-values and wildcards, via
 * negotiator). Results are cached per offered list (by identity: the engine offers the same
 * array for a response every time) and Accept value: clients repeat them.
 */
export class ContentNegotiation {
  private readonly cache = new WeakMap<readonly string[], Map<string, number>>();

  /** Index into `types`, or -1 when nothing is acceptable (406). */
  choose(types: readonly string[], accept: string | undefined): number {
    if (types.length === 0) return -1;
    if (accept === undefined || accept === '' || accept === '*/*') return 0;
    let byAccept = this.cache.get(types);
    if (byAccept === undefined) this.cache.set(types, (byAccept = new Map()));
    const hit = byAccept.get(accept);
    if (hit !== undefined) return hit;
    // documented types are compared without parameters, so Accept's (other than q) must go too
    const plain = accept.replace(/;\s*(?!q=)[^,;]*/gi, '');
    const picked = new Negotiator({ headers: { accept: plain } }).mediaType(types.map(stripParams));
    const index = picked === undefined ? -1 : types.map(stripParams).indexOf(picked);
    if (byAccept.size >= MAX_CACHED) byAccept.clear();
    byAccept.set(accept, index);
    return index;
  }
}

const stripParams = (type: string): string => type.split(';')[0].trim().toLowerCase();

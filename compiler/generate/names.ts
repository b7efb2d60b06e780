/** Readable, collision-free JS identifiers for emitted helpers. */

const MAX_LENGTH = 64;

/** `Pet.v1-list` -> `Pet_v1_list`; long names keep their (most specific) tail. */
export function toIdentifier(raw: string): string {
  let name = raw.replace(/[^A-Za-z0-9_$]+/g, '_').replace(/_+/g, '_').replace(/^_|_$/g, '');
  if (name.length > MAX_LENGTH) name = name.slice(name.length - MAX_LENGTH).replace(/^_/, '');
  if (name === '') return 'schema';
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

export class NameRegistry {
  private readonly taken = new Set<string>();

  /** `prefix_raw`, suffixed `_2`, `_3`... when already taken. */
  claim(prefix: string, raw: string): string {
    const base = `${prefix}_${toIdentifier(raw)}`;
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}_${n}`;
    this.taken.add(name);
    return name;
  }
}

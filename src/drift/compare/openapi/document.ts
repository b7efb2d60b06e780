import { readDescription, toOpenApi3 } from '../../../../compiler/index.js';

export type Json = Record<string, unknown>;

/** One side of a compare: the OpenAPI 3.x document (external $refs bundled, internal ones kept) and a resolver of its $refs. */
export class Description {
  constructor(readonly document: Json) {}

  /** Follows $refs (chains too) to the schema, parameter or response they name; answers it and its pointer. */
  resolve(node: unknown, pointer: string): { node: unknown; pointer: string } {
    const seen = new Set<string>();
    while (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#') && !seen.has(node.$ref)) {
      seen.add(node.$ref);
      pointer = node.$ref;
      node = this.at(node.$ref);
    }
    return { node, pointer };
  }

  private at(ref: string): unknown {
    let node: unknown = this.document;
    for (const raw of ref.slice(2).split('/')) {
      if (ref.length <= 2) break;
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = isObject(node) || Array.isArray(node) ? (node as Json)[key] : undefined;
    }
    return node;
  }
}

/** Reads a description with the loader of mock build (Swagger 2.0 converted, external $refs bundled). */
export async function loadDescription(source: string, allowRefs: readonly string[]): Promise<Description> {
  const raw = await readDescription(source, process.cwd(), allowRefs);
  return new Description((await toOpenApi3(source, raw.document)).document);
}

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One JSON pointer segment. */
export const escape = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

import { apply, type JSONValue, type OpObject } from 'json-p3';

/** One operation of a correction patch (RFC 6902); the generator writes add, replace and remove only. */
export interface PatchOp {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const escapeToken = (token: string | number): string => String(token).replace(/~/g, '~0').replace(/\//g, '~1');
export const pointerOf = (tokens: ReadonlyArray<string | number>): string => tokens.map((token) => `/${escapeToken(token)}`).join('');
const tokensOf = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * The description being corrected: a working copy that every operation is applied to as it is
 * written (json-p3), so the next capture is held against what the patch has made so far and the
 * operations compose in order.
 */
export class WorkingDocument {
  readonly ops: PatchOp[] = [];
  private readonly doc: Json;

  constructor(document: Json) {
    this.doc = structuredClone(document);
  }

  /** The value at a pointer (undefined when nothing is there). */
  at(pointer: string): unknown {
    let node: unknown = this.doc;
    for (const token of tokensOf(pointer)) {
      if (Array.isArray(node)) node = node[Number(token)];
      else if (isObject(node)) node = Object.hasOwn(node, token) ? node[token] : undefined;
      else return undefined;
    }
    return node;
  }

  /**
   * Where a node's content lives: a local `$ref` is followed (through chains, once around a cycle)
   * to the component that holds it, which is where a correction belongs; undefined for a `$ref`
   * into another file, which this patch cannot reach.
   */
  resolve(pointer: string): string | undefined {
    const seen = new Set<string>();
    let current = pointer;
    for (;;) {
      const node = this.at(current);
      if (!isObject(node) || typeof node.$ref !== 'string') return current;
      if (!node.$ref.startsWith('#')) return undefined;
      if (seen.has(current)) return current;
      seen.add(current);
      current = decodeURIComponent(node.$ref.slice(1));
    }
  }

  write(op: PatchOp): void {
    apply([op as OpObject], this.doc as JSONValue);
    this.ops.push(op);
  }
}

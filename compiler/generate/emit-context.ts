import type { JsonSchema } from '../ir/types.js';
import type { GenMode } from './api.js';
import type { GeneratedCode } from './generated-code.js';
import type { SchemaResolver } from './resolve.js';
import type { Depth } from './source.js';
import type { UnionPlan } from './unions.js';

/** Values at this depth or deeper get only what the schema requires (and null where allowed). */
export const OPTIONAL_DEPTH = 6;

/** Where a value is generated. */
export interface Site {
  readonly mode: GenMode;
  readonly depth: Depth;
  /** Stem for the names of helpers created here. */
  readonly hint: string;
  /** Property or definition name, for realistic-value hints. */
  readonly name?: string;
  /** Inside a uniqueItems array: constant examples would repeat. */
  readonly unique: boolean;
  /** The definition whose own generator this is (for its discriminator value). */
  readonly definition?: string;
}

/** What the emitter's parts (objects, arrays, unions) call back into: values are mutually recursive. */
export interface EmitContext {
  readonly resolver: SchemaResolver;
  readonly code: GeneratedCode;
  /** An expression producing a value of `schema` at `site`. */
  value(schema: unknown, site: Site): string;
  /** Statements of a generator function body for `schema` (depth parameter `d`). */
  body(schema: unknown, site: Site): string[];
  /** A call of a generator function at `depth`. */
  call(fn: string, depth: Depth): string;
  /** A function generating `schema` values, for arrays and records to call per item. */
  itemFunction(schema: unknown, site: Site, suffix: string): string;
  /** Mode matters to a helper only if readOnly/writeOnly is reachable from its schema. */
  modeKey(schema: unknown, mode: GenMode): string;
  /** The variants of a union to generate. */
  unionPlan(s: JsonSchema, mode: GenMode): UnionPlan;
  /** Whether `value` satisfies `schema` in `mode`, as the build's validators judge it. */
  accepts(schema: unknown, mode: GenMode, value: unknown): boolean;
}

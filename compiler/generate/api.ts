import type { JsonSchema } from '../ir/types.js';

/** Responses leave writeOnly properties out; requests (load testing) leave readOnly ones out. */
export type GenMode = 'response' | 'request';

export interface GeneratorEmitter {
  /**
   * A JS expression (source text) that evaluates to a fresh value valid against `schema`.
   * It may reference `g` (the GenRuntime object) and the helpers declarations() returns.
   * `hint` names the helpers it needs (e.g. `listPets_200`); defaults to `inline`.
   */
  expression(schema: JsonSchema, mode: GenMode, hint?: string): string;
  /** JS source of every helper the expressions so far reference, in a deterministic order. */
  declarations(): string;
}

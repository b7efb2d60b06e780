import type { JsonSchema } from '../ir/types.js';

/** Responses leave writeOnly properties out; requests (load testing) leave readOnly ones out. */
export type GenMode = 'response' | 'request';

/** JavaScript to evaluate, or TypeScript for a generated module whose `g` is a GenRuntime (common/contract). */
export type Language = 'js' | 'ts';

export interface GeneratorEmitter {
  /**
   * A JS expression (source text) that evaluates to a fresh value valid against `schema`.
   * It may reference `g` (the GenRuntime object) and the helpers declarations() returns.
   * `hint` names the helpers it needs (e.g. `listPets_200`); defaults to `inline`.
   */
  expression(schema: JsonSchema, mode: GenMode, hint?: string): string;
  /** Source of every helper the expressions so far reference, in a deterministic order; the same code either way, typed in 'ts'. */
  declarations(language?: Language): string;
  /** A call (at depth 0) of the generator of definition `name` in `mode`, when the expressions so far made one. */
  definitionCall(name: string, mode: GenMode): string | undefined;
  /** Warnings naming the optional properties generated values leave out because their schemas admit no value. */
  leftOut(): string[];
  /** Build-time look at the values: `count` of each expression, run with the declarations so far on a fixed seed. */
  sample(expressions: readonly string[], count: number): unknown[][];
}

import { createGeneratorEmitter, type GenMode, type JsonSchema } from '../../compiler/index.js';
import { createGenRuntime } from '../../runtime/index.js';

/** One schema to generate values for, in response or request mode. */
export interface GeneratorRequest {
  schema: JsonSchema;
  mode: GenMode;
}

export interface GeneratorOptions {
  /** Same seed, same values (the server's `--seed`). */
  seed?: number;
  /** Clock for date-time and date values, epoch milliseconds. */
  now?: () => number;
}

/**
 * Compiles generators with the very emitter and runtime the server's responders use, so a value
 * made here is one the server could answer: `createGeneratorEmitter(definitions).expression()`
 * gives JS text over `g` (a `createGenRuntime`), evaluated here as the generated build would.
 * All requests share one runtime, hence one random stream, in the order they are called.
 * A top-level expression is at depth 0: it is wrapped as `(d) => …` and called with 0, exactly
 * like `content.generate(0)` in the engine.
 */
export function compileGenerators(
  definitions: Record<string, JsonSchema>,
  requests: readonly GeneratorRequest[],
  options: GeneratorOptions = {},
): Array<() => unknown> {
  const emitter = createGeneratorEmitter(definitions);
  const expressions = requests.map((r) => emitter.expression(r.schema, r.mode));
  const source = `${emitter.declarations()}\nreturn [${expressions.map((e) => `(d) => ${e}`).join(',\n')}];`;
  const g = createGenRuntime({ seed: options.seed, now: options.now });
  const made = new Function('g', source)(g) as Array<(d: number) => unknown>;
  return made.map((generate) => () => generate(0));
}

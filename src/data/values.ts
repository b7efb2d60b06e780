import type { GeneratorOptions } from './generators.js';
import { formatValues } from './format.js';
import { clockOf, type DataOptions } from './options.js';
import { emit } from './output.js';

/**
 * Where the values of a `mock data` command come from: `create` is called once per run with the
 * seed and clock, and returns the function making one value per call (one random stream).
 */
export interface ValueSource {
  create(options: GeneratorOptions): () => unknown;
}

/** `options.count` values of `source`. */
export function makeValues(source: ValueSource, options: DataOptions): unknown[] {
  const next = source.create({ seed: options.seed, now: clockOf(options) });
  return Array.from({ length: options.count }, () => next());
}

/** Makes the values, formats them and writes them to --output or stdout. */
export async function writeValues(source: ValueSource, options: DataOptions): Promise<void> {
  await emit(formatValues(makeValues(source, options), options.format), options.output);
}

import { displayPath } from '../config/display-path.js';
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

/**
 * Makes the values, formats them and writes them to --output or stdout. A file written is told in
 * one line on stderr (stdout may be piped on), or with --json as JSON on stdout.
 */
export async function writeValues(source: ValueSource, options: DataOptions): Promise<void> {
  const text = formatValues(makeValues(source, options), options.format);
  await emit(text, options.output);
  if (options.output === undefined) return;
  const written = { file: options.output, count: options.count, format: options.format, bytes: Buffer.byteLength(text) };
  if (options.json) await emit(`${JSON.stringify(written)}\n`, undefined);
  else process.stderr.write(`mock: wrote ${written.count} ${written.count === 1 ? 'value' : 'values'} to ${displayPath(written.file)} (${written.format}, ${written.bytes} bytes)\n`);
}

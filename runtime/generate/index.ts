import { collectionPrimitives, type CollectionPrimitives } from './collections.js';
import { formatPrimitives, type FormatPrimitives } from './formats.js';
import { numberPrimitives, type NumberPrimitives } from './numbers.js';
import { patternPrimitives, type PatternPrimitives } from './patterns.js';
import { createRandom } from './random.js';
import { stringPrimitives, type StringPrimitives } from './strings.js';

export type { CompiledPattern } from './patterns.js';
export type { Generate } from './collections.js';

/** The object (`g`) that build-time generated fake-data code calls. */
export interface GenRuntime
  extends NumberPrimitives, StringPrimitives, FormatPrimitives, PatternPrimitives, CollectionPrimitives {}

export interface GenRuntimeOptions {
  /** Same seed, same sequence of values. */
  seed?: number;
  /** Clock for date-time values (milliseconds since the epoch); defaults to Date.now. */
  now?: () => number;
}

export function createGenRuntime(options: GenRuntimeOptions = {}): GenRuntime {
  const random = createRandom(options.seed);
  return {
    ...numberPrimitives(random),
    ...stringPrimitives(random),
    ...formatPrimitives(random, options.now ?? Date.now),
    ...patternPrimitives(random),
    ...collectionPrimitives(random),
  };
}

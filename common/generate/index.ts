import type { GenRuntime } from '../contract/index.js';
import { collectionPrimitives } from './collections.js';
import { formatPrimitives } from './formats.js';
import { numberPrimitives } from './numbers.js';
import { patternPrimitives } from './patterns.js';
import { createRandom } from './random.js';
import { stringPrimitives } from './strings.js';

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

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
  /** Answers `x-mock-data-source` fields (the server's PluginHost); absent: each field's own generator. */
  plugins?: { call(plugin: string, action: string, input: string): unknown };
}

export function createGenRuntime(options: GenRuntimeOptions = {}): GenRuntime {
  const random = createRandom(options.seed);
  const plugins = options.plugins;
  return {
    ...numberPrimitives(random),
    ...stringPrimitives(random),
    ...formatPrimitives(random, options.now ?? Date.now),
    ...patternPrimitives(random),
    ...collectionPrimitives(random),
    plugin: plugins === undefined ? (_plugin, _action, _input, fallback) => fallback() : (plugin, action, input) => plugins.call(plugin, action, input),
  };
}

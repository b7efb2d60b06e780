import type { JsonSchema } from '../ir/types.js';
import type { GeneratorEmitter } from './api.js';
import { Emitter } from './emitter.js';

export type { GenMode, GeneratorEmitter } from './api.js';

/**
 * An emitter of specialised fake-data generators for schemas over `definitions`
 * (`$ref: '#/definitions/<Name>'`). Identical input yields byte-identical code.
 */
export function createGeneratorEmitter(definitions: Record<string, JsonSchema>): GeneratorEmitter {
  return new Emitter(definitions);
}

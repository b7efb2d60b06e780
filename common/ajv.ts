import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';

const load = createRequire(import.meta.url);

/**
 * A new Ajv, which is loaded (about 60 modules) on the first call: a server whose admin API,
 * runtime mocks and override rules never receive a body to check never loads it.
 */
export function newAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = load('ajv') as typeof import('ajv');
  return new AjvClass(options);
}

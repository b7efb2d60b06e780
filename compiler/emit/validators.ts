import standaloneCode from 'ajv/dist/standalone/index.js';
import type { AjvSchemas } from './ajv-schemas.js';
import { GENERATED_HEADER } from './header.js';
import { importContract } from './contract.js';

/**
 * validators.js: Ajv standalone code, no schema compiled at serve time. The CommonJS output is
 * wrapped in a factory taking `require`, so the runtime resolves Ajv's helpers from its own
 * installation wherever the generated folder lives. Ajv writes untyped JavaScript, so the build
 * declares it in validators.d.ts instead of wrapping it in a TypeScript module that could not
 * pass a strict type check.
 */
export function emitValidators(schemas: AjvSchemas): { js: string; dts: string } {
  const code = standaloneCode.default(schemas.ajv, schemas.exports);
  return {
    js: `${GENERATED_HEADER}export function createValidators(require) {
  const module = { exports: {} };
  const exports = module.exports;
${code}
  return module.exports;
}
`,
    dts: `${GENERATED_HEADER}
${importContract(['CreateValidators'])}
/** validators.js: Ajv's standalone code, by export name. */
export declare const createValidators: CreateValidators;
`,
  };
}

import standaloneCode from 'ajv/dist/standalone/index.js';
import type { AjvSchemas } from './ajv-schemas.js';
import { GENERATED_HEADER } from './header.js';

/**
 * validators.ts: Ajv standalone code, no schema compiled at serve time. The CommonJS output is
 * wrapped in a factory taking `require`, so the runtime resolves Ajv's helpers from its own
 * installation wherever the generated folder lives.
 */
export function emitValidators(schemas: AjvSchemas): { ts: string; js: string } {
  const code = standaloneCode.default(schemas.ajv, schemas.exports);
  // the JavaScript twin is the same text without annotations: no TypeScript pass over megabytes of Ajv output
  const body = (typed: boolean): string => `export function createValidators(require${typed ? ': (id: string) => any' : ''})${typed ? ': Record<string, Validate>' : ''} {
  const module = { exports: {}${typed ? ' as Record<string, Validate>' : ''} };
  const exports = module.exports;
${code}
  return module.exports;
}
`;
  return {
    ts: `${GENERATED_HEADER}// @ts-nocheck -- Ajv standalone output
export type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }> | null };

${body(true)}`,
    js: `${GENERATED_HEADER}${body(false)}`,
  };
}

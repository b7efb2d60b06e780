import { MockError } from '../../common/errors.js';

export type Dialect = 'openapi-3.0' | 'openapi-3.1' | 'openapi-3.2' | 'swagger-2.0';

export interface OpenApi3 {
  dialect: Dialect;
  document: Record<string, unknown>;
}

/** Brings every accepted dialect to one OpenAPI 3.x object; Swagger 2.0 is converted with swagger2openapi. */
/** The dialect of a parsed document; anything else is an error naming what was found. */
export function dialectOf(source: string, document: Record<string, unknown>): Dialect {
  const version = document.openapi;
  if (typeof document.swagger === 'string' && /^2\.0(\.|$)/.test(document.swagger)) return 'swagger-2.0';
  if (typeof version === 'string' && /^3\.0\.\d+/.test(version)) return 'openapi-3.0';
  if (typeof version === 'string' && /^3\.1\.\d+/.test(version)) return 'openapi-3.1';
  // 3.2 keeps 3.1's schemas and adds what changes the server (QUERY, additionalOperations, querystring, itemSchema); later 3.x read as 3.2
  if (typeof version === 'string' && /^3\.([2-9]|\d\d+)\.\d+/.test(version)) return 'openapi-3.2';
  throw new MockError(
    'MOCK_ERR_SPEC_INVALID',
    `${source}: unsupported description version ${JSON.stringify(version ?? document.swagger ?? null)} (expected "openapi: 3.0.x", "openapi: 3.1.x", "openapi: 3.2.x" or "swagger: '2.0'")`,
  );
}

export async function toOpenApi3(source: string, document: Record<string, unknown>): Promise<OpenApi3> {
  const dialect = dialectOf(source, document);
  if (dialect === 'swagger-2.0') {
    try {
      // patch + warnOnly: real-world 2.0 documents carry small errors the converter can repair
      const copy = structuredClone(document);
      markNonEmptyFormFields(copy);
      // loaded for Swagger 2.0 documents only
      const { default: swagger2openapi } = await import('swagger2openapi');
      const { openapi } = await swagger2openapi.convertObj(copy, { patch: true, warnOnly: true, resolve: false });
      return { dialect: 'swagger-2.0', document: openapi };
    } catch (e) {
      throw new MockError('MOCK_ERR_SPEC_INVALID', `${source}: cannot convert Swagger 2.0: ${(e as Error).message}`);
    }
  }
  return { dialect, document };
}

/**
 * Marks a form field that may not be sent empty. Swagger 2.0 formData parameters may not unless
 * their allowEmptyValue says so (false is the default); swagger2openapi drops allowEmptyValue but
 * copies extensions onto the schema property a parameter becomes, where lowering finds the mark.
 */
export const NON_EMPTY_FIELD = 'x-mock-non-empty';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function markNonEmptyFormFields(document: Record<string, unknown>): void {
  const mark = (list: unknown): void => {
    const params = (Array.isArray(list) ? list : typeof list === 'object' && list !== null ? Object.values(list) : []) as Array<Record<string, unknown> | null>;
    // a $ref names one of the global parameters, which are marked too
    for (const param of params) if (param?.in === 'formData' && param.allowEmptyValue !== true) param[NON_EMPTY_FIELD] = true;
  };
  mark(document.parameters);
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, { parameters?: unknown } | undefined>>)) {
    if (typeof item !== 'object' || item === null) continue;
    mark(item.parameters);
    for (const method of METHODS) mark(item[method]?.parameters);
  }
}

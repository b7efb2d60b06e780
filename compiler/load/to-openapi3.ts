import swagger2openapi from 'swagger2openapi';
import { MockError } from '../../common/errors.js';

export type Dialect = 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0';

export interface OpenApi3 {
  dialect: Dialect;
  document: Record<string, unknown>;
}

/** Brings every accepted dialect to one OpenAPI 3.x object; Swagger 2.0 is converted with swagger2openapi. */
export async function toOpenApi3(source: string, document: Record<string, unknown>): Promise<OpenApi3> {
  if (typeof document.swagger === 'string' && document.swagger.startsWith('2.')) {
    try {
      // patch + warnOnly: real-world 2.0 documents carry small errors the converter can repair
      const { openapi } = await swagger2openapi.convertObj(structuredClone(document), { patch: true, warnOnly: true, resolve: false });
      return { dialect: 'swagger-2.0', document: openapi };
    } catch (e) {
      throw new MockError('MOCK_ERR_SPEC_INVALID', `${source}: cannot convert Swagger 2.0: ${(e as Error).message}`);
    }
  }
  const version = document.openapi;
  if (typeof version === 'string' && /^3\.0(\.|$)/.test(version)) return { dialect: 'openapi-3.0', document };
  if (typeof version === 'string' && /^3\.[1-9]/.test(version)) return { dialect: 'openapi-3.1', document };
  throw new MockError(
    'MOCK_ERR_SPEC_INVALID',
    `${source}: unsupported description version ${JSON.stringify(version ?? document.swagger ?? null)} (expected "openapi: 3.x" or "swagger: 2.0")`,
  );
}

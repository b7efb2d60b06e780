import { register } from 'node:module';
import { MockError } from '../../common/errors.js';

type CreateClient = (config: Record<string, unknown>) => Promise<unknown>;

let loaded: Promise<CreateClient> | undefined;

const resolvable = (name: string): boolean => {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
};

/**
 * @hey-api/openapi-ts, an optional peer (a consumer install is 30 MB smaller without it and the
 * TypeScript 5 it prints code with): one line says how to add it. It imports "typescript" for
 * TypeScript's compiler API, which TypeScript 7 (native) no longer has in JavaScript: where a
 * `typescript-5` alias is installed (as in this repository, whose own compiler is TypeScript 7) a
 * module resolve hook answers hey-api's imports of "typescript" with it; otherwise the project's
 * own TypeScript 5 answers, as for any package.
 */
export function loadGenerator(): Promise<CreateClient> {
  loaded ??= (async () => {
    if (!resolvable('@hey-api/openapi-ts')) {
      throw new MockError(
        'MOCK_ERR_DEV_SETUP_NOT_INSTALLED',
        'mock dev-setup needs the package @hey-api/openapi-ts (not installed) and TypeScript 5: npm install -D @hey-api/openapi-ts@0.95.0 typescript@5 in the project (beside TypeScript 7: typescript-5@npm:typescript@5.9.3), or npm install -g @hey-api/openapi-ts@0.95.0 typescript@5 beside a global mock-compiler',
      );
    }
    if (resolvable('typescript-5')) {
      const hook = [
        'export async function resolve(specifier, context, next) {',
        "  if (specifier === 'typescript' && context.parentURL !== undefined && context.parentURL.includes('/@hey-api/'))",
        `    return next('typescript-5', { ...context, parentURL: ${JSON.stringify(import.meta.url)} });`,
        '  return next(specifier, context);',
        '}',
      ].join('\n');
      register(`data:text/javascript,${encodeURIComponent(hook)}`);
    }
    const { createClient } = await import('@hey-api/openapi-ts');
    return createClient as unknown as CreateClient;
  })();
  return loaded;
}

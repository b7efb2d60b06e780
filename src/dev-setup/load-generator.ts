import { register } from 'node:module';

type CreateClient = (config: Record<string, unknown>) => Promise<unknown>;

let loaded: Promise<CreateClient> | undefined;

/**
 * @hey-api/openapi-ts, with its `import ts from "typescript"` answered by TypeScript 5 (the
 * `typescript-5` alias this package depends on): it prints code with TypeScript's compiler API,
 * which TypeScript 7 (native, this project's own compiler) no longer has in JavaScript. The module
 * resolve hook redirects only imports from @hey-api's files; everything else resolves as before.
 */
export function loadGenerator(): Promise<CreateClient> {
  loaded ??= (async () => {
    const hook = [
      'export async function resolve(specifier, context, next) {',
      "  if (specifier === 'typescript' && context.parentURL !== undefined && context.parentURL.includes('/@hey-api/'))",
      `    return next('typescript-5', { ...context, parentURL: ${JSON.stringify(import.meta.url)} });`,
      '  return next(specifier, context);',
      '}',
    ].join('\n');
    register(`data:text/javascript,${encodeURIComponent(hook)}`);
    const { createClient } = await import('@hey-api/openapi-ts');
    return createClient as unknown as CreateClient;
  })();
  return loaded;
}

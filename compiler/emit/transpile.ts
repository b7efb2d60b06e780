import { transform } from 'sucrase';

/**
 * Type-strips one generated module to the JavaScript the runtime imports. Sucrase only removes
 * the types (modern syntax left as written, so the JavaScript reads like its TypeScript); it
 * loads in a few dozen milliseconds where the TypeScript compiler took about half a second of
 * every build.
 */
export function transpile(source: string): string {
  // sucrase drops the comments in front of a statement it removes: keep the file's header apart
  const header = /^(?:\/\/[^\n]*\n)+/.exec(source)?.[0] ?? '';
  const { code } = transform(source.slice(header.length), { transforms: ['typescript'], disableESTransforms: true });
  // a removed `import type` stays as an empty line; the generated code writes string values as
  // JSON (escaped newlines), so blank runs are only layout
  return header + code.replace(/^\n+/, '').replace(/\n{3,}/g, '\n\n');
}

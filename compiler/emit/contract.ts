/**
 * How generated modules name the types they implement (common/contract): through the "exports" of
 * the tool's package (`mock-compiler`), so a build anywhere in a project resolves them from the
 * installed tool, where a relative path into the tool would not. The imports are type-only:
 * transpiling erases them, and the runtime never loads the module.
 */
export const CONTRACT_MODULE = 'mock-compiler/contract';

export function importContract(names: string[]): string {
  return `import type { ${names.join(', ')} } from '${CONTRACT_MODULE}';\n`;
}

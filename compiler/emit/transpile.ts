import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';

// Loaded on first use: the compiler's index is also how `mock data` and the self-test reach the
// IR, and they should not pay the TypeScript compiler's start-up cost.
let typescript: typeof TsMorph.ts | undefined;
const ts = (): typeof TsMorph.ts => (typescript ??= (createRequire(import.meta.url)('ts-morph') as typeof TsMorph).ts);

/** Type-strips one generated module to the JavaScript the runtime imports (ts-morph bundles the compiler API). */
export function transpile(source: string): string {
  const { transpileModule, ModuleKind, ScriptTarget } = ts();
  return transpileModule(source, {
    compilerOptions: { module: ModuleKind.ESNext, target: ScriptTarget.ES2022, removeComments: false },
  }).outputText;
}

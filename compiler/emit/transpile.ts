import { ts } from 'ts-morph';

/** Type-strips one generated module to the JavaScript the runtime imports (ts-morph bundles the compiler API). */
export function transpile(source: string): string {
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, removeComments: false },
  }).outputText;
}

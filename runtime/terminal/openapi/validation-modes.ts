import { compileGlob, requestPath, type LinearPattern } from '../../match/index.js';
import type { ValidationMode, ValidationOptions } from '../../serve-options.js';
import type { OperationMeta } from '../../../common/contract/index.js';

/**
 * The mode of each operation, decided once (and again when the configuration changes):
 * an exact `METHOD /path` key wins, then the first matching glob (`/api/admin/**`, optionally
 * prefixed with a method; the dialect of runtime/match), then the global mode.
 */
export function resolveModes(operations: OperationMeta[], validation: ValidationOptions): ValidationMode[] {
  const globs = Object.entries(validation.overrides).map(([key, mode]) => ({ ...parseKey(key), mode }));
  return operations.map((op) => {
    const exact = globs.find((g) => !g.isGlob && (g.method === op.method || g.method === '*') && g.path === op.path);
    if (exact) return exact.mode;
    const glob = globs.find((g) => g.isGlob && (g.method === op.method || g.method === '*') && g.regex.test(requestPath(op.path)));
    return glob?.mode ?? validation.mode;
  });
}

function parseKey(key: string): { method: string; path: string; isGlob: boolean; regex: LinearPattern } {
  const m = /^([A-Za-z]+)\s+(\S+)$/.exec(key.trim());
  const method = m ? m[1].toUpperCase() : '*';
  const path = m ? m[2] : key.trim();
  return { method, path, isGlob: path.includes('*'), regex: compileGlob(path) };
}

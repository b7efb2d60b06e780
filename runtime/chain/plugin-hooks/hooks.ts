import { compileGlob, globMayReach, requestPath, templateSegments } from '../../match/index.js';
import type { LinearPattern } from '../../../common/patterns/index.js';
import type { PluginHook } from '../../plugins/index.js';
import type { BuildRoute, Exchange } from '../exchange/index.js';

/** A configured hook with its globs compiled. */
export interface CompiledHook extends PluginHook {
  globs: LinearPattern[] | undefined;
}

/**
 * One kind's hooks (plugins.middleware, plugins.request_validators, plugins.response_modifiers),
 * selected per route when the chain compiles (a route no glob can reach runs none) and per
 * request by its path.
 */
export class PluginHooks {
  private readonly hooks: CompiledHook[];

  constructor(hooks: readonly PluginHook[]) {
    this.hooks = hooks.map((hook) => ({ ...hook, globs: hook.paths?.map(compileGlob) }));
  }

  get empty(): boolean {
    return this.hooks.length === 0;
  }

  /** Whether any hook may run for `route` (404s run none). */
  reach(route: BuildRoute | null): boolean {
    if (route === null) return false;
    const template = templateSegments(route.path);
    return this.hooks.some((hook) => hook.paths === undefined || hook.paths.some((glob) => globMayReach(glob, template)));
  }

  /** The hooks that run for this request, in configured order. */
  of(ex: Exchange): CompiledHook[] {
    const at = requestPath(ex.path);
    return this.hooks.filter((hook) => hook.globs === undefined || hook.globs.some((glob) => glob.test(at)));
  }
}

/** What middleware and request validators are given: the request, as JSON text (docs/plugins.md). */
export function requestInput(ex: Exchange, withBody: boolean): string {
  const query: Record<string, string[]> = Object.fromEntries(ex.query);
  return JSON.stringify(withBody ? { method: ex.method, path: ex.path, query, headers: ex.headers, body: ex.json ?? null } : { method: ex.method, path: ex.path, query, headers: ex.headers });
}

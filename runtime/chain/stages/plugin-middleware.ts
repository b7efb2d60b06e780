import { PluginHooks, requestInput } from '../plugin-hooks/index.js';
import { pluginUnauthorized } from '../exchange/index.js';
import { defineStage } from '../stage.js';

/**
 * plugins.middleware: each selected action is given the request (no body) and answers
 * `{"allow": true}` or `{"allow": false, "message": …}`; the first refusal is the spec's 401
 * `{"error": "Unauthorized", "message": …}`. Beside the security schemes, before anything costs.
 */
export const pluginMiddlewareStage = defineStage({ slot: 'plugin-middleware', kinds: ['description'] }, ({ plugins }) => {
  if (plugins === undefined || plugins.options.middleware.length === 0) return undefined;
  const hooks = new PluginHooks(plugins.options.middleware);
  return {
    appliesTo: (route) => hooks.reach(route),
    run(ex, next) {
      const selected = hooks.of(ex);
      if (selected.length === 0) return next(ex);
      const input = requestInput(ex, false);
      for (const { plugin, action } of selected) {
        const verdict = plugins.call(plugin, action, input) as { allow?: unknown; message?: unknown } | null;
        if (verdict?.allow === true) continue;
        if (verdict?.allow !== false) {
          const reason = 'it answered neither {"allow": true} nor {"allow": false, "message": …}';
          throw plugins.misanswered(plugin, action, reason);
        }
        return pluginUnauthorized({ plugin, message: typeof verdict.message === 'string' ? verdict.message : `refused by plugin ${plugin}` });
      }
      return next(ex);
    },
  };
});

import { PluginHooks, requestInput } from '../plugin-hooks/index.js';
import { problem, type BuildRoute } from '../exchange/index.js';
import { defineStage } from '../stage.js';

/**
 * plugins.request_validators: each selected action is given the request with its parsed JSON body
 * and answers `{"valid": true}` or `{"valid": false, "errors": [text, …]}`. Last in the chain,
 * beside the description's own validation, whose mode it follows: off skips it, warn logs a
 * refusal and lets the request through, enforce answers validation.status_code (400) listing the
 * errors.
 */
export const pluginValidatorStage = defineStage({ slot: 'plugin-validator', kinds: ['description'] }, ({ plugins, engine, logger }) => {
  if (plugins === undefined || plugins.options.requestValidators.length === 0) return undefined;
  const hooks = new PluginHooks(plugins.options.requestValidators);
  return {
    appliesTo: (route) => hooks.reach(route),
    run(ex, next) {
      const selected = hooks.of(ex);
      const current = engine?.();
      const mode = current?.modeOf((ex.route as BuildRoute).index) ?? 'enforce';
      if (selected.length === 0 || mode === 'off') return next(ex);
      const input = requestInput(ex, true);
      for (const { plugin, action } of selected) {
        const verdict = plugins.call(plugin, action, input) as { valid?: unknown; errors?: unknown } | null;
        if (verdict?.valid === true) continue;
        const errors = verdict?.errors;
        if (verdict?.valid !== false || !Array.isArray(errors) || errors.length === 0 || !errors.every((e) => typeof e === 'string')) {
          const reason = 'it answered neither {"valid": true} nor {"valid": false, "errors": [text, …]}';
          throw plugins.misanswered(plugin, action, reason);
        }
        if (mode === 'warn') {
          logger.warn({ plugin, action, method: ex.method, path: ex.path, errors }, `plugin ${plugin} refused the request (warn mode: request accepted)`);
          continue;
        }
        return problem('MOCK_ERR_PLUGIN_REQUEST_INVALID', { plugin, first: errors[0] as string }, { status: current?.validationOptions.status_code, extra: { errors } });
      }
      return next(ex);
    },
  };
});

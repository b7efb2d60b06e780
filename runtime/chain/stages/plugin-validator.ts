import { PluginHooks, requestInput } from '../plugin-hooks/index.js';
import { PluginFailure } from '../../plugins/index.js';
import { problem } from '../exchange/index.js';
import { defineStage } from '../stage.js';

/**
 * plugins.request_validators: each selected action is given the request with its parsed JSON body
 * and answers `{"valid": true}` or `{"valid": false, "errors": [text, …]}`; a refusal is a 400
 * problem listing the errors. Last in the chain, just before the description's own validation.
 */
export const pluginValidatorStage = defineStage({ slot: 'plugin-validator', kinds: ['description'] }, ({ plugins }) => {
  if (plugins === undefined || plugins.options.requestValidators.length === 0) return undefined;
  const hooks = new PluginHooks(plugins.options.requestValidators);
  return {
    appliesTo: (route) => hooks.reach(route),
    run(ex, next) {
      const selected = hooks.of(ex);
      if (selected.length === 0) return next(ex);
      const input = requestInput(ex, true);
      for (const { plugin, action } of selected) {
        const verdict = plugins.call(plugin, action, input) as { valid?: unknown; errors?: unknown } | null;
        if (verdict?.valid === true) continue;
        const errors = verdict?.errors;
        if (verdict?.valid !== false || !Array.isArray(errors) || errors.length === 0 || !errors.every((e) => typeof e === 'string')) {
          const reason = 'it answered neither {"valid": true} nor {"valid": false, "errors": [text, …]}';
          throw new PluginFailure('MOCK_ERR_PLUGIN_FAILED', { plugin, action, reason }, reason);
        }
        return problem('MOCK_ERR_PLUGIN_REQUEST_INVALID', { plugin, first: errors[0] as string }, { extra: { errors } });
      }
      return next(ex);
    },
  };
});

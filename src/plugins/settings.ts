import { Flags } from '@oclif/core';
import { DEFAULT_LIMITS, type PluginLimits } from '../../runtime/index.js';
import { loadConfig } from '../config/index.js';
import { pluginOptions } from '../cli/serve-options.js';

/** --config of the plugin commands. */
export const pluginFlags = {
  config: Flags.string({
    char: 'c',
    description: "Config file, for plugins.dir and the plugins' limits [default: mock.yaml, mock.yml, .mock.yaml or .mock.yml in this or a parent directory]",
    helpValue: '<path>',
  }),
};

export interface PluginSettings {
  /** plugins.dir, absolute. */
  dir: string;
  /** The limits and grants in force for a plugin of that name. */
  limitsOf(name: string): PluginLimits;
}

export function pluginSettings(flags: { config?: string }): PluginSettings {
  const resolved = loadConfig({ configPath: flags.config });
  const options = pluginOptions(resolved);
  return { dir: options.dir, limitsOf: (name) => ({ ...DEFAULT_LIMITS, ...options.limits, ...options.sandbox[name] }) };
}

import { Args } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { pluginFlags, pluginSettings, removePlugin } from '../../plugins/index.js';

export default class PluginUninstall extends MockCommand {
  static summary = 'Remove an installed plugin (its folder under plugins.dir); mock.yaml hooks that name it then stop mock serve from starting.';

  static examples = ['<%= config.bin %> <%= command.id %> upper'];

  static args = { name: Args.string({ required: true, description: 'Installed plugin name (mock plugin list)' }) };

  static flags = { ...pluginFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginUninstall);
    removePlugin(pluginSettings(flags).dir, args.name);
    this.log(`mock: uninstalled plugin ${args.name}`);
  }
}

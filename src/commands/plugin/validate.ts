import { existsSync, readFileSync } from 'node:fs';
import { Args } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { installedPlugin, pluginFlags, pluginSettings, validateModule } from '../../plugins/index.js';
import { checkModule } from '../../../runtime/index.js';

export default class PluginValidate extends MockCommand {
  static summary =
    'Check a plugin against the ABI and the limits of mock.yaml: exports present, ABI version, memory declared with a maximum within max_memory_mb, WASI as its only import, a valid manifest.';

  static description = "Takes an installed plugin's name or a .wasm file. Loads the module in its sandbox (which calls mock_abi_version); exit 1 listing every problem.";

  static examples = ['<%= config.bin %> <%= command.id %> upper', '<%= config.bin %> <%= command.id %> ./build/plugin.wasm'];

  static args = { plugin: Args.string({ required: true, description: 'Installed plugin name, or a path to a .wasm file' }) };

  static flags = { ...pluginFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginValidate);
    const settings = pluginSettings(flags);
    const bytes = existsSync(args.plugin) ? readFileSync(args.plugin) : installedPlugin(settings.dir, args.plugin).module;
    const name = checkModule(bytes).manifest?.name ?? '';
    const manifest = validateModule(bytes, settings.limitsOf(name), args.plugin);
    this.log(
      `mock: plugin ${manifest.name} ${manifest.version} is valid (ABI ${manifest.abi}; actions ${Object.entries(manifest.actions)
        .map(([a, s]) => `${a} (${s.kind})`)
        .join(', ')})`,
    );
  }
}

import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { installedPlugin, pluginFlags, pluginSettings } from '../../plugins/index.js';
import { checkModule } from '../../../runtime/index.js';

export default class PluginInfo extends MockCommand {
  static summary = 'Show an installed plugin: its manifest, actions and kinds, install record, memory, and the limits and grants mock.yaml gives it.';

  static examples = ['<%= config.bin %> <%= command.id %> upper', '<%= config.bin %> <%= command.id %> auth --json'];

  static args = { name: Args.string({ required: true, description: 'Installed plugin name (mock plugin list)' }) };

  static flags = { ...pluginFlags, json: Flags.boolean({ description: 'Print JSON' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginInfo);
    const settings = pluginSettings(flags);
    const { record, module, dir } = installedPlugin(settings.dir, args.name);
    const report = checkModule(module);
    const info = {
      ...record,
      dir,
      description: report.manifest?.description ?? null,
      actions: report.manifest?.actions ?? {},
      tests: report.manifest?.tests?.length ?? 0,
      memory_max_bytes: report.memoryMaxBytes ?? null,
      wasi: report.usesWasi,
      limits: settings.limitsOf(record.name),
    };
    if (flags.json) return this.log(JSON.stringify(info, null, 2));
    this.log(`${info.name} ${info.version}${info.description === null ? '' : `: ${info.description}`}`);
    this.log(`  source   ${info.source}`);
    this.log(`  sha256   ${info.sha256}${record.pinned === undefined ? '' : ' (pinned)'}`);
    this.log(`  folder   ${dir}`);
    this.log(
      `  actions  ${Object.entries(info.actions)
        .map(([a, s]) => `${a} (${s.kind})`)
        .join(', ')}`,
    );
    this.log(`  memory   declares at most ${(info.memory_max_bytes ?? 0) / 1024 / 1024} MB; max_memory_mb ${info.limits.max_memory_mb}`);
    this.log(`  time     max_execution_ms ${info.limits.max_execution_ms} (wall-clock, per call)`);
    this.log(`  files    ${info.limits.allowed_paths.length === 0 ? 'none' : info.limits.allowed_paths.join(', ')}; network: none`);
    this.log(`  tests    ${info.tests} declared (mock plugin test ${info.name})`);
  }
}

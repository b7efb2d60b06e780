import { Args, Flags } from '@oclif/core';
import { MockError } from '../../../common/errors.js';
import { MockCommand } from '../../cli/mock-command.js';
import { installFrom, installedPlugin, parseGitSpec, pluginFlags, pluginSettings, versionTags } from '../../plugins/index.js';

export default class PluginUpdate extends MockCommand {
  static summary = 'Update an installed plugin from the source it was installed from: the highest version tag of its Git repository, or its file or URL again.';

  static description = [
    "A plugin installed with --checksum is pinned: its update needs the new module's --checksum (the old one cannot match new bytes).",
    'Replaces the plugin in one rename, as install --force does; a source that now holds another plugin is refused.',
  ].join(' ');

  static examples = ['<%= config.bin %> <%= command.id %> auth', '<%= config.bin %> <%= command.id %> auth --checksum sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'];

  static args = { name: Args.string({ required: true, description: 'Installed plugin name (mock plugin list)' }) };

  static flags = {
    ...pluginFlags,
    checksum: Flags.string({ description: "The new module's SHA-256 (required for a pinned plugin)", helpValue: 'sha256:<hex>' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginUpdate);
    const settings = pluginSettings(flags);
    const { record } = installedPlugin(settings.dir, args.name);
    let source = record.source;
    if (source.startsWith('git+')) {
      const { repository } = parseGitSpec(source, process.cwd());
      const [newest] = versionTags(repository);
      if (newest === undefined) throw new MockError('MOCK_ERR_PLUGIN_SOURCE', `plugin ${args.name}: ${repository} has no version tags any more (reinstall it from another source)`);
      source = `git+${repository}#${newest}`;
      if (source === record.source) {
        this.log(`mock: plugin ${args.name} ${record.version} is up to date (${newest} is the newest version tag of ${repository})`);
        return;
      }
    }
    if (record.pinned !== undefined && flags.checksum === undefined) {
      throw new MockError(
        'MOCK_ERR_PLUGIN_CHECKSUM',
        `plugin ${args.name} was installed with --checksum: give the checksum of ${source} with --checksum sha256:<hex> to update it (nothing was changed)`,
      );
    }
    const updated = await installFrom(settings, source, { checksum: flags.checksum, force: true, expectedName: args.name, cwd: process.cwd() });
    this.log(
      updated.sha256 === record.sha256
        ? `mock: plugin ${args.name} ${record.version} is up to date`
        : `mock: updated plugin ${args.name} ${record.version} -> ${updated.version} (sha256:${updated.sha256}) from ${updated.source}`,
    );
  }
}

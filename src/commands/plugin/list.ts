import { Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { pluginFlags, pluginSettings } from '../../plugins/index.js';
import { checkModule, readInstalled } from '../../../runtime/index.js';

export default class PluginList extends MockCommand {
  static summary = 'List the installed plugins: name, version, the kinds of their actions, and where they came from.';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'];

  static flags = {
    ...pluginFlags,
    json: Flags.boolean({ description: 'Print a JSON array' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(PluginList);
    const { dir } = pluginSettings(flags);
    const rows = readInstalled(dir).map(({ record, module }) => {
      const actions = checkModule(module).manifest?.actions ?? {};
      return { ...record, actions: Object.fromEntries(Object.entries(actions).map(([name, spec]) => [name, spec.kind])) };
    });
    if (flags.json) return this.log(JSON.stringify(rows, null, 2));
    if (rows.length === 0) return this.log(`mock: no plugins installed in ${dir} (mock plugin install <file, URL or git+repository#tag>)`);
    for (const row of rows)
      this.log(
        `${row.name} ${row.version}  ${Object.entries(row.actions)
          .map(([a, kind]) => `${a} (${kind})`)
          .join(', ')}  ${row.source}`,
      );
  }
}

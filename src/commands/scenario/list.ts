import { Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { listLocal, scenarioHome } from '../../scenario/index.js';

export default class ScenarioList extends MockCommand {
  static summary = 'List the scenarios installed in this project (.mock/scenarios), marking the one in use.';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'];

  static flags = {
    config: Flags.string({ char: 'c', description: "The project's mock.yaml (its folder holds .mock/scenarios)", helpValue: '<path>' }),
    json: Flags.boolean({ description: 'Print the list as JSON.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ScenarioList);
    const scenarios = listLocal(scenarioHome(process.cwd(), flags.config));
    if (flags.json) {
      return this.log(
        JSON.stringify(
          scenarios.map(({ name, version, active, resolved, manifest }) => ({ name, version, active, category: manifest.category, resolved })),
          null,
          2,
        ),
      );
    }
    if (scenarios.length === 0) return this.log('no scenario is installed; mock scenario install <path, URL, git reference or name@range> installs one');
    for (const s of scenarios) this.log(`${s.active ? '*' : ' '} ${s.name}@${s.version}  ${s.manifest.category}  ${s.manifest.description}`);
  }
}

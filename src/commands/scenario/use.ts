import { Args, Flags } from '@oclif/core';
import { MockError } from '../../../common/errors.js';
import { MockCommand } from '../../cli/mock-command.js';
import { displayPath } from '../../config/index.js';
import { clearActive, scenarioHome, useScenario } from '../../scenario/index.js';

export default class ScenarioUse extends MockCommand {
  static summary = 'Make this project serve an installed scenario: mock serve merges it under mock.yaml, whose settings win.';

  static description = [
    'Writes .mock/active-scenario.json; mock.yaml is not touched. Every command that reads mock.yaml (serve, build, config show) then reads',
    "the scenario's config.yaml (over its dependencies') under it: objects merge key by key and the project's values win; specs, http.routes",
    "and core.stateful.state_machines are concatenated, the project's first; a scenario's openapi.json and fixtures/ are used unless",
    'its config.yaml names others (docs/scenarios.md, "Merge rules"). --clear stops using one.',
  ].join(' ');

  static examples = ['<%= config.bin %> <%= command.id %> mock-scenario-ecommerce', '<%= config.bin %> <%= command.id %> --clear'];

  static args = { name: Args.string({ description: 'The installed scenario to serve.' }) };

  static flags = {
    clear: Flags.boolean({ description: 'Stop merging a scenario in.' }),
    config: Flags.string({ char: 'c', description: "The project's mock.yaml (its folder holds .mock/scenarios)", helpValue: '<path>' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioUse);
    const home = scenarioHome(process.cwd(), flags.config);
    if (flags.clear) {
      const was = clearActive(home);
      return this.log(was ? `no longer using ${was}` : 'no scenario was in use');
    }
    if (!args.name) throw new MockError('MOCK_ERR_FLAG_INVALID', 'mock scenario use: name the installed scenario to serve (mock scenario list shows them), or pass --clear');
    const scenario = useScenario(home, args.name);
    this.log(`using ${scenario.name}@${scenario.version} (${displayPath(scenario.dir)}); mock serve now serves it under ${displayPath(home.project)}'s own settings`);
  }
}

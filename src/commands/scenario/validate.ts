import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { MockError } from '../../../common/errors.js';
import { MockCommand } from '../../cli/mock-command.js';
import { validateScenario } from '../../scenario/index.js';

export default class ScenarioValidate extends MockCommand {
  static summary = 'Check a scenario folder: scenario.yaml, config.yaml, its description, fixtures, README.md and CHANGELOG.md.';

  static description = 'Prints one line per problem, naming the file and key (scenario.yaml: version: …), and exits 1 when there is any. The format is in docs/scenarios.md.';

  static examples = ['<%= config.bin %> <%= command.id %> ./my-scenario', '<%= config.bin %> <%= command.id %> scenarios/ecommerce --json'];

  static args = { dir: Args.string({ description: 'The scenario folder.', required: true }) };

  static flags = { json: Flags.boolean({ description: 'Print {dir, name, version, errors} as JSON.' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioValidate);
    const report = validateScenario(path.resolve(args.dir));
    if (flags.json) this.log(JSON.stringify({ dir: args.dir, name: report.manifest?.name, version: report.manifest?.version, errors: report.errors }, null, 2));
    if (report.errors.length > 0) {
      if (flags.json) this.exit(1);
      throw new MockError('MOCK_ERR_SCENARIO_INVALID', report.errors.map((line) => `${args.dir}/${line}`).join('\n'));
    }
    if (!flags.json) this.log(`${args.dir}: a valid scenario (${report.manifest?.name} ${report.manifest?.version})`);
  }
}

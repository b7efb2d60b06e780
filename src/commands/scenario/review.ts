import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { registryOf, registryOptions, reviewScenario, scenarioHome } from '../../scenario/index.js';

export default class ScenarioReview extends MockCommand {
  static summary = "Review a scenario on the registry: star it (npm's star, kept in the package's users), or --remove the star.";

  static description =
    'The npm registry protocol keeps one kind of review: stars, the users who starred a package (npm star). mock scenario info and the marketplace endpoints show the count. Needs your .npmrc token.';

  static examples = ['<%= config.bin %> <%= command.id %> mock-scenario-ecommerce', '<%= config.bin %> <%= command.id %> mock-scenario-ecommerce --remove'];

  static args = { name: Args.string({ description: 'The scenario package.', required: true }) };

  static flags = {
    remove: Flags.boolean({ description: 'Take your star back.' }),
    registry: Flags.string({
      description: 'npm registry URL [default: scenarios.registry of mock.yaml or MOCK_SCENARIO_REGISTRY, else registry= of .npmrc, else the public registry]',
      helpValue: '<url>',
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioReview);
    const { user, stars } = await reviewScenario(registryOptions(scenarioHome().project, registryOf(flags.registry)), args.name, flags.remove);
    this.log(`${flags.remove ? 'unstarred' : 'starred'} ${args.name} as ${user} (${stars} star${stars === 1 ? '' : 's'})`);
  }
}

import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { displayPath } from '../../config/index.js';
import { installScenario, listLocal, localScenario, registryOf, scenarioHome } from '../../scenario/index.js';

export default class ScenarioUpdate extends MockCommand {
  static summary = 'Install again what a scenario was installed from: the newest version its range allows, the branch or tag, the folder or URL.';

  static description =
    'Reads the source recorded in .mock/scenarios/scenarios-lock.json (name@^1.2.0 gets the newest 1.x of the registry) and installs it with --force, atomically. Without a name, every scenario installed directly is updated.';

  static examples = ['<%= config.bin %> <%= command.id %> mock-scenario-ecommerce', '<%= config.bin %> <%= command.id %>'];

  static args = { name: Args.string({ description: 'The installed scenario (default: all).' }) };

  static flags = {
    registry: Flags.string({
      description: 'npm registry URL [default: scenarios.registry of mock.yaml or MOCK_SCENARIO_REGISTRY, else registry= of .npmrc, else the public registry]',
      helpValue: '<url>',
    }),
    config: Flags.string({ char: 'c', description: "The project's mock.yaml (its folder holds .mock/scenarios)", helpValue: '<path>' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioUpdate);
    const home = scenarioHome(process.cwd(), flags.config);
    const targets = args.name ? [localScenario(home, args.name)] : listLocal(home);
    for (const target of targets) {
      const before = target.version;
      const [after] = await installScenario(target.requested, { force: true, registry: registryOf(flags.registry, process.cwd(), flags.config), configPath: flags.config });
      this.log(before === after.version ? `${after.name}@${after.version} is up to date` : `updated ${after.name} ${before} → ${after.version} in ${displayPath(after.dir)}`);
    }
  }
}

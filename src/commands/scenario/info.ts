import { Args, Flags } from '@oclif/core';
import { isMockError } from '../../../common/errors.js';
import { MockCommand } from '../../cli/mock-command.js';
import { displayPath } from '../../config/index.js';
import { localScenario, registryInfo, registryOf, registryOptions, scenarioHome } from '../../scenario/index.js';

export default class ScenarioInfo extends MockCommand {
  static summary = "Show a scenario: an installed one's scenario.yaml, source and integrity; else (or with --remote) the registry's view of it.";

  static examples = [
    '<%= config.bin %> <%= command.id %> mock-scenario-ecommerce',
    '<%= config.bin %> <%= command.id %> mock-scenario-ecommerce --json',
    '<%= config.bin %> <%= command.id %> shop-scenario --remote --registry http://localhost:4873',
  ];

  static args = { name: Args.string({ description: 'The scenario name.', required: true }) };

  static flags = {
    remote: Flags.boolean({ description: 'Ask the registry (versions, category, tags, stars, integrity) even when it is installed.' }),
    registry: Flags.string({
      description: 'npm registry URL [default: scenarios.registry of mock.yaml or MOCK_SCENARIO_REGISTRY, else registry= of .npmrc, else the public registry]',
      helpValue: '<url>',
    }),
    config: Flags.string({ char: 'c', description: "The project's mock.yaml (its folder holds .mock/scenarios)", helpValue: '<path>' }),
    json: Flags.boolean({ description: 'Print it as JSON.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioInfo);
    const home = scenarioHome(process.cwd(), flags.config);
    let s: ReturnType<typeof localScenario> | undefined;
    try {
      if (!flags.remote) s = localScenario(home, args.name);
    } catch (error) {
      if (!isMockError(error) || error.code !== 'MOCK_ERR_SCENARIO_NOT_INSTALLED') throw error;
    }
    if (s === undefined) {
      const remote = await registryInfo(registryOptions(home.project, registryOf(flags.registry, process.cwd(), flags.config)), args.name);
      if (flags.json) return this.log(JSON.stringify(remote, null, 2));
      for (const [key, value] of Object.entries(remote)) this.log(`${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
      return;
    }
    if (flags.json) return this.log(JSON.stringify(s, null, 2));
    const m = s.manifest;
    this.log(`${s.name}@${s.version}${s.active ? ' (in use)' : ''}\n  ${m.description}`);
    this.log(`  author: ${m.author}\n  category: ${m.category}\n  tags: ${(m.tags ?? []).join(', ')}\n  dependencies: ${(m.dependencies ?? []).join(', ') || 'none'}`);
    if (m.vbr_entities?.length) this.log(`  entities: ${m.vbr_entities.map((e) => e.name).join(', ')}`);
    this.log(`  folder: ${displayPath(s.dir)}\n  from: ${s.resolved}\n  integrity: ${s.integrity}`);
  }
}

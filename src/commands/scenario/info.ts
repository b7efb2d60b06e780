import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { displayPath } from '../../config/index.js';
import { localScenario, scenarioHome } from '../../scenario/index.js';

export default class ScenarioInfo extends MockCommand {
  static summary = 'Show an installed scenario: its scenario.yaml, where it came from and its integrity.';

  static examples = ['<%= config.bin %> <%= command.id %> mock-scenario-ecommerce', '<%= config.bin %> <%= command.id %> mock-scenario-ecommerce --json'];

  static args = { name: Args.string({ description: 'The scenario name.', required: true }) };

  static flags = {
    config: Flags.string({ char: 'c', description: "The project's mock.yaml (its folder holds .mock/scenarios)", helpValue: '<path>' }),
    json: Flags.boolean({ description: 'Print it as JSON.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioInfo);
    const s = localScenario(scenarioHome(process.cwd(), flags.config), args.name);
    if (flags.json) return this.log(JSON.stringify(s, null, 2));
    const m = s.manifest;
    this.log(`${s.name}@${s.version}${s.active ? ' (in use)' : ''}\n  ${m.description}`);
    this.log(`  author: ${m.author}\n  category: ${m.category}\n  tags: ${(m.tags ?? []).join(', ')}\n  dependencies: ${(m.dependencies ?? []).join(', ') || 'none'}`);
    if (m.vbr_entities?.length) this.log(`  entities: ${m.vbr_entities.map((e) => e.name).join(', ')}`);
    this.log(`  folder: ${displayPath(s.dir)}\n  from: ${s.resolved}\n  integrity: ${s.integrity}`);
  }
}

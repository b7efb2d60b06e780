import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { registryOf, registryOptions, scenarioHome, searchRegistry } from '../../scenario/index.js';

export default class ScenarioSearch extends MockCommand {
  static summary = 'Search the npm registry for scenario packages (keyword mock-scenario) by words, category and tags.';

  static description =
    "Asks the registry's /-/v1/search (the public registry, a company's, a Verdaccio: whatever .npmrc or --registry names) for packages with the mock-scenario keyword, keeping those of --category and carrying every --tag.";

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> shop --category ecommerce --tag orders',
    '<%= config.bin %> <%= command.id %> --registry http://localhost:4873 --json',
  ];

  static args = { text: Args.string({ description: 'Words to search for.' }) };

  static flags = {
    category: Flags.string({ description: 'Only scenarios of this category.', helpValue: '<category>' }),
    tag: Flags.string({ description: 'Only scenarios with this tag (repeatable: all of them).', multiple: true, helpValue: '<tag>' }),
    registry: Flags.string({
      description: 'npm registry URL [default: scenarios.registry of mock.yaml or MOCK_SCENARIO_REGISTRY, else registry= of .npmrc, else the public registry]',
      helpValue: '<url>',
    }),
    json: Flags.boolean({ description: 'Print the results as JSON.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioSearch);
    const npm = registryOptions(scenarioHome().project, registryOf(flags.registry));
    const found = await searchRegistry(npm, { text: args.text, category: flags.category, tags: flags.tag });
    if (flags.json) return this.log(JSON.stringify(found, null, 2));
    if (found.length === 0) return this.log(`no scenario found on ${String(npm.registry)}`);
    for (const s of found) this.log(`${s.name}@${s.version}  ${s.category ?? '-'}  [${s.tags.join(', ')}]  ${s.description}`);
  }
}

import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { publishScenario, registryOf, registryOptions, scenarioHome } from '../../scenario/index.js';

export default class ScenarioPublish extends MockCommand {
  static summary = 'Publish a scenario folder to the npm registry with your .npmrc credentials.';

  static description = [
    'Validates the folder, writes package.json from scenario.yaml in a copy (the mock-scenario keyword, category:<category>, the tags, and',
    'mockScenario {category, tags, dependencies, entities}), packs it as npm does and publishes it with libnpmpublish to the registry of .npmrc',
    '(--registry overrides), authenticated by the token .npmrc holds for it (npm login writes one). Dot files (.npmrc, .git) are never packed.',
  ].join(' ');

  static examples = ['<%= config.bin %> <%= command.id %> ./my-scenario', '<%= config.bin %> <%= command.id %> . --registry http://localhost:4873 --tag next'];

  static args = { dir: Args.string({ description: 'The scenario folder.', default: '.' }) };

  static flags = {
    registry: Flags.string({
      description: 'npm registry URL [default: scenarios.registry of mock.yaml or MOCK_SCENARIO_REGISTRY, else registry= of .npmrc, else the public registry]',
      helpValue: '<url>',
    }),
    tag: Flags.string({ description: 'The dist-tag to publish under.', default: 'latest' }),
    access: Flags.string({ description: 'Access of a scoped package.', options: ['public', 'restricted'], default: 'public' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioPublish);
    const dir = path.resolve(args.dir);
    const npm = registryOptions(scenarioHome().project, registryOf(flags.registry));
    const published = await publishScenario(dir, npm, { tag: flags.tag, access: flags.access as 'public' | 'restricted' });
    this.log(`published ${published.name}@${published.version} to ${String(npm.registry)}`);
  }
}

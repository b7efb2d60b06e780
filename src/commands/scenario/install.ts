import { Args, Flags } from '@oclif/core';
import { MockError } from '../../../common/errors.js';
import { progressLine } from '../../cli/build-progress.js';
import { MockCommand } from '../../cli/mock-command.js';
import { displayPath } from '../../config/index.js';
import { installScenario, registryOf } from '../../scenario/index.js';

export default class ScenarioInstall extends MockCommand {
  static summary = 'Install a scenario package (and its dependencies) into this project: .mock/scenarios/<name>/.';

  static description = [
    'The source is a folder, a .tgz file or an https URL of one, a Git reference (git+https://host/repo.git#v1.2.0, git+file:///path/repo#semver:^1),',
    'or a package on the npm registry of .npmrc (--registry overrides): a name or name@range. Everything is fetched, unpacked and validated in a',
    'staging folder and moved into place only when all of it (dependencies included) succeeded; .mock/scenarios/scenarios-lock.json records each',
    "one's version, source and integrity. Archives with links, devices, absolute or .. paths, or past the size caps are refused (docs/scenarios.md).",
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> ./scenarios/ecommerce',
    '<%= config.bin %> <%= command.id %> mock-scenario-ecommerce@^1',
    '<%= config.bin %> <%= command.id %> https://example.com/shop-1.2.0.tgz --checksum sha256:9f86d081884c7d65…',
    '<%= config.bin %> <%= command.id %> git+https://github.com/acme/shop-scenario.git#v1.2.0 --force',
  ];

  static args = { source: Args.string({ description: 'A folder, .tgz file or URL, Git reference, registry name or name@range.', required: true }) };

  static flags = {
    force: Flags.boolean({ description: 'Replace a scenario of the same name that is installed already.' }),
    'skip-validation': Flags.boolean({ description: 'Install without checking the format (scenario.yaml still needs its name and version).' }),
    checksum: Flags.string({ description: 'The sha256 the archive must have, checked before anything is unpacked.', helpValue: 'sha256:<hex>' }),
    registry: Flags.string({
      description: 'npm registry URL [default: scenarios.registry of mock.yaml or MOCK_SCENARIO_REGISTRY, else registry= of .npmrc, else the public registry]',
      helpValue: '<url>',
    }),
    config: Flags.string({ char: 'c', description: "The project's mock.yaml (its folder holds .mock/scenarios)", helpValue: '<path>' }),
    json: Flags.boolean({ description: 'Print what was installed as JSON.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScenarioInstall);
    if (flags.checksum !== undefined && !/^(sha256:)?[0-9a-fA-F]{64}$/.test(flags.checksum)) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `--checksum ${flags.checksum}: not a sha256; write sha256: and 64 hex digits (sha256sum prints them)`);
    }
    // on a terminal, what is being fetched (a registry or a clone can take a while); nothing when piped
    const progress = flags.json ? undefined : progressLine(process.stderr, 'mock scenario install');
    const installed = await installScenario(args.source, {
      onFetch: (source) => progress?.report(`fetching ${source}`),
      force: flags.force,
      skipValidation: flags['skip-validation'],
      checksum: flags.checksum,
      registry: registryOf(flags.registry, process.cwd(), flags.config),
      configPath: flags.config,
    }).finally(() => progress?.done());
    if (flags.json) return this.log(JSON.stringify(installed, null, 2));
    for (const scenario of installed) this.log(`installed ${scenario.name}@${scenario.version} in ${displayPath(scenario.dir)}${scenario.dependency ? ' (a dependency)' : ''}`);
    this.log(`mock scenario use ${installed[0].name} makes mock serve serve it`);
  }
}

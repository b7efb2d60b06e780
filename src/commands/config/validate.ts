import { Flags } from '@oclif/core';
import { allowRefFlag, allowedRefs } from '../../cli/allow-ref.js';
import { checkConfigFile, formatReport } from '../../cli/config-report.js';
import { MockCommand } from '../../cli/mock-command.js';

export default class ConfigValidate extends MockCommand {
  static summary = 'Check a config file, count its endpoints and chains, and report deprecated options (--check-deprecated).';

  static description = [
    'Check a config file: it exists, its YAML parses (errors give line and column), it matches the schema, and its API descriptions load.',
    'Prints the HTTP endpoints (description operations plus custom routes) and chains (state machine transitions plus custom routes with match conditions),',
    'warns about missing sections and deprecated keys. MOCK_* variables are not applied (see mock config show).',
    'Exit 0 when the file is valid, 1 otherwise.',
  ].join(' ');

  // `validate-config --check-deprecated` is the spelling of the spec's versioning section.
  static hiddenAliases = ['validate-config'];

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> -c mocks/mock.yaml',
    '<%= config.bin %> <%= command.id %> --check-deprecated',
    '<%= config.bin %> <%= command.id %> --json',
  ];

  static flags = {
    config: Flags.string({
      char: 'c',
      description: 'Config file [default: MOCK_CONFIG_FILE, else mock.yaml, mock.yml, .mock.yaml or .mock.yml in this or a parent directory]',
      helpValue: '<path>',
    }),
    'check-deprecated': Flags.boolean({ description: 'List every deprecated option in use, its line and its replacement.' }),
    json: Flags.boolean({ description: 'Print the report as JSON.' }),
    ...allowRefFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ConfigValidate);
    const report = await checkConfigFile({ configPath: flags.config, allowRefs: allowedRefs(flags['allow-ref']) });
    if (flags.json) this.log(JSON.stringify(report, null, 2));
    else process.stdout.write(formatReport(report, flags['check-deprecated']));
  }
}

import { Flags } from '@oclif/core';
import { isMockError, MockError } from '../../../common/errors.js';
import { allowRefFlag, allowedRefs } from '../../cli/allow-ref.js';
import { buildFlags } from '../../cli/config-flags.js';
import { MockCommand } from '../../cli/mock-command.js';
import { loadConfig } from '../../config/index.js';

export default class ContractDiffCompare extends MockCommand {
  static summary = 'Compare two versions of an API description and classify each change as breaking, possibly breaking or safe.';

  static description = [
    'Reads both descriptions as mock build does (OpenAPI 3.x and Swagger 2.0 with external $refs bundled; GraphQL SDL or introspection JSON; .proto files or a folder of them) and reports each change with a stable check id (docs/contract-diff.md and docs/contract-diff-graphql-proto.md list them):',
    'error (breaking), warning (possibly breaking) or info (safe). $refs are followed, so an inline schema that becomes a $ref (or back) is no change; a renamed path parameter is the same operation.',
    'contract_diff.severities of mock.yaml (check id: error|warning|info) changes the severity a check reports with.',
    'Exit codes: 0 when no change reaches --fail-on (always 0 without it); 1 when a change of the --fail-on severity or worse exists; 2 when an input cannot be read or compared (one line on stderr).',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> --old-spec api-v1.yaml --new-spec api-v2.yaml',
    '<%= config.bin %> <%= command.id %> --old-spec main/openapi.yaml --new-spec openapi.yaml --fail-on error',
    '<%= config.bin %> <%= command.id %> --old-spec old.json --new-spec new.json --format markdown > api-changes.md',
    '<%= config.bin %> <%= command.id %> -c mock.yaml --old-spec v1.yaml --new-spec v2.yaml --fail-on warning',
    '<%= config.bin %> <%= command.id %> --old-spec schema-v1.graphql --new-spec schema.graphql --fail-on error',
    '<%= config.bin %> <%= command.id %> --old-spec ../main/proto --new-spec proto --format markdown',
  ];

  static flags = {
    'old-spec': Flags.string({
      description: 'The description before the change: OpenAPI 3.x or Swagger 2.0 (.yaml, .yml, .json), a GraphQL schema (.graphql, .gql, .graphqls, introspection .json), or .proto files (a file or a folder)',
      helpValue: '<path>',
      required: true,
    }),
    'new-spec': Flags.string({ description: 'The description after the change, of the same kind', helpValue: '<path>', required: true }),
    format: Flags.string({ description: 'Output: text for a terminal, json for tools, markdown for a pull-request comment', options: ['text', 'json', 'markdown'], default: 'text' }),
    'fail-on': Flags.string({ description: 'Exit 1 when a change of this severity or worse exists: error (breaking) or warning (possibly breaking too)', options: ['error', 'warning'] }),
    config: buildFlags.config,
    ...allowRefFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ContractDiffCompare);
    const { compareDescriptions, failsOn, formatReport } = await import('../../drift/compare/index.js');
    let result;
    try {
      const { severities } = loadConfig({ configPath: flags.config }).config.contract_diff ?? {};
      result = await compareDescriptions(flags['old-spec'], flags['new-spec'], { allowRefs: allowedRefs(flags['allow-ref']), severities });
    } catch (e) {
      // exit 2, not 1: CI tells an input it cannot read from a breaking change
      throw isMockError(e) ? new MockError(e.code, e.message, 2) : e;
    }
    const report = { oldSpec: flags['old-spec'], newSpec: flags['new-spec'], kind: result.kind, changes: result.changes };
    process.stdout.write(formatReport(report, flags.format as 'text' | 'json' | 'markdown'));
    if (flags['fail-on'] !== undefined && failsOn(result.changes, flags['fail-on'] as 'error' | 'warning')) this.exit(1);
  }
}

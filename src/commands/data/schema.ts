import { Flags } from '@oclif/core';
import { allowRefFlag, allowedRefs } from '../../cli/allow-ref.js';
import { MockCommand } from '../../cli/mock-command.js';
import { commonDataFlags } from '../../data/flags.js';

export default class DataSchema extends MockCommand {
  static summary = 'Generate synthetic data from a JSON Schema file, or from one schema of an API description.';

  static description = `--schema reads a standalone JSON Schema (JSON or YAML; $ref within the file, e.g. #/definitions/Name or #/$defs/Name); --definition then picks one of its definitions/$defs entries instead of the root. --spec with --definition picks a components/schemas entry (Swagger 2.0: definitions) of an API description. Schemas are lowered as the compiler lowers a description's schemas and generated with the generators \`mock serve\` uses.

json/yaml: --count 1 prints one value, more print an array of values.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> --schema user.schema.json --count 10',
    '<%= config.bin %> <%= command.id %> --schema schemas.yaml --definition Address --format csv --output addresses.csv',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --definition Pet --count 5 --seed 42',
  ];

  static flags = {
    schema: Flags.string({ description: 'JSON Schema file (JSON or YAML)', helpValue: '<file>', exclusive: ['spec'] }),
    spec: Flags.string({ description: 'API description (OpenAPI 3.x or Swagger 2.0) whose components/schemas entry --definition names', helpValue: '<path|url>', dependsOn: ['definition'] }),
    definition: Flags.string({ description: 'Name of the schema to generate: a components/schemas entry of --spec, or a definitions/$defs entry of --schema', helpValue: '<Name>' }),
    mode: Flags.option({ description: 'response leaves writeOnly properties out, request leaves readOnly ones out', options: ['response', 'request'] as const, default: 'response' })(),
    ...allowRefFlag,
    ...commonDataFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DataSchema);
    const { resolveDataOptions } = await import('../../data/options.js');
    const options = resolveDataOptions(flags);
    const { schemaSource } = await import('../../data/schema-file.js');
    const { writeValues } = await import('../../data/values.js');
    const source = await schemaSource({ schema: flags.schema, spec: flags.spec, definition: flags.definition, mode: flags.mode, allowRefs: allowedRefs(flags['allow-ref']) }, process.cwd());
    await writeValues(source, options);
  }
}

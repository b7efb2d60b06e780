import { Flags } from '@oclif/core';
import { allowRefFlag, allowedRefs } from '../../cli/allow-ref.js';
import { MockCommand } from '../../cli/mock-command.js';
import { commonDataFlags } from '../../data/flags.js';

export default class DataOpenApi extends MockCommand {
  static summary = "Generate synthetic data for an operation's response (or request) body with the server's own generators.";

  static description = `Finds the operation by --endpoint (the path as written in the description, as mounted under its servers URL, or a concrete path such as /v1/pets/7) and --method, takes the response the server answers by default (first 2xx, else 3xx, else default; --status picks another) and its application/json media type (else the first JSON one, else the first; --media-type picks another), and makes --count values with the generators \`mock serve\` compiles for that schema.

Each value is one whole body, exactly what one request with \`Prefer: dynamic=true\` would get: for an array response, each value is a whole array. A server started with the same --seed answers that operation with the same bodies in the same order (the clock aside: see --now). Documented examples are not used, except when the media type has no schema. --mode request makes request bodies instead (readOnly properties left out).

json/yaml: --count 1 prints one value, more print an array of values.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec api.yaml --endpoint /pets --method get --count 100',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --endpoint /pets/{petId} --status 404 --format yaml',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --endpoint /pets --method post --mode request --count 10 --format csv --output pets.csv',
    'MOCK_SEED=42 <%= config.bin %> <%= command.id %> --spec api.yaml --endpoint /v1/pets --count 3',
  ];

  static flags = {
    spec: Flags.string({ description: 'API description (OpenAPI 3.x or Swagger 2.0, JSON or YAML) as a file or URL', helpValue: '<path|url>', required: true }),
    endpoint: Flags.string({ description: 'Path of the operation: as written in the description (/pets/{petId}), as mounted (/v1/pets/{petId}), or concrete (/v1/pets/7)', helpValue: '<path>', required: true }),
    method: Flags.string({ description: 'HTTP method, any case [default: the only operation of the path, else GET]', helpValue: '<method>' }),
    status: Flags.string({ description: 'Response status as documented (200, 2XX, default) [default: first 2xx, else 3xx, else default, as the server]', helpValue: '<code>' }),
    'media-type': Flags.string({ description: 'Media type of the body [default: application/json, else the first JSON one, else the first]', helpValue: '<type>' }),
    mode: Flags.option({ description: 'Generate response bodies or request bodies', options: ['response', 'request'] as const, default: 'response' })(),
    ...allowRefFlag,
    ...commonDataFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DataOpenApi);
    const { resolveDataOptions } = await import('../../data/options.js');
    const options = resolveDataOptions(flags);
    // Loaded on use, so that --help does not load the compiler.
    const { openApiSource } = await import('../../data/open-api.js');
    const { writeValues } = await import('../../data/values.js');
    const source = await openApiSource(
      { spec: flags.spec, endpoint: flags.endpoint, method: flags.method, status: flags.status, mediaType: flags['media-type'], mode: flags.mode, allowRefs: allowedRefs(flags['allow-ref']) },
      process.cwd(),
    );
    await writeValues(source, options);
  }
}

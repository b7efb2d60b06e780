import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { MockError } from '../../common/errors.js';
import { allowRefFlag, allowedRefs } from '../cli/allow-ref.js';
import { MockCommand } from '../cli/mock-command.js';
import { displayPath, loadConfig } from '../config/index.js';
import { devSetup, FRAMEWORKS, isFramework } from '../dev-setup/index.js';

export default class DevSetup extends MockCommand {
  static summary = 'Write a typed API client of a description into a frontend project (react, vue, angular, svelte), aimed at the running mock.';

  static description = [
    'Generates, with @hey-api/openapi-ts, the types, the SDK and (react, vue, svelte) the TanStack Query options and keys of an OpenAPI 3.x or Swagger 2.0',
    'description, or (angular) an injectable service over HttpClient, into <dir>/src/api (--output), with its base URL set to the mock:',
    '--base-url, else http://localhost:<server.http_port of mock.yaml>, plus the base path of the description.',
    'Prints the dev-server proxy that forwards the API to the mock (Vite for react, vue and svelte; proxy.conf.json for the Angular CLI).',
    'A file that exists with other content is never overwritten without --force: the command names it and writes nothing. See docs/dev-setup.md.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> react --spec api.yaml',
    '<%= config.bin %> <%= command.id %> vue --spec api.yaml --dir ../web --base-url http://localhost:8080',
    '<%= config.bin %> <%= command.id %> angular --spec api.yaml --output src/app/api',
    '<%= config.bin %> <%= command.id %> svelte --spec api.yaml --force',
  ];

  static args = {
    framework: Args.string({ description: `The frontend framework: ${FRAMEWORKS.join(', ')}`, required: true }),
  };

  static flags = {
    spec: Flags.string({ description: 'API description (OpenAPI 3.x or Swagger 2.0, file or URL) [default: the first of specs in mock.yaml]', helpValue: '<file|url>' }),
    dir: Flags.string({ description: 'The frontend project folder [default: the current folder]', helpValue: '<dir>' }),
    output: Flags.string({ description: 'Folder of the client, relative to --dir', helpValue: '<dir>', default: 'src/api' }),
    'base-url': Flags.string({ description: 'Where the mock answers, scheme, host and port [default: http://localhost:<server.http_port of mock.yaml, 3000>]', helpValue: '<url>' }),
    force: Flags.boolean({ description: 'Overwrite files of the client folder that hold other content' }),
    config: Flags.string({
      char: 'c',
      description: 'Config file, for specs and server.http_port [default: mock.yaml, mock.yml, .mock.yaml or .mock.yml in this or a parent directory]',
      helpValue: '<path>',
    }),
    ...allowRefFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(DevSetup);
    const framework = args.framework.toLowerCase();
    if (!isFramework(framework)) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `mock dev-setup: unknown framework "${args.framework}": give one of ${FRAMEWORKS.join(', ')}, e.g. mock dev-setup react --spec api.yaml`);
    }
    const { config } = loadConfig({ configPath: flags.config });
    const first = config.specs[0];
    const spec = flags.spec ?? (typeof first === 'string' ? first : first?.path);
    if (spec === undefined) throw new MockError('MOCK_ERR_NO_SPEC', 'mock dev-setup: no API description: pass --spec api.yaml (or list one under specs in mock.yaml)');
    const origin = flags['base-url'] ?? `http://localhost:${config.server.http_port}`;
    if (!/^https?:\/\/[^/?#]+\/?$/.test(origin)) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `mock dev-setup: --base-url ${origin} is not a scheme, host and port such as http://localhost:3000`);
    }
    if (/\.(graphqls?|gql|proto)$/i.test(spec)) {
      throw new MockError(
        'MOCK_ERR_SPEC_INVALID',
        `${spec}: mock dev-setup writes clients of OpenAPI 3.x and Swagger 2.0 descriptions, not of GraphQL schemas or .proto files (docs/dev-setup.md says what to use for those)`,
      );
    }
    const dir = path.resolve(flags.dir ?? '.');
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `mock dev-setup: --dir ${flags.dir} is not a folder: give the folder of the frontend project`);
    }
    const result = await devSetup({ framework, spec, dir, output: flags.output, origin, force: flags.force, allowRefs: allowedRefs(flags['allow-ref']), shown: (file) => displayPath(file) });

    const lines = [
      `wrote ${result.written.length} ${result.written.length === 1 ? 'file' : 'files'} of the ${framework} client to ${displayPath(result.folder)}` +
        (result.unchanged.length > 0 ? ` (${result.unchanged.length} unchanged)` : ''),
      `base URL: ${result.baseUrl} (the running mock; another with --base-url)`,
      `use: ${result.usage}`,
      `the generated code imports: ${result.packages.join(', ')} (npm install them in the project)`,
      '',
      `dev-server proxy to the mock, ${result.proxy}`,
    ];
    this.log(lines.join('\n'));
    if (result.warnings.length > 0) {
      const shown = result.warnings.slice(0, 3).map((warning) => `mock dev-setup: note: the generator: ${warning}`);
      const more = result.warnings.length > 3 ? [`mock dev-setup: note: and ${result.warnings.length - 3} more warnings of the generator`] : [];
      process.stderr.write(`${[...shown, ...more].join('\n')}\n`);
    }
  }
}

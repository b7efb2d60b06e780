import path from 'node:path';
import { Flags } from '@oclif/core';
import { allowRefFlag, allowedRefs } from '../cli/allow-ref.js';
import { toBuildOptions } from '../cli/build-options.js';
import { buildFlags, flagSettings } from '../cli/config-flags.js';
import { progressLine } from '../cli/build-progress.js';
import { MockCommand } from '../cli/mock-command.js';
import { displayPath, loadConfig } from '../config/index.js';

export default class Build extends MockCommand {
  static description =
    'Compile API descriptions and the routes of mock.yaml into a generated mock (router, validators, responders) under <out>/<name>/, check a GraphQL schema (--graphql-schema, graphql.schema) into <out>/<name>/schema.graphql, and compile the .proto files of proto/ (--proto-dir, grpc.proto_dir) into <out>/<name>/grpc.json.';

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec api.yaml',
    '<%= config.bin %> <%= command.id %> --spec https://example.com/openapi.json --name example --out mocks',
    '<%= config.bin %> <%= command.id %> --check',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --allow-ref ../shared-schemas --allow-ref https://schemas.example.com/v1/',
    '<%= config.bin %> <%= command.id %> --graphql-schema schema.graphql',
    "<%= config.bin %> <%= command.id %> --spec api.yaml --graphql-schema 'graphql/*.graphql' --graphql-schema introspection.json",
  ];

  static flags = {
    ...buildFlags,
    ...allowRefFlag,
    check: Flags.boolean({ description: 'Write nothing; exit 1 naming every generated file that is missing or out of date.' }),
    json: Flags.boolean({ description: 'Print the result as JSON.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Build);
    const options = toBuildOptions(loadConfig({ configPath: flags.config, flags: flagSettings(flags) }), allowedRefs(flags['allow-ref']));
    // Loaded on use, so that --help does not load the compiler's dependencies.
    const compiler = await import('../../compiler/index.js');

    if (flags.check) {
      const result = await compiler.checkBuild(options);
      if (flags.json) this.log(JSON.stringify(result, null, 2));
      else if (result.stale.length === 0) this.log(`mock: ${displayPath(result.dir)} is up to date`);
      else for (const file of result.stale) this.logToStderr(`${displayPath(path.join(result.dir, file))} is stale: run mock build`);
      if (result.stale.length > 0) this.exit(1);
      return;
    }

    const progress = flags.json ? undefined : progressLine(process.stderr, 'mock build');
    const result = await compiler.build({ ...options, progress: progress?.report }).finally(() => progress?.done());
    for (const warning of result.warnings) this.logToStderr(`mock: warning: ${warning}`);
    if (flags.json) {
      this.log(JSON.stringify(result, null, 2));
      return;
    }
    const counts = `${result.written.length} written, ${result.unchanged.length} unchanged`;
    this.log(`mock: built ${result.name} in ${displayPath(result.dir)} (${counts})`);
    for (const file of result.written) this.log(`  wrote ${displayPath(path.join(result.dir, file))}`);
  }
}

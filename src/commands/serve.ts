import { Flags } from '@oclif/core';
import { allowRefFlag, allowedRefs } from '../cli/allow-ref.js';
import { buildFlags, flagSettings, serveFlags } from '../cli/config-flags.js';
import { MockCommand } from '../cli/mock-command.js';
import { startServing } from '../cli/start-serving.js';
import { startLines } from '../cli/start-lines.js';
import { keepServing } from '../cli/keep-serving.js';
import { untilSignal } from '../cli/until-signal.js';
import { sizeYoungGeneration } from '../cli/young-generation.js';
import { formatConfig, loadConfig } from '../config/index.js';
import { closeLogger, createLogger } from '../logging/index.js';
import { loggingOptions } from '../cli/project-paths.js';
import { workerCount } from '../cli/workers/count.js';
import { serveWithWorkers } from '../cli/workers/primary.js';

export default class Serve extends MockCommand {
  static description =
    'Serve mocks of API descriptions over HTTP, rebuilding the generated mock first when it is out of date, WebSocket mocks when asked (--ws-port, or websocket in mock.yaml: replay scripts, routes, echo), a GraphQL mock of a schema (--graphql-schema, or graphql.schema in mock.yaml), and a gRPC mock of the .proto files in proto/ (--proto-dir, --grpc-port); a schema or .proto files alone serve without the HTTP mock. Runs until interrupted (SIGINT/SIGTERM).';

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec api.yaml',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --http-port 8080 --validation warn',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --workers auto',
    '<%= config.bin %> <%= command.id %> -c mock.yaml --validation enforce --validation-status 422',
    'MOCK_HTTP_PORT=8080 <%= config.bin %> <%= command.id %> --print-config',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --admin --metrics',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --admin-embed --admin-mount-path /ops',
    'MOCK_ADMIN_AUTH_ENABLED=true JWT_SECRET=$(openssl rand -hex 32) <%= config.bin %> <%= command.id %> --spec api.yaml --admin --admin-host 0.0.0.0',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --latency-enabled --chaos-latency-range 10-500',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --seed 42 --now 2025-06-01T00:00:00Z',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --no-security',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --record --proxy-target https://api.example.com',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --replay',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --recorder --recorder-db recordings.db',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --ws-port 3001',
    'MOCK_WS_REPLAY_FILE=session.jsonl <%= config.bin %> <%= command.id %> --spec api.yaml --ws-port 3001',
    '<%= config.bin %> <%= command.id %> --graphql-schema schema.graphql',
    "<%= config.bin %> <%= command.id %> --spec api.yaml --graphql-schema 'graphql/**/*.graphql' --graphql-port 4000 --seed 42",
    '<%= config.bin %> <%= command.id %> --proto-dir protos --grpc-port 50051',
    'MOCK_AI_ENDPOINT=http://localhost:11434/v1 MOCK_AI_MODEL=llama3.2 <%= config.bin %> <%= command.id %> -c mock.yaml --ai-enabled --rag-provider fixtures',
  ];

  static flags = {
    ...buildFlags,
    ...allowRefFlag,
    ...serveFlags,
    'print-config': Flags.boolean({ description: 'Print the effective configuration, with where each value came from, and exit.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const resolved = loadConfig({ configPath: flags.config, flags: flagSettings(flags) });
    if (flags['print-config']) {
      process.stdout.write(formatConfig(resolved));
      return;
    }

    const workers = workerCount(resolved);
    if (workers > 1) {
      const logger = createLogger(loggingOptions(resolved));
      try {
        await serveWithWorkers(resolved, { count: workers, allowRefs: allowedRefs(flags['allow-ref']), logger, say: (line) => this.log(line) });
      } finally {
        await closeLogger(logger);
      }
      process.exit(0);
    }

    const { running, logger, close } = await startServing(resolved, { allowRefs: allowedRefs(flags['allow-ref']), say: (line) => this.log(line) });
    keepServing(logger);
    const { httpUrl } = await import('../../runtime/index.js');
    const uncap = sizeYoungGeneration(running);
    // one write, so that whoever reads the output sees every address at once
    this.log(startLines(running, resolved, httpUrl).join('\n'));

    const signal = await untilSignal();
    logger.info({ signal }, `shutting down (${signal})`);
    uncap();
    await close();
    // uWS has no way to close open keep-alive connections, which would hold the process until they idle out
    process.exit(0);
  }
}

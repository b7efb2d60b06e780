import { Flags } from '@oclif/core';
import { logFileFlag } from '../cli/config-flags.js';
import { serversTls } from '../cli/tls/index.js';
import { MockCommand } from '../cli/mock-command.js';
import { untilSignal } from '../cli/until-signal.js';
import { loggingOptions } from '../cli/project-paths.js';
import { accessOptions, authOptions, redactionOptions, serverHttpVersion } from '../cli/serve-options.js';
import { ENV_VARIABLES, loadConfig } from '../config/index.js';
import { closeLogger, createLogger } from '../logging/index.js';

export default class Admin extends MockCommand {
  static summary = 'Run the admin server alone (no mock servers): the admin page and REST API under /__mock/.';

  static description = [
    'Useful to manage files (files/content, files/save), runtime users and settings without serving mocks. To watch and steer running mocks, start them with `mock serve --admin` (own port) or `mock serve --admin-embed` (inside the HTTP server) instead.',
    'Reads admin.* of mock.yaml and the MOCK_ADMIN_*, JWT_SECRET, MOCK_MANAGEMENT_TOKEN variables like `mock serve`. Listens on 127.0.0.1 unless --host (admin.bind) says otherwise; docs/admin.md "Security" says what to turn on before exposing it.',
  ].join('\n');

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --port 9180',
    'MOCK_ADMIN_AUTH_ENABLED=true JWT_SECRET=$(openssl rand -hex 32) <%= config.bin %> <%= command.id %> --host 0.0.0.0',
  ];

  static flags = {
    port: Flags.integer({ description: 'Admin server port (0 picks a free one) [default: admin.port, 9080]', min: 0, max: 65535, helpValue: '<port>' }),
    host: Flags.string({ description: 'Address to listen on; 0.0.0.0 exposes it to the network [default: admin.bind, 127.0.0.1]', helpValue: '<address>' }),
    config: Flags.string({ char: 'c', description: 'Config file [default: mock.yaml and friends in this or a parent directory]', helpValue: '<path>' }),
    ...logFileFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Admin);
    const settings = [
      ...(flags.port === undefined ? [] : [{ flag: 'port', key: 'admin.port', value: flags.port }]),
      ...(flags.host === undefined ? [] : [{ flag: 'host', key: 'admin.bind', value: flags.host }]),
      ...(flags['log-file'] === undefined ? [] : [{ flag: 'log-file', key: 'logging.file', value: flags['log-file'] }]),
    ];
    const resolved = loadConfig({ configPath: flags.config, flags: settings });
    const { config } = resolved;
    const logger = createLogger(loggingOptions(resolved));
    const [{ startAdminOnly }, { TOOL_VERSION }] = await Promise.all([import('../../runtime/index.js'), import('../../common/version.js')]);
    const { admin: tls } = await serversTls(resolved, (line) => this.log(line));
    const running = await startAdminOnly({
      tls,
      httpVersion: serverHttpVersion(config, 'admin', tls !== undefined),
      host: config.admin.bind,
      port: config.admin.port,
      api: !config.admin.disable_api,
      logger,
      auth: authOptions(config, logger),
      envVariables: ENV_VARIABLES.map((v) => v.name),
      projectDir: resolved.projectDir,
      version: TOOL_VERSION,
      access: accessOptions(config),
      redaction: redactionOptions(config),
      configFile: resolved.file?.file,
      generatedDir: config.build.out_dir,
      limits: config.admin.limits,
    });
    this.log(`mock: admin on ${running.url} (API under /__mock/)`);
    const signal = await untilSignal();
    logger.info({ signal }, `shutting down (${signal})`);
    await running.close();
    await closeLogger(logger);
    // uWS has no way to close open keep-alive connections, which would hold the process until they idle out
    process.exit(0);
  }
}

import { buildFlags, flagSettings, serveFlags } from '../../cli/config-flags.js';
import { MockCommand } from '../../cli/mock-command.js';
import { formatConfig, loadConfig } from '../../config/index.js';

export default class ConfigShow extends MockCommand {
  static summary = 'Print the effective configuration and where each value came from (as serve --print-config).';

  static description =
    'Print the effective configuration (flags > MOCK_* environment > config file > defaults) with where each value came from; the same as mock serve --print-config, and it takes the same flags.';

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    'MOCK_HTTP_PORT=8080 <%= config.bin %> <%= command.id %> -c mock.yaml',
    '<%= config.bin %> <%= command.id %> --admin --chaos-latency-range 10-500',
  ];

  static flags = { ...buildFlags, ...serveFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(ConfigShow);
    process.stdout.write(formatConfig(loadConfig({ configPath: flags.config, flags: flagSettings(flags) })));
  }
}

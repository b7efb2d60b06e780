import { MockError } from '../../common/errors.js';
import { redactUrlCredentials } from '../../common/redacted.js';
import { MockCommand } from '../cli/mock-command.js';
import { adminFlags } from '../cli/admin-client.js';

export default class Mcp extends MockCommand {
  static summary = 'Serve the Model Context Protocol on stdio: tools for an AI agent to steer a running mock through its admin API.';

  static description = [
    'Tools: list_routes, list_mocks, create_mock, delete_mock, get_request_log, get_unmatched_requests (with the closest routes), list_chaos_profiles, apply_chaos_profile, reset_chaos, get_contract_diff_statistics.',
    "Every tool is one call of the admin API of `mock serve --admin` (or --admin-embed, whose --admin-url is the mock port), sent with --token and --management-token: it can do no more than the admin allows that token, and a refusal (401, 403) is the tool's error with the admin's message.",
    'stdout carries the protocol only; messages go to stderr. An admin that does not answer yet is a warning at start, and the error of each tool call (naming the URL and the fix) until it answers. docs/mcp.md shows how to register it with Claude Code and other agents.',
  ].join('\n');

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --admin-url http://127.0.0.1:9180',
    'claude mcp add mock -- npx mock-compiler <%= command.id %> --admin-url http://127.0.0.1:9080',
    'MOCK_ADMIN_TOKEN=<access_token of POST /__mock/auth/login> <%= config.bin %> <%= command.id %>',
  ];

  static flags = { ...adminFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp);
    checkAdminUrl(flags['admin-url']);
    const [{ runMcp }, { TOOL_VERSION }] = await Promise.all([import('../mcp/index.js'), import('../../common/version.js')]);
    await runMcp(flags, TOOL_VERSION, process.stderr);
  }
}

/** A URL fetch could never use is a mistake in the agent's config: say so at once, not at each tool call. */
function checkAdminUrl(value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new MockError(
      'MOCK_ERR_FLAG_INVALID',
      `--admin-url: ${JSON.stringify(redactUrlCredentials(value))} is not an http(s) URL; give the admin API's base URL, e.g. --admin-url http://127.0.0.1:9080`,
    );
  }
}

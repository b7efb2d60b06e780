import { MockCommand } from '../cli/mock-command.js';
import { adminFlags } from '../cli/admin-client.js';
import { MockError } from '../../common/errors.js';

export default class Tui extends MockCommand {
  static summary = 'A full-screen terminal dashboard of a running server: traffic, the live log, routes, unmatched requests, chaos profiles and fixtures.';

  static description = [
    'Reads nothing but the admin API of `mock serve --admin` (or `mock admin`) and its WebSocket stream /__mock/ws, polling GET /__mock/logs and /__mock/metrics every second where the stream is not available.',
    'Tabs: 1 Overview (requests/s, errors/s and p95 latency over time), 2 Log (live; space pauses), 3 Routes (with coverage), 4 Unmatched (each request and its closest routes), 5 Chaos (Enter applies a profile), 6 Fixtures. Tab/Shift-Tab switch tabs, arrows or j/k move, ? lists every key, q or Ctrl-C quits and gives the terminal back as it was.',
    'Tab 2: / filters the log by words (a method, a status or 5xx, a protocol: http, graphql, grpc, ws; the rest a path substring), Esc clears it.',
    'Reads need no login; applying a profile on a server with admin auth on needs --token: the access_token of `POST /__mock/auth/login {"username", "password"}`; a hosted server (admin.management_token) also needs --management-token. Needs an interactive terminal of at least 40×8.',
  ].join('\n');

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --admin-url http://127.0.0.1:9180',
    `<%= config.bin %> <%= command.id %> --token "$(curl -s -X POST http://127.0.0.1:9080/__mock/auth/login -H 'content-type: application/json' -d '{"username":"admin","password":"…"}' | jq -r .data.access_token)"`,
  ];

  static flags = { ...adminFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(Tui);
    const { runTui } = await loadTui();
    const code = await runTui(flags, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
    if (code === -1) {
      process.stderr.write('mock tui: needs an interactive terminal (stdin and stdout a TTY): run it in a terminal, not through a pipe or a file\n');
      this.exit(1);
    }
  }
}

/** ink and react are optional peers (a consumer install is smaller without them): say how to add them before anything else. */
async function loadTui(): Promise<typeof import('../tui/run.js')> {
  const missing = ['ink', 'react'].filter((name) => {
    try {
      import.meta.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    throw new MockError(
      'MOCK_ERR_TUI_NOT_INSTALLED',
      `mock tui needs the packages ink and react (not installed: ${missing.join(', ')}): npm install -g ink@5 react@18 beside a global mock-compiler, npm install ink@5 react@18 in a project that has it, or npx -p mock-compiler -p ink@5 -p react@18 mock tui`,
    );
  }
  return import('../tui/run.js');
}

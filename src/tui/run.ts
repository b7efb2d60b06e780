import type { AdminTarget } from '../cli/admin-client.js';
import { AdminApi } from './admin-api.js';
import { LiveFeed } from './feed.js';
import { LiveStore } from './store.js';
import { takeScreen } from './terminal.js';

/** Exit codes of a signal, as a shell reports them (128 + its number). */
const SIGNAL_EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * Runs the terminal dashboard until q (resolves with 0) or a signal (the process exits with 128 +
 * its number). Checks the admin API first: unreachable, or refusing the token, it throws one line
 * before the screen is touched.
 */
export async function runTui(target: AdminTarget, io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream }): Promise<number> {
  const api = new AdminApi(target);
  await api.preflight();
  if (!io.stdin.isTTY || !io.stdout.isTTY) return -1;

  // ink draws nothing but the last frame when it believes it runs in CI (is-in-ci, read once when
  // ink loads); a dashboard on a terminal is interactive wherever it runs, CI=true or not
  for (const name of Object.keys(process.env)) if (name === 'CI' || name === 'CONTINUOUS_INTEGRATION' || name.startsWith('CI_')) delete process.env[name];
  const [{ render }, React, { App }] = await Promise.all([import('ink'), import('react'), import('./app.js')]);

  const store = new LiveStore();
  const feed = new LiveFeed(api, store);
  let instance: ReturnType<typeof render> | undefined;
  const screen = takeScreen(io.stdout, (signal) => {
    instance?.unmount();
    feed.stop();
    store.close();
    screen.restore();
    process.exit(SIGNAL_EXIT[signal] ?? 1);
  });
  const crash = (error: unknown) => {
    instance?.unmount();
    screen.restore();
    io.stderr.write(`mock tui: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  // a resize clears the screen first: the old frame, cut or reflowed by the terminal, leaves nothing behind
  const resized = () => screen.clear();
  io.stdout.prependListener('resize', resized);
  try {
    void feed.start();
    instance = render(React.createElement(App, { api, store, adminUrl: api.shown }), { stdout: io.stdout, stdin: io.stdin, stderr: io.stderr, exitOnCtrlC: false, patchConsole: false });
    await instance.waitUntilExit();
  } finally {
    io.stdout.off('resize', resized);
    feed.stop();
    store.close();
    screen.restore();
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
  }
  return 0;
}

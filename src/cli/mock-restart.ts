import { setTimeout as sleep } from 'node:timers/promises';
import type { AdminClient } from './admin-client.js';

/** How often a restart's status is read while it runs (it rebuilds, which takes a second or more). */
const POLL_MS = 50;

interface RestartStatus {
  in_progress: boolean;
  reason: string | null;
  success: boolean | null;
  error: string | null;
}

/** What the HTTP mock server's control offers for a restart (runtime's ServerControl). */
interface Restartable {
  restart(reason: string | null): void;
  restartStatus(): RestartStatus;
}

/**
 * Restarts the HTTP mock of this process (HttpMockServer: rebuilds what is stale, swaps the engine
 * under the listener, no request refused) and resolves once it is done; throws its error when it
 * failed, the previous build still serving. A restart the admin API started first is waited for.
 */
export async function restartInProcess(control: Restartable, reason: string): Promise<void> {
  while (control.restartStatus().in_progress) await sleep(POLL_MS);
  control.restart(reason);
  while (control.restartStatus().in_progress) await sleep(POLL_MS);
  const { success, error } = control.restartStatus();
  if (success !== true) throw new Error(error ?? 'the restart failed (see the log of the server)');
}

/** The same through the admin API of a running mock serve (POST then GET /__mock/servers/restart[/status]; every worker with --workers). */
export async function restartThroughAdmin(client: AdminClient, reason: string): Promise<void> {
  for (;;) {
    const answer = await client.request('POST', 'servers/restart', { reason });
    if (answer.status !== 409) {
      if (answer.error !== undefined) throw new Error(`POST /__mock/servers/restart at ${client.shown}: ${answer.error}`);
      break;
    }
    await sleep(POLL_MS); // another restart runs: ours follows it
  }
  for (;;) {
    const status = await client.get<RestartStatus>('servers/restart/status');
    if (!status.in_progress && status.reason === reason) {
      if (status.success !== true) throw new Error(status.error ?? `the restart failed (see the log of the server at ${client.shown})`);
      return;
    }
    await sleep(POLL_MS * 2);
  }
}

import type { ServerControl } from '../registry/index.js';
import type { AdminContext } from './context.js';
import { AdminError } from './envelope.js';

/** What the admin API steers when no server answers from descriptions (`mock admin`). */
const NO_SERVERS: ServerControl = {
  engine: () => undefined,
  restartStatus: () => ({ in_progress: false, initiated_at: null, reason: null, success: null, completed_at: null, error: null }),
  restart: () => {
    throw new AdminError(409, 'no mock servers run in this process (start them with mock serve --admin)');
  },
  stagesOf: () => [],
  specPath: null,
  httpPort: null,
};

/** The servers the admin API steers, as the registry holds them now. */
export const serversOf = (registry: AdminContext['registry']): ServerControl => registry.control() ?? NO_SERVERS;

import { ADMIN_ROUTES, AdminError, createAdminApi, createEnvControl, type ServerControl } from '../admin/index.js';
import { createAuth, type AuthOptions } from '../auth/index.js';
import { closeNode, createNodeControlServer, listenNode } from '../http/index.js';
import { LiveState } from '../live/index.js';
import { RequestLog } from '../logging/index.js';
import { ResourceSampler, TrafficStats } from '../metrics/index.js';
import type { Logger } from 'pino';

export interface AdminOnlyOptions {
  host: string;
  port: number;
  api: boolean;
  logger: Logger;
  auth: AuthOptions;
  envVariables: readonly string[];
  projectDir: string;
  version: string;
}

/** `mock admin`: the admin server with no mock servers beside it. */
const NO_SERVERS: ServerControl = {
  servers: () => [],
  engine: () => undefined,
  restartStatus: () => ({ in_progress: false, initiated_at: null, reason: null, success: null, completed_at: null, error: null }),
  restart: () => {
    throw new AdminError(409, 'no mock servers run in this process (start them with mock serve --admin)');
  },
  specPath: null,
  httpPort: null,
};

export async function startAdminOnly(options: AdminOnlyOptions): Promise<{ port: number; close(): Promise<void> }> {
  const { logger } = options;
  const live = new LiveState();
  const sampler = new ResourceSampler();
  const api = createAdminApi(
    {
      version: options.version,
      startedAt: Date.now(),
      live,
      requestLog: new RequestLog({ logger }),
      stats: new TrafficStats({ routes: [] }),
      sampler,
      servers: NO_SERVERS,
      auth: createAuth(options.auth),
      env: createEnvControl(options.envVariables, { live, servers: NO_SERVERS, logger }),
      projectDir: options.projectDir,
      logger,
    },
    { routes: options.api ? ADMIN_ROUTES : [], apiDisabled: !options.api, pagePath: '' },
  );
  const server = createNodeControlServer(api, 16 * 1024 * 1024);
  const port = await listenNode(server, options.host, options.port, '--port');
  sampler.start();
  return {
    port,
    close: async () => {
      sampler.stop();
      await closeNode(server);
    },
  };
}

import { ADMIN_ROUTES, MANAGEMENT_ROUTES, createAdminApi, createEnvControl, type AdminContext } from '../admin/index.js';
import { createAuth, type AuthOptions } from '../auth/index.js';
import type { Server } from 'node:http';
import { closeNode, createNodeControlServer, listenNode } from '../http/index.js';
import { LiveState, type LiveStateOptions } from '../live/index.js';
import { RequestLog } from '../logging/index.js';
import { PrometheusMetrics, ResourceSampler, TrafficStats } from '../metrics/index.js';
import type { ServeOptions } from '../options.js';
import { HttpMockServer } from './http-mock-server.js';
import { metricsHandler } from './metrics-server.js';

/** Bodies the admin API accepts (files/save carries whole files). */
const ADMIN_MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface AdminServerOptions {
  /** false: embedded in the HTTP mock server (API under /__mock, page at mountPath). */
  standalone: boolean;
  port: number;
  mountPath: string;
  /** false: only the page answers (admin.disable_api). */
  api: boolean;
}

export interface MockOptions extends ServeOptions {
  /** Brings the build up to date for a restart (src/ passes the compiler's rebuild-if-stale). */
  rebuild?: () => Promise<string>;
  specPath: string | null;
  live?: LiveStateOptions;
  admin?: AdminServerOptions;
  metrics?: { port: number };
  auth: AuthOptions;
  /** MOCK_ variables the configuration reads (GET /__mock/env). */
  envVariables: readonly string[];
  /** Where files/content and files/save may read and write. */
  projectDir: string;
  version: string;
}

export interface RunningMock {
  http: HttpMockServer;
  live: LiveState;
  stats: TrafficStats;
  requestLog: RequestLog;
  /** Bound ports of the admin and metrics servers when they run on their own. */
  adminPort?: number;
  metricsPort?: number;
  close(): Promise<void>;
}

/**
 * Starts the HTTP mock server with what watches and steers it: the management router under
 * /__mock (always), the admin API (its own port, or embedded), and the Prometheus endpoint.
 */
export async function startMock(options: MockOptions): Promise<RunningMock> {
  const { logger } = options;
  const requestLog = options.requestLog ?? new RequestLog({ logger });
  const live = new LiveState(options.live);
  const prometheus = options.metrics === undefined ? undefined : new PrometheusMetrics();
  const stats = new TrafficStats({ routes: [], prometheus });
  const http = await HttpMockServer.create({ ...options, live, stats, requestLog });
  const sampler = new ResourceSampler();
  const auth = createAuth(options.auth);
  const ctx: AdminContext = {
    version: options.version,
    startedAt: Date.now(),
    live,
    requestLog,
    stats,
    sampler,
    servers: http,
    auth,
    env: createEnvControl(options.envVariables, { live, servers: http, logger }),
    projectDir: options.projectDir,
    logger,
  };
  const admin = options.admin;
  const embedded = admin !== undefined && !admin.standalone;
  if (embedded) http.setControl(createAdminApi(ctx, { routes: admin.api ? ADMIN_ROUTES : MANAGEMENT_ROUTES, apiDisabled: !admin.api, pagePath: admin.mountPath }), admin.mountPath);
  else http.setControl(createAdminApi(ctx, { routes: MANAGEMENT_ROUTES }));

  const servers: Server[] = [];
  const closeAll = async (): Promise<void> => {
    sampler.stop();
    await Promise.all(servers.splice(0).map(closeNode));
    await http.close();
  };
  try {
    await http.listen();
    let adminPort: number | undefined;
    let metricsPort: number | undefined;
    if (admin !== undefined) sampler.start();
    if (admin !== undefined && admin.standalone) {
      const server = createNodeControlServer(createAdminApi(ctx, { routes: admin.api ? ADMIN_ROUTES : [], apiDisabled: !admin.api, pagePath: '' }), ADMIN_MAX_BODY_BYTES);
      adminPort = await listenNode(server, options.host, admin.port, '--admin-port');
      servers.push(server);
    }
    if (prometheus !== undefined && options.metrics !== undefined) {
      const server = createNodeControlServer(metricsHandler(prometheus), 1024);
      metricsPort = await listenNode(server, options.host, options.metrics.port, '--metrics-port');
      servers.push(server);
    }
    return { http, live, stats, requestLog, adminPort, metricsPort, close: closeAll };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

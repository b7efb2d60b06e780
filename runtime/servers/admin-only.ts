import { ADMIN_ROUTES, AccessPolicy, BrowserToken, DEFAULT_ACCESS, LiveStream, createAdminApi, createEnvControl, editableFiles, type AccessPolicyOptions, type AdminContext } from '../control/admin/index.js';
import { createAuth, type AuthOptions } from '../control/auth/index.js';
import { createControlServer, listenNode } from './http/index.js';
import { LiveState } from '../chain/settings/index.js';
import { LogStream, Redaction, RequestLog, type RedactionOptions } from '../control/logging/index.js';
import { DEFAULT_ADMIN_LIMITS, type AdminLimits, type HttpVersion, type TlsOptions } from '../serve-options.js';
import { ResourceSampler, TrafficStats } from '../control/metrics/index.js';
import { ServerRegistry } from '../control/registry/index.js';
import type { Logger } from 'pino';
import { refuseExposedDevUsers } from './dev-users.js';
import { httpUrl, warnIfExposed, warnOfDevUsers } from './exposure.js';
import { projectWriter } from './project-writer.js';

export interface AdminOnlyOptions {
  host: string;
  port: number;
  /** admin.tls, else server.tls: https://. */
  tls?: TlsOptions;
  /** admin.http_version, else server.http_version: 2 serves HTTP/2 beside HTTP/1.1 (docs/http2.md). */
  httpVersion?: HttpVersion;
  api: boolean;
  logger: Logger;
  auth: AuthOptions;
  envVariables: readonly string[];
  projectDir: string;
  version: string;
  access?: AccessPolicyOptions;
  redaction?: RedactionOptions;
  configFile?: string;
  /** build.out_dir: never written through the API. */
  generatedDir?: string;
  /** admin.limits; default: the configuration's defaults. */
  limits?: AdminLimits;
}

export async function startAdminOnly(options: AdminOnlyOptions): Promise<{ url: string; close(): Promise<void> }> {
  const { logger } = options;
  const limits = options.limits ?? DEFAULT_ADMIN_LIMITS;
  const live = new LiveState({ limits });
  // `mock admin`: no mock servers register here
  const registry = new ServerRegistry();
  const requestLog = new RequestLog({ logger, redaction: new Redaction(options.redaction) });
  const sampler = new ResourceSampler();
  // one process, alone: its logins in a memory store of its own
  const auth = createAuth(options.auth);
  refuseExposedDevUsers(auth, options.host, 'admin.bind, --host');
  const ctx: AdminContext = {
    version: options.version,
    startedAt: Date.now(),
    live,
    requestLog,
    logStream: new LogStream(requestLog, { maxClients: limits.max_log_subscribers, logger }),
    stats: new TrafficStats({ routes: [] }),
    sampler,
    registry,
    auth,
    env: createEnvControl(options.envVariables, { live, registry, logger }),
    projectDir: options.projectDir,
    files: { ...editableFiles(options.projectDir, options.configFile ?? null, options.generatedDir ?? null), writer: projectWriter(options.projectDir, logger) },
    logger,
  };
  const access = new AccessPolicy(options.access ?? DEFAULT_ACCESS);
  const api = createAdminApi(ctx, {
    routes: options.api ? ADMIN_ROUTES : [],
    apiDisabled: !options.api,
    pagePath: '',
    access,
    token: new BrowserToken(),
    tokenSource: 'the admin page (GET /)',
  });
  const stream = options.api ? new LiveStream(ctx, access, limits.max_log_subscribers) : undefined;
  const server = createControlServer(api, 16 * 1024 * 1024, { tls: options.tls, version: options.httpVersion, socket: stream });
  const url = httpUrl(options.host, await listenNode(server.front, options.host, options.port, '--port'), options.tls !== undefined);
  if (options.api) warnIfExposed(options, 'admin', options.host, url);
  warnOfDevUsers(options, auth, url);
  sampler.start();
  return {
    url,
    close: async () => {
      sampler.stop();
      stream?.close();
      await server.close();
    },
  };
}

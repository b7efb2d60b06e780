import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { ADMIN_ROUTES, createAdminApi, createEnvControl, editableFiles, type AccessPolicy, type AdminContext, type BrowserToken } from '../control/admin/index.js';
import { LiveState } from '../chain/settings/index.js';
import { LogStream, Redaction, RequestLog } from '../control/logging/index.js';
import { ResourceSampler, TrafficStats } from '../control/metrics/index.js';
import { ServerRegistry } from '../control/registry/index.js';
import { FixtureRecorder, FixtureStore, secretsOf, sequencesBudget } from '../chain/fixtures/index.js';
import type { TenantMock, TenantMockSpec } from '../hosting/index.js';
import { HttpMockServer } from './http-mock-server.js';
import type { MockOptions } from './mock-options.js';
import { projectWriter } from './project-writer.js';

/** What every hosted mock shares with the host. */
export interface TenantHost {
  options: MockOptions;
  access: AccessPolicy;
  token: BrowserToken;
  logger: Logger;
}

/**
 * Opens a hosted mock: the host's engine and chain on the tenant's own build, live state over its
 * own stores, its own request log, statistics and fixtures, and an admin API of the endpoints a
 * tenant has. Nothing of the host's state (runtime mocks, overrides, chaos, logs, fixtures,
 * recordings) is reachable from it.
 */
export async function openTenantMock(host: TenantHost, spec: TenantMockSpec): Promise<TenantMock> {
  const { options } = host;
  const logger = host.logger.child({ tenant: spec.id });
  const requestLog = new RequestLog({ redaction: new Redaction(options.redaction) });
  const live = new LiveState({ limits: spec.limits, stores: spec.stores, clock: { pinned: options.now } });
  await live.ready;
  const stats = new TrafficStats({ routes: [] });
  live.mocks.onForget((route) => stats.forget(route));
  const registry = new ServerRegistry();
  const fixtures = tenantFixtures(options, spec, requestLog, live.clock.read, logger);
  const server = await HttpMockServer.create({
    ...options,
    logger,
    buildDir: spec.buildDir,
    specPath: spec.specPath,
    port: 0,
    rebuild: undefined,
    live,
    stats,
    requestLog,
    registry,
    sandboxAnswers: false,
    fixtureService: fixtures,
    proxyRules: spec.external ? options.proxyRules : undefined,
    ai: spec.ml ? options.ai : undefined,
    contractDiffCapture: undefined,
    tenant: spec.quota,
  });
  const ctx: AdminContext = {
    version: options.version,
    startedAt: Date.now(),
    live,
    requestLog,
    logStream: new LogStream(requestLog, { maxClients: spec.limits.max_log_subscribers, logger }),
    stats,
    sampler: new ResourceSampler(),
    registry,
    auth: spec.auth,
    env: createEnvControl([], { live, registry, logger }),
    projectDir: spec.dir,
    files: { ...editableFiles(spec.dir, null, spec.buildDir), writer: projectWriter(spec.dir, logger) },
    logger,
    fixtures: fixtures?.store,
  };
  const admin = createAdminApi(ctx, {
    routes: ADMIN_ROUTES.filter((route) => spec.isTenantEndpoint(route.path)),
    access: host.access,
    token: host.token,
    tokenSource: 'the host (a hosted mock has no admin page: send X-Mock-Management-Token from a tool)',
  });
  return {
    dispatch: server.dispatcher(),
    admin,
    live,
    close: async () => {
      await server.close();
      fixtures?.store.close();
      await fixtures?.recorder.flushed();
    },
  };
}

/** The tenant's fixture folder (`<tenant>/fixtures`) when the host serves fixtures: replay and recording start off, as a tenant turns them on. */
function tenantFixtures(options: MockOptions, spec: TenantMockSpec, requestLog: RequestLog, clock: () => number, logger: Logger) {
  if (options.fixtures === undefined) return undefined;
  const dir = path.join(spec.dir, 'fixtures');
  mkdirSync(dir, { recursive: true });
  const settings = { ...options.fixtures, dir, record: false, replay: false, watch: false };
  const store = new FixtureStore(settings, secretsOf(requestLog.redaction), logger, spec.stores.open('fixture-sequences', sequencesBudget));
  return { store, recorder: new FixtureRecorder(store, requestLog.redaction, logger, clock) };
}

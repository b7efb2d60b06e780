import type { Logger } from 'pino';
import path from 'node:path';
import { PluginHost, pluginHealthBudget } from '../plugins/index.js';
import {
  ADMIN_ROUTES,
  AccessPolicy,
  BrowserToken,
  DEFAULT_ACCESS,
  LiveStream,
  MANAGEMENT_ROUTES,
  answerQuestion,
  clusterPrometheus,
  createAdminApi,
  createEnvControl,
  editableFiles,
  type AdminContext,
  type ClusterQuestion,
} from '../control/admin/index.js';
import { createAuth } from '../control/auth/index.js';
import { createControlServer, listenNode, type ControlServer } from './http/index.js';
import { LiveState } from '../chain/settings/index.js';
import { LogStream, preciseClock, Redaction, RequestLog } from '../control/logging/index.js';
import { createPrometheusMetrics, ResourceSampler, TrafficStats, type OperationCounts, type WebSocketPathCounts } from '../control/metrics/index.js';
import { ServerRegistry } from '../control/registry/index.js';
import { RecorderDb } from '../chain/recorder/index.js';
import { DEFAULT_ADMIN_LIMITS, type HttpVersion } from '../serve-options.js';
import type { MockOptions } from './mock-options.js';
import { refuseExposedDevUsers } from './dev-users.js';
import { httpUrl, warnIfExposed, warnOfDevUsers } from './exposure.js';
import { projectWriter } from './project-writer.js';
import { SERVERS, type MockServer } from './mock-server.js';
import { metricsHandler } from './metrics-server.js';
import { FixtureRecorder, FixtureStore, secretsOf, sequencesBudget } from '../chain/fixtures/index.js';
import { StateStore, StatefulService, stateBudget } from '../chain/stateful/index.js';
import { EntityService, entityBudget } from '../chain/entities/index.js';
import { MemoryStores, type StoreFactory } from '../store/index.js';
import { CaptureLog, capturesBudget, LiveCheck, type DriftListener } from '../contract-diff/index.js';
import { DriftWebhooks } from '../drift/webhooks/index.js';
import { CallbackSender, DEFAULT_ALLOWED_HOSTS, Outbound, WebhookSender, unknownDelays, type ServedWebhooks } from '../callbacks/index.js';
import { MockError } from '../../common/errors.js';
import { Hosting, hostedSurface } from '../hosting/index.js';
import { openTenantMock } from './tenant-mock.js';

/** Bodies the admin API accepts (files/save carries whole files). */
const ADMIN_MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface RunningMock {
  /** The protocol servers, in the order of SERVERS. */
  servers: MockServer[];
  live: LiveState;
  stats: TrafficStats;
  requestLog: RequestLog;
  /** This process's answer to another worker's question (mock serve --workers: its log, its counts). */
  answer(question: ClusterQuestion): unknown;
  /** Where the admin and metrics servers listen when they run on their own (`http://127.0.0.1:9080`). */
  adminUrl?: string;
  metricsUrl?: string;
  /** The HTTP version each of those serves (admin.http_version, metrics.http_version): 2 is HTTP/2 beside HTTP/1.1. */
  adminHttpVersion?: HttpVersion;
  metricsHttpVersion?: HttpVersion;
  /** Every port a server of this run listens on, and the library that listens (mock sync hands ports over one at a time). */
  listeners(): Array<{ port: number; library: string }>;
  /** Stops the server on `port` (what it holds answered within server.shutdown_timeout_ms) so that another can bind the port; close() leaves it be. */
  release(port: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the HTTP mock server with what watches and steers it: the management router under
 * /__mock (always), the admin API (its own port, or embedded), and the Prometheus endpoint.
 */
export async function startMock(options: MockOptions): Promise<RunningMock> {
  const { logger } = options;
  const requestLog =
    options.requestLog ??
    new RequestLog({
      logger,
      redaction: new Redaction(options.redaction),
      linesPerSecond: options.requestLinesPerSecond,
      bodies: options.logBodies,
      clock: options.cluster === undefined ? undefined : preciseClock,
    });
  const registry = new ServerRegistry();
  const access = new AccessPolicy(options.access ?? DEFAULT_ACCESS, () => registry.ports());
  const token = new BrowserToken();
  const limits = options.limits ?? DEFAULT_ADMIN_LIMITS;
  // every piece of state a request or the admin changes lives in these (runtime/store)
  const stores = options.stores ?? new MemoryStores((message) => logger.warn(message));
  const live = new LiveState({ ...options.live, limits, stores, clock: { pinned: options.now, timeTravel: options.timeTravel } });
  await live.ready;
  const prometheus = options.metrics === undefined ? undefined : await createPrometheusMetrics();
  const stats = new TrafficStats({ routes: [], prometheus });
  live.mocks.onForget((route) => stats.forget(route));
  if (prometheus !== undefined) {
    live.chaos.onViolation((scope) => prometheus.rateLimitViolation(scope));
    prometheus.trackFaults(() => live.chaos.counters.snapshot().by_type);
    prometheus.trackWebSocket(() => (registry.details('WebSocket')?.paths ?? {}) as Record<string, WebSocketPathCounts>);
    prometheus.trackGraphql(() => (registry.details('GraphQL')?.operations ?? {}) as Record<string, OperationCounts>);
    prometheus.trackGrpc(() => (registry.details('gRPC')?.methods ?? {}) as Record<string, OperationCounts>);
  }
  const admin = options.admin;
  const embedded = admin !== undefined && !admin.standalone;
  // the admin API's logins live in the stores too: a session made on one instance or worker holds on every other
  const auth = createAuth(options.auth, stores);
  if (admin !== undefined) refuseExposedDevUsers(auth, embedded ? options.host : admin.host, embedded ? 'server.bind, --host' : 'admin.bind, --admin-host, MOCK_ADMIN_HOST');
  const fixtures = options.fixtures === undefined ? undefined : startFixtures(options, requestLog, live.clock.read, stores);
  // timed transitions run on the virtual clock
  const stateful = options.stateful?.enabled === true ? statefulService(options.stateful, live.clock.read, stores) : undefined;
  const entities = options.entities?.length ? new EntityService(options.entities, stores.open('scenario-entities', entityBudget())) : undefined;
  await entities?.seed();
  // opened before anything listens: a database path that cannot be used stops the start in one line
  const recorderDb = options.recorder === undefined ? undefined : await RecorderDb.open({ file: options.recorder.dbPath, redaction: requestLog.redaction, logger });
  const captures = new CaptureLog(live.stores.open('contract-diff-captures', capturesBudget));
  const capture = options.contractDiffCapture;
  const webhooks = driftWebhooks(options, logger);
  const driftListener: DriftListener | undefined = webhooks === undefined ? undefined : (report) => webhooks.notify(report);
  const liveCheck = capture === undefined ? undefined : new LiveCheck(captures, requestLog.redaction, capture.violationsHeader, logger, driftListener);
  // each installed plugin's thread loads its module now: one that cannot be loaded stops the start in one line
  let plugins: PluginHost | undefined;
  try {
    plugins = options.plugins === undefined ? undefined : new PluginHost(options.plugins, stores.open('plugin-health', pluginHealthBudget), logger);
  } catch (e) {
    await recorderDb?.close();
    throw new MockError('MOCK_ERR_PLUGIN_LOAD', (e as Error).message);
  }
  const outbound = new Outbound(options.callbacks?.settings ?? DEFAULT_CALLBACKS, requestLog, logger);
  const callbacks = new CallbackSender(outbound);
  let servedWebhooks = (): ServedWebhooks => ({ webhooks: [], values: [] });
  const webhookSender = new WebhookSender(outbound, () => servedWebhooks(), options.callbacks?.secret, logger);
  let mockServers: MockServer[];
  try {
    mockServers = (await Promise.all(SERVERS.map((factory) => factory({ options, live, stats, requestLog, registry, embedded, fixtures, recorderDb, stateful, liveCheck, plugins, entities, callbacks })))).filter(
      (s) => s !== undefined,
    );
  } catch (e) {
    plugins?.close();
    await recorderDb?.close();
    throw e;
  }
  // the management router, and the admin when embedded, live on the server that can host them (HTTP)
  // none when no HTTP mock runs (MockOptions.httpMock false): then the management router has no port, and the admin runs standalone
  const http = mockServers.find((s) => s.hostControl !== undefined);
  if (http !== undefined) servedWebhooks = () => http.webhooks?.() ?? { webhooks: [], values: [] };
  if (http === undefined && options.httpMock !== false) throw new TypeError('mock serve needs a server that hosts the management router');
  const sampler = new ResourceSampler();
  const ctx: AdminContext = {
    version: options.version,
    startedAt: Date.now(),
    live,
    requestLog,
    logStream: new LogStream(requestLog, { maxClients: limits.max_log_subscribers, logger }),
    stats,
    sampler,
    registry,
    auth,
    env: createEnvControl(options.envVariables, { live, registry, logger }),
    projectDir: options.projectDir,
    recorder: recorderDb,
    // the folder of builds: never written through the API, since the server imports it
    files: { ...editableFiles(options.projectDir, options.configFile ?? null, path.dirname(options.buildDir)), writer: projectWriter(options.projectDir, logger) },
    logger,
    fixtures: fixtures?.store,
    stateful,
    scenarios: options.scenarios,
    cluster: options.cluster,
    contractDiff: captures,
    driftListener,
    webhooks: webhookSender,
  };
  const standalonePage = 'the admin page (GET / on the admin port)';
  const streams: LiveStream[] = [];
  if (embedded) {
    const tokenSource = `the admin page (GET ${admin.mountPath})`;
    const stream = admin.api ? new LiveStream(ctx, access, limits.max_log_subscribers, true) : undefined;
    if (stream !== undefined) streams.push(stream);
    http?.hostControl?.(
      createAdminApi(ctx, { routes: admin.api ? ADMIN_ROUTES : MANAGEMENT_ROUTES, apiDisabled: !admin.api, pagePath: admin.mountPath, access, token, tokenSource, embedded }),
      admin.mountPath,
      stream,
    );
  } else {
    const tokenSource = admin === undefined ? 'the admin page (start it with mock serve --admin)' : standalonePage;
    http?.hostControl?.(createAdminApi(ctx, { routes: MANAGEMENT_ROUTES, access, token, tokenSource }));
  }

  let hosting: Hosting | undefined;
  if (options.hosting !== undefined) {
    if (http?.hostTenants === undefined) throw new MockError('MOCK_ERR_TENANCY_CONFIG', 'tenancy: hosted mocks are served on the HTTP mock port; serve an HTTP mock (a spec) beside it');
    const host = { options, access, token, logger };
    hosting = new Hosting({ ...options.hosting, stores, limits, logger, access, open: (spec) => openTenantMock(host, spec) });
    await hosting.start();
    http.hostTenants(hostedSurface(hosting));
  }

  const servers: ControlServer[] = [];
  const released = new Set<MockServer>();
  const controlPort = (server: ControlServer): number | undefined => (server.front.address() as { port: number } | null)?.port;
  const closeAll = async (): Promise<void> => {
    sampler.stop();
    for (const stream of streams.splice(0)) stream.close();
    await Promise.all(servers.splice(0).map((server) => server.close()));
    // every protocol stops accepting and answers what it holds before the queues below are written
    await Promise.all(mockServers.filter((server) => !released.has(server)).map((server) => server.close(options.shutdownGraceMs ?? 0)));
    await hosting?.close();
    fixtures?.store.close();
    webhooks?.close();
    webhookSender.close();
    outbound.close();
    await fixtures?.recorder.flushed();
    // after the servers: the last answers' rows are queued by then
    await recorderDb?.close();
    plugins?.close();
    requestLog.flush();
  };
  try {
    // a callbacks.delays entry naming no served callback is a typo: a delay silently not applied would mislead
    const served = http?.callbacks?.();
    const unknown = served === undefined ? [] : unknownDelays(options.callbacks?.settings.delays ?? [], served.operations, served.callbacks);
    if (unknown.length > 0) throw new MockError('MOCK_ERR_CONFIG_INVALID', unknown.join('\n'));
    // a shared store's values (settings changed at run time by any instance) are held before the first request
    await stores.settled?.();
    for (const server of mockServers) {
      await options.beforeListen?.(server.port);
      await server.listen();
    }
    let adminUrl: string | undefined;
    let metricsUrl: string | undefined;
    let adminVersion: HttpVersion | undefined;
    let metricsVersion: HttpVersion | undefined;
    if (admin !== undefined) sampler.start();
    // one worker of several keeps the schedules, so each webhook goes once per period
    if ((options.cluster?.worker ?? 1) === 1) webhookSender.schedule(options.callbacks?.schedules ?? []);
    if (admin !== undefined && admin.standalone) {
      const api = createAdminApi(ctx, { routes: admin.api ? ADMIN_ROUTES : [], apiDisabled: !admin.api, pagePath: '', access, token, tokenSource: standalonePage });
      const stream = admin.api ? new LiveStream(ctx, access, limits.max_log_subscribers) : undefined;
      if (stream !== undefined) streams.push(stream);
      const server = createControlServer(api, ADMIN_MAX_BODY_BYTES, { tls: admin.tls, version: admin.httpVersion, socket: stream });
      await options.beforeListen?.(admin.port);
      adminUrl = httpUrl(admin.host, await listenNode(server.front, admin.host, admin.port, '--admin-port'), admin.tls !== undefined);
      adminVersion = server.version;
      servers.push(server);
      warnIfExposed(options, 'admin', admin.host, adminUrl);
    }
    // the embedded admin's warning covers the management router it includes
    if (http !== undefined && embedded && admin.api) warnIfExposed(options, 'embedded', options.host, httpUrl(options.host, http.port, http.secure));
    else if (http !== undefined) warnIfExposed(options, 'management', options.host, httpUrl(options.host, http.port, http.secure));
    if (prometheus !== undefined && options.metrics !== undefined && options.metrics.listen !== false) {
      const { host, port, tls, httpVersion } = options.metrics;
      const { cluster } = options;
      const render = cluster === undefined ? undefined : () => clusterPrometheus(cluster, prometheus);
      const server = createControlServer(metricsHandler(prometheus, access, render), 1024, { tls, version: httpVersion });
      await options.beforeListen?.(port);
      metricsUrl = httpUrl(host, await listenNode(server.front, host, port, '--metrics-port'), tls !== undefined);
      metricsVersion = server.version;
      servers.push(server);
      warnIfExposed(options, 'metrics', host, metricsUrl);
    }
    const adminAt = adminUrl ?? (http === undefined ? undefined : `${httpUrl(options.host, http.port, http.secure)}/__mock`);
    if (admin !== undefined && adminAt !== undefined) warnOfDevUsers(options, auth, adminAt);
    const listeners = (): Array<{ port: number; library: string }> => [
      ...mockServers.filter((server) => !released.has(server)).map((server) => ({ port: server.port, library: server.backend ?? 'node' })),
      ...servers.flatMap((server) => (controlPort(server) === undefined ? [] : [{ port: controlPort(server) as number, library: server.library }])),
    ];
    const release = async (port: number): Promise<void> => {
      const mock = mockServers.find((server) => server.port === port && !released.has(server));
      if (mock !== undefined) {
        released.add(mock);
        await mock.close(options.shutdownGraceMs ?? 0);
        return;
      }
      const control = servers.find((server) => controlPort(server) === port);
      if (control !== undefined) await servers.splice(servers.indexOf(control), 1)[0].close();
    };
    return { servers: mockServers, live, stats, requestLog, adminUrl, metricsUrl, adminHttpVersion: adminVersion, metricsHttpVersion: metricsVersion, answer: (question) => answerQuestion(ctx, question, prometheus), listeners, release, close: closeAll };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

/** mock.yaml's callbacks defaults, for the SDK and tests that start without a configuration. */
const DEFAULT_CALLBACKS = { allowedHosts: DEFAULT_ALLOWED_HOSTS, delayMs: 0, retries: 2, retryDelayMs: 500, timeoutMs: 5000 };

/** The fixture folder, read once for every server of the process, and its recorder. */
function startFixtures(options: MockOptions, requestLog: RequestLog, clock: () => number, stores: StoreFactory): { store: FixtureStore; recorder: FixtureRecorder } {
  const settings = options.fixtures as NonNullable<MockOptions['fixtures']>;
  const redaction = requestLog.redaction;
  const store = new FixtureStore(settings, secretsOf(redaction), options.logger, stores.open('fixture-sequences', sequencesBudget));
  if (settings.replay) options.logger.info(`replaying ${store.size} fixture(s) from ${store.root}`);
  if (settings.record) options.logger.info(`recording fixtures to ${store.root}`);
  return { store, recorder: new FixtureRecorder(store, redaction, options.logger, clock) };
}

/** core.stateful's machines over the memory store, under max_store_mb. */
function statefulService(config: NonNullable<MockOptions['stateful']>, clock: () => number, stores: StoreFactory): StatefulService {
  const maxBytes = config.max_store_mb === undefined ? undefined : config.max_store_mb * 1024 * 1024;
  return new StatefulService(config, new StateStore(stores.open('state-machines', stateBudget(maxBytes))), clock);
}

/** contract_diff.webhooks, when any is configured: told of every capture an analysis finds drifting. */
function driftWebhooks(options: MockOptions, logger: Logger): DriftWebhooks | undefined {
  const configured = options.contractDiffWebhooks;
  if (configured === undefined) return undefined;
  return new DriftWebhooks({ webhooks: configured.webhooks, allowPrivate: configured.allowPrivate, log: { info: (line) => logger.info(line), warn: (line) => logger.warn(line) } });
}

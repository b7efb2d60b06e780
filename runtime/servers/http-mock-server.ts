import { Agent as HttpsAgent } from 'node:https';
import type { RestartStatus, ServerControl } from '../control/admin/index.js';
import { serverInfo, type RegisteredServer, type ServerInfo, type ServerRegistry } from '../control/registry/index.js';
import { AdminError } from '../control/admin/index.js';
import { TokenIssuer, pinProblems } from '../chain/security/index.js';
import { RequestChain, createDispatch, createStages, type Dispatch, type TenantQuota } from '../chain/index.js';
import { Engine, apiKeyParameters, loadBuild, type BuildModule, type EngineOptions } from '../terminal/openapi/index.js';
import { hostPort, type ServerAdapter } from '../chain/exchange/index.js';
import type { ControlHandler } from '../control/admin/index.js';
import { createHttpAdapter, type SocketEndpoint } from './http/index.js';
import type { HostedSurface } from '../hosting/index.js';
import type { LiveState } from '../chain/settings/index.js';
import type { RequestLog } from '../control/logging/index.js';
import type { RecorderDb } from '../chain/recorder/index.js';
import type { TrafficStats } from '../control/metrics/index.js';
import type { ServeOptions, UpstreamTls } from '../serve-options.js';
import type { FixtureRecorder, FixtureStore } from '../chain/fixtures/index.js';
import type { StatefulService } from '../chain/stateful/index.js';
import type { LiveCheck } from '../contract-diff/index.js';
import type { PluginHost } from '../plugins/index.js';
import type { EntityService } from '../chain/entities/index.js';
import type { CallbackSender, ServedWebhooks } from '../callbacks/index.js';
import type { OperationMeta, CallbackMeta } from '../../common/contract/index.js';

export interface HttpMockServerOptions extends ServeOptions {
  /** Brings the build up to date (rebuilds when stale) and returns its directory; a restart calls it. */
  rebuild?: () => Promise<string>;
  live: LiveState;
  stats: TrafficStats;
  requestLog: RequestLog;
  /** Where the server lists itself from creation until it closes. */
  registry: ServerRegistry;
  /** The admin is embedded: every answer of the mock is sandboxed (runtime/chain/stages/sandbox.ts). */
  sandboxAnswers?: boolean;
  specPath: string | null;
  /** Replay and recording of core.fixtures. */
  fixtureService?: { store: FixtureStore; recorder: FixtureRecorder };
  /** Where every exchange is recorded (--recorder). */
  recorderDb?: RecorderDb;
  /** The state machines of core.stateful. */
  statefulService?: StatefulService;
  /** contract_diff.capture: the check of what upstreams answer. */
  liveCheck?: LiveCheck;
  /** The installed plugins (mock.yaml plugins). */
  pluginHost?: PluginHost;
  /** The collections of the scenario in use. */
  entityService?: EntityService;
  /** A hosted mock's server (runtime/hosting): its plan's request quotas. */
  tenant?: TenantQuota;
  /** Sends the callbacks routes declare. */
  callbackSender?: CallbackSender;
}

/** The request log hides the API keys of the descriptions served. */
function redactKeysOf(options: HttpMockServerOptions, build: BuildModule): void {
  options.requestLog.redaction.useKeys(apiKeyParameters(build));
}

/** mock.yaml auth pins the build cannot use, as warnings: a restart may bring the scheme back. */
function warnUnusedPins(options: HttpMockServerOptions, build: BuildModule): void {
  if (options.apiAuth === undefined) return;
  for (const problem of pinProblems(build.operations, options.apiAuth)) options.logger.warn(problem);
}

const IDLE_RESTART: RestartStatus = { in_progress: false, initiated_at: null, reason: null, success: null, completed_at: null, error: null };

/**
 * The HTTP mock server and its lifecycle. A restart brings the build up to date, loads it afresh
 * and swaps the engine under the running listener: no request is refused while it happens, and
 * runtime mocks, overrides, chaos and the validation settings survive it. The request chain holds
 * the stages (protective chaos, CORS, security, latency, overrides, the recorder, route chaos,
 * faults, runtime mocks, the conditional proxy, the continuum, the proxy), compiled per route.
 */
export class HttpMockServer implements ServerControl, RegisteredServer {
  readonly kind = 'HTTP' as const;
  readonly specPath: string | null;
  private current: Engine;
  private readonly chain: RequestChain;
  private adapter: ServerAdapter | undefined;
  private startTime = Date.now();
  private status: RestartStatus = IDLE_RESTART;
  private controlHandler: ControlHandler | undefined;
  private controlPage: string | undefined;
  private controlStream: SocketEndpoint | undefined;
  private hosted: HostedSurface | undefined;
  private readonly unregister: () => void;

  private constructor(
    private readonly options: HttpMockServerOptions,
    engine: Engine,
  ) {
    this.current = engine;
    this.specPath = options.specPath;
    const endpoint = options.apiAuth?.tokenEndpoint;
    const stages = createStages(
      {
        live: options.live,
        logger: options.logger,
        engine: () => this.current,
        openConnections: () => this.adapter?.connections ?? 0,
        settings: {
          sandboxAnswers: options.sandboxAnswers,
          cors: options.cors,
          apiAuth: options.apiAuth,
          maxBodyBytes: options.maxBodyBytes,
          maxConnections: options.maxConnections,
          proxyRules: options.proxyRules,
          upstreamAgent: upstreamAgent(options.upstreamTls),
          ai: options.ai,
          tenant: options.tenant,
        },
        tokenIssuer: endpoint === undefined ? undefined : new TokenIssuer(endpoint),
        fixtures: options.fixtureService,
        recorder: options.recorderDb,
        stateful: options.statefulService,
        contractDiff: options.liveCheck,
        plugins: options.pluginHost,
        entities: options.entityService,
        callbacks: options.callbackSender,
      },
      'description',
    );
    this.chain = new RequestChain(stages, (ex) => this.current.respond(ex));
    this.chain.setRoutes(engine.routes);
    // answers response.caching keeps hold date-times of the instant they were made
    options.live.clock.onChange(() => this.current.clearCache());
    this.unregister = options.registry.add(this);
  }

  static async create(options: HttpMockServerOptions): Promise<HttpMockServer> {
    const build = await loadBuild(options.buildDir);
    const engine = new Engine(build, engineOptions(options, options.validation, options.templateExpand));
    options.stats.setRoutes(engine.routes);
    redactKeysOf(options, build);
    warnUnusedPins(options, build);
    return new HttpMockServer(options, engine);
  }

  get basePath(): string {
    return this.current.build.specs[0]?.basePath ?? '';
  }

  /** Answers `/__mock/*` (and `page`) on this server: the management router, or the embedded admin API and its live stream. Set before listen. */
  hostControl(control: ControlHandler, page?: string, stream?: SocketEndpoint): void {
    this.controlHandler = control;
    this.controlPage = page;
    this.controlStream = stream;
  }

  /** Hosted mode on this server (runtime/hosting): the tenants' paths beside the mocked API. Set before listen. */
  hostTenants(surface: HostedSurface): void {
    this.hosted = surface;
  }

  /** What an adapter hands requests to: the chain and the engine being served. A hosted mock has no adapter of its own; the host's dispatch hands it its requests. */
  dispatcher(): Dispatch {
    const { options } = this;
    return createDispatch({
      router: () => this.current,
      chain: this.chain,
      maxBodyBytes: options.maxBodyBytes,
      logger: options.logger,
      requestLog: options.requestLog,
      stats: options.stats,
    });
  }

  async listen(): Promise<void> {
    const { options } = this;
    const own = this.dispatcher();
    const hosted = this.hosted;
    const dispatch = hosted === undefined ? own : hosted.dispatch(own);
    const adapterOptions = { dispatch, control: this.controlHandler, controlPage: this.controlPage, socket: this.controlStream, keepAliveHint: options.keepAliveHint, hosted, tls: options.tls };
    const adapter = await createHttpAdapter(options.httpBackend, adapterOptions, options.logger, options.httpVersion);
    await adapter.listen(options.host, options.port, '--http-port');
    this.adapter = adapter;
    this.startTime = Date.now();
  }

  /** The admin API steers this server's engine and restarts. */
  get control(): ServerControl {
    return this;
  }

  get secure(): boolean {
    return this.options.tls !== undefined;
  }

  get host(): string {
    return this.options.host;
  }

  get port(): number {
    return this.adapter?.port ?? this.options.port;
  }

  get httpPort(): number | null {
    return this.adapter?.listening === true ? this.adapter.port : null;
  }

  get listeningPort(): number | null {
    return this.httpPort;
  }

  /** Which server library answers: uws or node. */
  get backend(): string {
    return this.adapter?.library ?? (this.options.httpVersion === '2' ? 'node:http2' : this.options.httpBackend === 'node' ? 'node' : 'uws');
  }

  engine(): Engine {
    return this.current;
  }

  webhooks(): ServedWebhooks {
    return { webhooks: this.current.build.webhooks ?? [], values: this.current.webhookValues };
  }

  callbacks(): { operations: readonly OperationMeta[]; callbacks: readonly CallbackMeta[] } {
    return { operations: this.current.build.operations, callbacks: this.current.build.callbacks ?? [] };
  }

  /** Names of the stages that run for requests to `key` (`GET /v1/pets/{petId}`; null for unmatched ones). */
  stagesOf(key: string | null): string[] {
    return this.chain.stagesOf(key === null ? null : (this.current.routes.find((r) => r.key === key) ?? null));
  }

  info(): ServerInfo {
    const adapter = this.adapter;
    const running = adapter?.listening === true;
    const address = running ? adapter.address : hostPort(this.options.host, this.options.port);
    return serverInfo(this.kind, running, address, this.startTime, { active_connections: running ? adapter.connections : 0, total_requests: this.options.stats.totalRequests }, { library: this.backend, http_version: this.options.httpVersion ?? '1.1' });
  }

  restartStatus(): RestartStatus {
    return this.status;
  }

  restart(reason: string | null): void {
    if (this.status.in_progress) throw new AdminError(409, 'Server restart already in progress');
    this.status = { in_progress: true, initiated_at: new Date().toISOString(), reason, success: null, completed_at: null, error: null };
    const { logger } = this.options;
    logger.info({ reason }, 'restarting the HTTP mock server');
    this.reload().then(
      () => {
        this.status = { ...this.status, in_progress: false, success: true, completed_at: new Date().toISOString() };
        logger.info('HTTP mock server restarted');
      },
      (e: unknown) => {
        const error = e instanceof Error ? e.message : String(e);
        this.status = { ...this.status, in_progress: false, success: false, completed_at: new Date().toISOString(), error };
        logger.error({ err: e }, 'HTTP mock server restart failed; the previous build keeps serving');
      },
    );
  }

  private async reload(): Promise<void> {
    const { options } = this;
    const buildDir = options.rebuild === undefined ? options.buildDir : await options.rebuild();
    const build = await loadBuild(buildDir);
    const previous = this.current;
    // a reload keeps what the admin API set at run time
    const engine = new Engine(build, engineOptions(options, previous.validationOptions, previous.templateExpansion));
    this.current = engine;
    previous.close();
    this.chain.setRoutes(engine.routes);
    options.stats.setRoutes(engine.routes);
    redactKeysOf(options, build);
    warnUnusedPins(options, build);
    this.startTime = Date.now();
  }

  async close(graceMs = 0): Promise<void> {
    const adapter = this.adapter;
    this.adapter = undefined;
    this.unregister();
    await adapter?.close(graceMs);
  }
}

/** An engine's settings: the server's, with the validation and template expansion in force. */
function engineOptions(options: HttpMockServerOptions, validation: EngineOptions['validation'], templateExpand: boolean): EngineOptions {
  const { seed, logger, responseCache, live, pluginHost, streams } = options;
  return { validation, templateExpand, seed, clock: live.clock.read, logger, responseCache, settings: live.settings, plugins: pluginHost, streams };
}

/** An agent for https:// upstreams when proxy.ca or proxy.insecure change what is trusted; else Node's global one. */
function upstreamAgent(tls: UpstreamTls | undefined): HttpsAgent | undefined {
  if (tls === undefined || (tls.ca === undefined && !tls.insecure)) return undefined;
  return new HttpsAgent({ keepAlive: true, ca: tls.ca, rejectUnauthorized: !tls.insecure });
}

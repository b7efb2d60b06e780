import type { RestartStatus, ServerControl, ServerInfo } from '../admin/index.js';
import { AdminError } from '../admin/index.js';
import { Engine, apiKeyParameters, loadBuild, type BuildModule } from '../engine/index.js';
import type { Server } from 'node:http';
import { closeNode, createHttpApp, createNodeHttpServer, listen, listenNode, uWS, type ControlHandler, type HttpServerOptions } from '../http/index.js';
import type { LiveState } from '../live/index.js';
import type { RequestLog } from '../logging/index.js';
import type { TrafficStats } from '../metrics/index.js';
import type { ServeOptions } from '../options.js';
import type { us_listen_socket } from '../http/uws.js';

export interface HttpMockServerOptions extends ServeOptions {
  /** Brings the build up to date (rebuilds when stale) and returns its directory; a restart calls it. */
  rebuild?: () => Promise<string>;
  live: LiveState;
  stats: TrafficStats;
  requestLog: RequestLog;
  specPath: string | null;
}

/** The request log hides the API keys of the descriptions served. */
function redactKeysOf(options: HttpMockServerOptions, build: BuildModule): void {
  options.requestLog.redaction.useKeys(apiKeyParameters(build));
}

const IDLE_RESTART: RestartStatus = { in_progress: false, initiated_at: null, reason: null, success: null, completed_at: null, error: null };

/**
 * The HTTP mock server and its lifecycle. A restart brings the build up to date, loads it afresh
 * and swaps the engine under the running listener: no request is refused while it happens, and
 * runtime mocks, overrides and the validation settings survive it.
 */
export class HttpMockServer implements ServerControl {
  readonly specPath: string | null;
  private current: Engine;
  /** The uWS listen socket, or the node:http server. */
  private socket: us_listen_socket | Server | undefined;
  private boundPort = 0;
  /** Which server library answers. */
  backend: 'uws' | 'node' = 'uws';
  private startTime = Date.now();
  private status: RestartStatus = IDLE_RESTART;
  private control: ControlHandler | undefined;
  private controlPage: string | undefined;

  private constructor(
    private readonly options: HttpMockServerOptions,
    engine: Engine,
  ) {
    this.current = engine;
    this.specPath = options.specPath;
  }

  static async create(options: HttpMockServerOptions): Promise<HttpMockServer> {
    const build = await loadBuild(options.buildDir);
    const engine = new Engine(build, { validation: options.validation, templateExpand: options.templateExpand, seed: options.seed, logger: options.logger });
    options.stats.setRoutes(engine.routes);
    redactKeysOf(options, build);
    return new HttpMockServer(options, engine);
  }

  /** Answers `/__mock/*` (and `page`) on this server: the management router, or the embedded admin API. Set before listen. */
  setControl(control: ControlHandler, page?: string): void {
    this.control = control;
    this.controlPage = page;
  }

  async listen(): Promise<void> {
    const { options } = this;
    const control = this.control;
    const serverOptions: HttpServerOptions = {
      engine: () => this.current,
      maxBodyBytes: options.maxBodyBytes,
      logger: options.logger,
      requestLog: options.requestLog,
      live: options.live,
      stats: options.stats,
      control,
      controlPage: this.controlPage,
    };
    const backend = options.httpBackend === 'node' ? 'node' : 'uws';
    if (backend === 'node') {
      const server = createNodeHttpServer(serverOptions);
      this.boundPort = await listenNode(server, options.host, options.port, '--http-port');
      this.socket = server;
    } else {
      const { socket, port } = await listen(createHttpApp(serverOptions), options.host, options.port, '--http-port');
      this.socket = socket;
      this.boundPort = port;
    }
    this.backend = backend;
    this.startTime = Date.now();
  }

  get host(): string {
    return this.options.host;
  }

  get port(): number {
    return this.boundPort;
  }

  get httpPort(): number | null {
    return this.socket === undefined ? null : this.boundPort;
  }

  engine(): Engine {
    return this.current;
  }

  servers(): ServerInfo[] {
    const running = this.socket !== undefined;
    const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
    return [
      {
        server_type: 'HTTP',
        address: `${host}:${running ? this.boundPort : this.options.port}`,
        running,
        start_time: running ? new Date(this.startTime).toISOString() : null,
        uptime_seconds: running ? Math.round((Date.now() - this.startTime) / 1000) : 0,
        active_connections: null,
        total_requests: this.options.stats.totalRequests,
      },
    ];
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
    const build = await loadBuild(buildDir, true);
    const previous = this.current;
    const engine = new Engine(build, { validation: previous.validationOptions, templateExpand: previous.templateExpansion, seed: options.seed, logger: options.logger });
    this.current = engine;
    options.stats.setRoutes(engine.routes);
    redactKeysOf(options, build);
    this.startTime = Date.now();
  }

  async close(): Promise<void> {
    const socket = this.socket;
    if (socket === undefined) return;
    this.socket = undefined;
    if (this.backend === 'node') {
      await closeNode(socket as Server);
    } else uWS.us_listen_socket_close(socket as us_listen_socket);
  }
}

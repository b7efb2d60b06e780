import { readFile } from 'node:fs/promises';
import { Server, type MethodDefinition, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import type { Logger } from 'pino';
import { MockError } from '../../common/errors.js';
import type { GrpcBuildOutput } from '../../common/grpc/build-output.js';
import { createDispatch, createStages, RequestChain, type Dispatch } from '../chain/index.js';
import { hostPort } from '../chain/exchange/index.js';
import type { FixtureStore } from '../chain/fixtures/index.js';
import type { LiveState } from '../chain/settings/index.js';
import type { RequestLog } from '../control/logging/index.js';
import { serverInfo, type RegisteredServer, type ServerInfo, type ServerRegistry } from '../control/registry/index.js';
import { GrpcEngine, GrpcRecordings, grpcTerminal } from '../terminal/grpc/index.js';
import { catchUnknownMethods, ConcurrencyGate, decodingLeniently, describeCall, GrpcConnections, GrpcHttpBridge, GrpcRouter, handlerFor, LOADER_OPTIONS, MethodStats, REFLECTION_SERVICES, reflectionServices, type GrpcOptions } from './grpc/index.js';
import type { TemplatePlugins } from '../template/index.js';
import type { CorsOptions } from '../serve-options.js';

export interface GrpcMockServerOptions {
  settings: GrpcOptions;
  host: string;
  live: LiveState;
  requestLog: RequestLog;
  registry: ServerRegistry;
  logger: Logger;
  maxConnections?: number;
  /** http.cors: pages' gRPC-Web and Connect requests to the HTTP bridge. */
  cors?: CorsOptions;
  /** core.fixtures: calls recorded to and replayed from <dir>/grpc/; `watch` picks up files changed while serving. */
  fixtures?: { store: FixtureStore; watch: boolean };
  /** Answers the rules' {{plugin:…}} tokens (mock.yaml plugins). */
  plugins?: TemplatePlugins;
}

const modeOf = (m: { clientStreaming: boolean; serverStreaming: boolean }): string =>
  m.clientStreaming ? (m.serverStreaming ? 'bidi_streaming' : 'client_streaming') : m.serverStreaming ? 'server_streaming' : 'unary';

/**
 * The gRPC mock server (port 50051 by default): @grpc/grpc-js serving every method of the build's
 * services in its streaming mode, with reflection (v1 and v1alpha), grpc.max_message_size and
 * grpc.concurrency_limit. Each call enters the chain when it starts: the call stages (protective
 * chaos, the connection limit, latency, faults, mapped to gRPC statuses), then the terminal
 * (runtime/terminal/grpc: a recording when replay has one, else the engine's mock), whose answer the
 * handlers write; it is written to the request log and the per-method statistics when it ends.
 */
export class GrpcMockServer implements RegisteredServer {
  readonly kind = 'gRPC' as const;
  readonly stats: MethodStats;
  private server: Server | undefined;
  private connections: GrpcConnections | undefined;
  private bridge: GrpcHttpBridge | undefined;
  private boundPort: number | undefined;
  private startTime = Date.now();
  private readonly dispatch: Dispatch;
  private readonly chain: RequestChain;
  private readonly router: GrpcRouter;
  private readonly unregister: () => void;
  private readonly recordings: GrpcRecordings | undefined;

  private constructor(
    private readonly options: GrpcMockServerOptions,
    private readonly build: GrpcBuildOutput,
    private readonly root: protobuf.Root,
    private readonly engine: GrpcEngine,
  ) {
    const paths = build.services.flatMap((service) => service.methods.map((method) => `/${service.name}/${method.name}`));
    this.stats = new MethodStats(new Map(build.services.flatMap((service) => service.methods.map((method) => [`/${service.name}/${method.name}`, modeOf(method)] as const))));
    const router = (this.router = new GrpcRouter(paths));
    const { live, logger } = options;
    const { fixtures } = options;
    this.recordings = fixtures === undefined ? undefined : new GrpcRecordings(fixtures.store, (method) => engine.method(method), logger, fixtures.watch);
    const openConnections = (): number => this.connections?.open ?? 0;
    const stages = createStages({ live, logger, openConnections, settings: { maxBodyBytes: options.settings.maxMessageSize, maxConnections: options.maxConnections, cors: options.cors } }, 'call');
    const chain = (this.chain = new RequestChain(stages, grpcTerminal(engine, () => this.recordings)));
    chain.setRoutes(router.routes);
    this.dispatch = createDispatch({ router: () => router, chain, maxBodyBytes: options.settings.maxMessageSize, logger, requestLog: options.requestLog, observe: this.stats.observe, describe: describeCall });
    if (this.recordings !== undefined && fixtures?.store.settings.replay === true) logger.info(`replaying ${this.recordings.size} recorded gRPC call(s) from ${this.recordings.root}`);
    this.unregister = options.registry.add(this);
  }

  /** Loads what the build wrote for the .proto files and mocks their services. */
  static async create(options: GrpcMockServerOptions): Promise<GrpcMockServer> {
    const build = JSON.parse(await readFile(options.settings.buildFile, 'utf8')) as GrpcBuildOutput;
    const root = protobuf.Root.fromJSON(build.root as protobuf.INamespace);
    const engine = new GrpcEngine(root, { ...options.settings.mock, now: options.live.clock.read, plugins: options.plugins });
    return new GrpcMockServer(options, build, root, engine);
  }

  get secure(): boolean {
    return this.options.settings.tls !== undefined;
  }

  get host(): string {
    return this.options.host;
  }

  get port(): number {
    return this.boundPort ?? this.options.settings.port;
  }

  get listeningPort(): number | null {
    return this.server === undefined ? null : (this.boundPort ?? null);
  }

  async listen(): Promise<void> {
    const { settings, logger } = this.options;
    const server = new Server({ 'grpc.max_receive_message_length': settings.maxMessageSize, 'grpc.max_send_message_length': settings.maxMessageSize });
    const definitions = fromJSON(this.build.root as protobuf.INamespace, LOADER_OPTIONS);
    const context = {
      dispatch: this.dispatch,
      router: this.router,
      gate: new ConcurrencyGate(settings.concurrencyLimit),
      recordings: this.recordings,
      redaction: this.options.requestLog.redaction,
      now: this.options.live.clock.read,
      logger,
    };
    // reflection answers itself when on, even where the protos declare its service (the corpus's reflection.proto)
    const served = this.build.services.filter((service) => !(settings.reflection && REFLECTION_SERVICES.includes(service.name)));
    for (const service of served) {
      const definition = definitions[service.name] as ServiceDefinition;
      const implementation: UntypedServiceImplementation = {};
      for (const [name, method] of Object.entries(definition)) {
        const path = (method as MethodDefinition<object, object>).path;
        const mock = this.engine.method(path.slice(1));
        if (mock !== undefined) implementation[name] = handlerFor(method as MethodDefinition<object, object>, mock, path, context);
      }
      server.addService(Object.fromEntries(Object.entries(definition).map(([name, method]) => [name, decodingLeniently(method as MethodDefinition<object, object>)])), implementation);
    }
    catchUnknownMethods(server, (path) => handlerFor({ requestStream: true, responseStream: true }, undefined, path, context));
    if (settings.reflection) {
      for (const { definition, implementation } of reflectionServices(this.build.files, served.map((s) => s.name))) server.addService(definition, implementation);
    }
    const connections = new GrpcConnections(server, settings.tls);
    this.boundPort = await connections.listen(this.options.host, settings.port);
    this.connections = connections;
    this.server = server;
    this.startTime = Date.now();
    const methods = this.build.services.reduce((sum, s) => sum + s.methods.length, 0);
    logger.info(`gRPC mock on ${hostPort(this.options.host, this.boundPort)}${settings.tls === undefined ? '' : ' (TLS)'}: ${this.build.services.length} service(s), ${methods} method(s)${settings.reflection ? ', reflection on' : ''}`);
    if (settings.httpBridge !== undefined) {
      const { port, maxBodyBytes, maxStreamMessages } = settings.httpBridge;
      const bridge = new GrpcHttpBridge({
        host: this.options.host,
        port,
        tls: settings.tls,
        services: this.build.services,
        root: this.root,
        engine: this.engine,
        limits: { maxBodyBytes, maxStreamMessages },
        chain: this.chain,
        routeOf: (path) => this.router.routeOf(path),
        observe: this.stats.observe,
        requestLog: this.options.requestLog,
        logger,
      });
      await bridge.listen();
      this.bridge = bridge;
    }
  }

  /** The HTTP bridge's bound port while it runs (grpc.http_bridge). */
  get bridgePort(): number | undefined {
    return this.bridge?.port;
  }

  async close(graceMs = 0): Promise<void> {
    const server = this.server;
    const connections = this.connections;
    this.server = undefined;
    this.connections = undefined;
    this.unregister();
    await this.bridge?.close(graceMs);
    this.bridge = undefined;
    if (server !== undefined) {
      await new Promise<void>((resolve) => {
        // calls in progress (streams) finish within the grace period, then end
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await connections?.close();
    // after the calls: those that ended are saved whole, those cut off are not recorded
    await this.recordings?.close();
  }

  info(): ServerInfo {
    return serverInfo(this.kind, this.server !== undefined, hostPort(this.options.host, this.port), this.startTime, { active_connections: null, total_requests: this.stats.total }, { library: '@grpc/grpc-js', http_version: '2' });
  }

  /** GET /__mock/grpc: the server, its settings, its services and what each method saw. */
  details(): Record<string, unknown> {
    const { settings } = this.options;
    return {
      server: this.info(),
      settings: { reflection: settings.reflection, max_message_size: settings.maxMessageSize, concurrency_limit: settings.concurrencyLimit, rules: settings.mock.rules.length, stream: settings.mock.stream },
      recorded_calls: this.recordings?.size ?? 0,
      services: this.build.services.map((service) => ({ name: service.name, file: service.file, methods: service.methods.map((m) => ({ name: m.name, mode: modeOf(m), request: m.requestType, response: m.responseType })) })),
      problems: this.build.problems,
      methods: this.stats.byOperation(),
    };
  }
}

import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { afterNext, createDispatch, createStages, RequestChain, type Dispatch } from '../chain/index.js';
import { hostPort, type ServerAdapter } from '../chain/exchange/index.js';
import { PROBLEMS } from '../../common/errors.js';
import type { LiveState } from '../chain/settings/index.js';
import type { RecorderDb } from '../chain/recorder/index.js';
import { WarningGate } from '../../common/warning-gate.js';
import type { RequestLog } from '../control/logging/index.js';
import { serverInfo, type RegisteredServer, type ServerInfo, type ServerRegistry } from '../control/registry/index.js';
import { GraphqlEngine } from '../terminal/graphql/index.js';
import { withoutBuildComments } from '../../common/graphql/index.js';
import type { CorsOptions, HttpBackend } from '../serve-options.js';
import { createHttpAdapter } from './http/index.js';
import { asGraphqlAnswer, describeOperation, GraphiqlPage, GraphqlRouter, graphqlTerminal, OperationStats, SubscriptionEndpoint, type GraphqlOptions } from './graphql/index.js';
import type { TemplatePlugins } from '../template/index.js';

export interface GraphqlMockServerOptions {
  settings: GraphqlOptions;
  host: string;
  live: LiveState;
  requestLog: RequestLog;
  registry: ServerRegistry;
  logger: Logger;
  maxConnections?: number;
  cors?: CorsOptions;
  recorderDb?: RecorderDb;
  backend?: HttpBackend;
  /** Answers the overrides' {{plugin:…}} tokens (mock.yaml plugins). */
  plugins?: TemplatePlugins;
}

/**
 * The GraphQL mock server (port 4000 by default): GraphQL over HTTP at graphql.path through the
 * chain's stages that apply to it (protective chaos, CORS, latency, faults, the recorder), and
 * subscriptions over graphql-transport-ws on the same path. Answers come from the schema the build
 * wrote, mocked by the engine (runtime/terminal/graphql).
 */
export class GraphqlMockServer implements RegisteredServer {
  readonly kind = 'GraphQL' as const;
  readonly stats = new OperationStats();
  private readonly chain: RequestChain;
  private readonly router: GraphqlRouter;
  private readonly subscriptions: SubscriptionEndpoint;
  private adapter: ServerAdapter | undefined;
  private startTime = Date.now();
  private readonly unregister: () => void;

  private constructor(
    private readonly options: GraphqlMockServerOptions,
    private readonly engine: GraphqlEngine,
  ) {
    const { settings, live, logger } = options;
    const { maxBodyBytes } = settings;
    this.router = new GraphqlRouter(settings.path);
    const stages = createStages(
      {
        live,
        logger,
        openConnections: () => this.adapter?.connections ?? 0,
        settings: { cors: options.cors, maxBodyBytes, maxConnections: options.maxConnections },
        recorder: options.recorderDb,
      },
      'http',
    );
    this.chain = new RequestChain(stages, graphqlTerminal(() => this.engine, settings.path, settings.maxResponseBytes));
    this.chain.setRoutes(this.router.routes);
    this.subscriptions = new SubscriptionEndpoint({
      path: settings.path,
      engine: () => this.engine,
      stats: this.stats,
      requestLog: options.requestLog,
      maxMessageBytes: maxBodyBytes,
      maxResponseBytes: settings.maxResponseBytes,
      limits: settings.sockets,
      slowReaders: new WarningGate((message) => logger.warn(message)),
    });
    this.unregister = options.registry.add(this);
  }

  /** Loads the schema the build wrote and mocks it; a schema that no longer builds is a one-line error. */
  static async create(options: GraphqlMockServerOptions): Promise<GraphqlMockServer> {
    const sdl = withoutBuildComments(await readFile(options.settings.schemaFile, 'utf8'));
    const engine = new GraphqlEngine(sdl, { ...options.settings.mock, now: options.live.clock.read, stores: options.live.stores, namespace: options.settings.schemaFile, plugins: options.plugins });
    return new GraphqlMockServer(options, engine);
  }

  get secure(): boolean {
    return this.options.settings.tls !== undefined;
  }

  get host(): string {
    return this.options.host;
  }

  /** Which server library answers: uws, node or node:http2. */
  get backend(): string {
    return this.adapter?.library ?? (this.options.settings.httpVersion === '2' ? 'node:http2' : this.options.backend === 'node' ? 'node' : 'uws');
  }

  get port(): number {
    return this.adapter?.port ?? this.options.settings.port;
  }

  get listeningPort(): number | null {
    return this.adapter?.listening === true ? this.adapter.port : null;
  }

  /** The URL clients send operations to. */
  get url(): string {
    return `${this.options.settings.tls === undefined ? 'http' : 'https'}://${hostPort(this.options.host, this.port)}${this.options.settings.path}`;
  }

  async listen(): Promise<void> {
    const { options } = this;
    const inner = createDispatch({ router: () => this.router, chain: this.chain, maxBodyBytes: options.settings.maxBodyBytes, logger: options.logger, requestLog: options.requestLog, observe: this.stats.observe, describe: describeOperation });
    const adapterOptions = { dispatch: asGraphqlDispatch(inner, new GraphiqlPage(options.settings.path)), socket: this.subscriptions, tls: options.settings.tls };
    const adapter = await createHttpAdapter(options.backend, adapterOptions, options.logger, options.settings.httpVersion);
    await adapter.listen(options.host, options.settings.port, '--graphql-port');
    this.adapter = adapter;
    this.startTime = Date.now();
    const { schema } = this.engine;
    const count = (type: { getFields(): object } | null | undefined): number => (type == null ? 0 : Object.keys(type.getFields()).length);
    options.logger.info(
      `GraphQL mock on ${options.settings.tls === undefined ? 'http' : 'https'}://${adapter.address}${options.settings.path} (${adapter.library}): ${count(schema.getQueryType())} queries, ${count(schema.getMutationType())} mutations, ${count(schema.getSubscriptionType())} subscriptions`,
    );
  }

  async close(graceMs = 0): Promise<void> {
    const adapter = this.adapter;
    this.adapter = undefined;
    this.unregister();
    this.subscriptions.closeAll();
    await adapter?.close(graceMs);
  }

  info(): ServerInfo {
    const adapter = this.adapter;
    const running = adapter?.listening === true;
    const address = running ? adapter.address : hostPort(this.options.host, this.options.settings.port);
    return serverInfo(this.kind, running, address, this.startTime, { active_connections: running ? adapter.connections : 0, total_requests: this.stats.total }, { library: this.backend, http_version: this.options.settings.httpVersion ?? '1.1' });
  }

  /** GET /__mock/graphql: the server, its settings and what each operation saw. */
  details(): Record<string, unknown> {
    const { settings } = this.options;
    const { schema } = this.engine;
    const stats = this.engine.stats;
    const names = (type: { getFields(): object } | null | undefined): string[] => (type == null ? [] : Object.keys(type.getFields()).sort());
    return {
      server: this.info(),
      url: this.url,
      library: this.adapter?.library ?? null,
      http_version: this.options.settings.httpVersion ?? '1.1',
      settings: {
        path: settings.path,
        introspection: settings.mock.introspection,
        max_depth: settings.mock.maxDepth,
        max_complexity: settings.mock.maxComplexity,
        max_aliases: settings.mock.maxAliases,
        max_tokens: settings.mock.maxTokens,
        max_body_bytes: settings.maxBodyBytes,
        max_response_bytes: settings.maxResponseBytes,
        max_cache_mb: settings.mock.maxCacheBytes / MB,
        max_store_mb: settings.mock.maxStoreBytes / MB,
        answer_cache_bytes: settings.mock.answerCacheBytes ?? 0,
        list_length: settings.mock.listLength,
        subscriptions: {
          interval_ms: settings.mock.subscriptionIntervalMs,
          max_events: settings.mock.subscriptionMaxEvents,
          max_connections: settings.sockets.maxConnections,
          max_per_connection: settings.sockets.maxPerConnection,
          max_buffered_bytes: settings.sockets.maxBufferedBytes,
        },
        seed: settings.mock.seed ?? null,
        overrides: Object.keys(settings.mock.overrides).sort(),
      },
      schema: { queries: names(schema.getQueryType()), mutations: names(schema.getMutationType()), subscriptions: names(schema.getSubscriptionType()) },
      subscription_connections: this.subscriptions.connections,
      document_cache: { documents: stats.documents, bytes: stats.documentBytes, compiled: stats.compiled },
      answer_cache: stats.answers,
      store: stats.store,
      operations: this.stats.byOperation(),
    };
  }

  /** POST /__mock/graphql/reset: forgets what mutations stored. */
  reset(): void {
    this.engine.reset();
  }
}

const MB = 1024 * 1024;

/**
 * The dispatch as the GraphQL edge answers: every answer, whoever made it, is a GraphQL response;
 * a body over graphql.max_body_bytes names that setting, not the HTTP mock's. A browser's GET of the
 * path gets GraphiQL instead.
 */
function asGraphqlDispatch(inner: Dispatch, graphiql: GraphiqlPage): Dispatch {
  return {
    maxBodyBytes: inner.maxBodyBytes,
    answer: (ex) => graphiql.answer(ex) ?? afterNext(inner.answer(ex), (answer) => asGraphqlAnswer(ex, answer)),
    // the route's decorations (CORS) stay; the error, made into a GraphQL error by asGraphqlAnswer, is GraphQL's own
    tooLarge: (ex) => asGraphqlAnswer(ex, { ...inner.tooLarge(ex), code: 'MOCK_ERR_GRAPHQL_BODY_TOO_LARGE', error: PROBLEMS.MOCK_ERR_GRAPHQL_BODY_TOO_LARGE.detail({ limit: inner.maxBodyBytes }) }),
    badFraming: (ex, reason) => asGraphqlAnswer(ex, inner.badFraming(ex, reason)),
    written: (ex, answer) => {
      if (!graphiql.answered(ex)) inner.written(ex, answer);
    },
  };
}

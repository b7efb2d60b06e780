import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { MockError } from '../../common/errors.js';
import { SEEDED_NOW, parseInstant } from '../../common/instant.js';
import { parseDuration } from '../../common/duration.js';
import { jsonSyntaxError } from '../../common/json-syntax.js';
import type { ApiAuthOptions, HttpVersion, MockOptions, OverrideRule, SchemePins, ServeOptions } from '../../runtime/index.js';
import { scenarioControl } from './scenario-control.js';
import { ENV_VARIABLES, activeScenarioEntities, displayPath, type EffectiveConfig, type ResolvedConfig } from '../config/index.js';
import { GRAPHQL_SCHEMA_FILE, GRPC_BUILD_FILE } from '../../compiler/serving.js';
import { protoDirInUse } from './build-options.js';
import { chaosStart, wantsTcpReset } from './chaos-options.js';
import { readablePath } from './project-paths.js';
import { readCaBundle } from './tls/index.js';
import { websocketWanted } from './servers-wanted.js';

/** mock.yaml's `…_mb` settings are mebibytes. */
const MB = 1024 * 1024;

export function toServeOptions(config: EffectiveConfig, buildDir: string, logger: Logger): ServeOptions {
  const { mode, aggregate_errors, validate_responses, security, status_code, error_body, overrides } = config.validation;
  return {
    buildDir,
    host: config.server.bind,
    port: config.server.http_port,
    validation: { mode, aggregate_errors, validate_responses, security, status_code, error_body, overrides },
    templateExpand: config.response_template_expand,
    seed: config.seed,
    now: pinnedNow(config),
    responseCache: responseCacheOptions(config),
    timeTravel: timeTravelOptions(config),
    maxBodyBytes: config.http.max_body_bytes,
    httpBackend: httpBackend(config, logger),
    httpVersion: httpVersion(config),
    keepAliveHint: config.http.keepalive_hint,
    streams: config.http.streams,
    maxConnections: config.core.max_connections,
    cors: corsOptions(config),
    proxyRules: config.proxy.rules,
    upstreamTls: upstreamTls(config, logger),
    contractDiffCapture: config.contract_diff?.capture?.enabled === true ? { violationsHeader: config.contract_diff.capture.violations_header !== false } : undefined,
    contractDiffWebhooks: contractDiffWebhooks(config),
    callbacks: callbackOptions(config),
    logger,
  };
}

/** proxy.ca and proxy.insecure, when either changes what https:// upstreams must show. */
function upstreamTls(config: EffectiveConfig, logger: Logger): ServeOptions['upstreamTls'] {
  const { ca, insecure = false } = config.proxy;
  if (ca === undefined && !insecure) return undefined;
  if (insecure) logger.warn('proxy.insecure: certificates of https:// upstreams are not checked (anyone on the path can answer for them); use proxy.ca for a private authority instead');
  return { ca: ca === undefined ? undefined : readCaBundle(ca), insecure };
}

/** contract_diff.webhooks when any is configured. */
function contractDiffWebhooks(config: EffectiveConfig): MockOptions['contractDiffWebhooks'] {
  const { webhooks = [], webhook_allow_private: allowPrivate = false } = config.contract_diff ?? {};
  return webhooks.length === 0 ? undefined : { webhooks, allowPrivate };
}

/** mock.yaml `callbacks`, defaults filled in by the schema. */
function callbackOptions(config: EffectiveConfig): ServeOptions['callbacks'] {
  const { allowed_hosts, delay_ms, delays, retries, retry_delay_ms, timeout_ms, webhooks } = config.callbacks;
  return {
    settings: {
      allowedHosts: allowed_hosts,
      delayMs: delay_ms,
      delays: delays.map((d) => ({ operation: d.operation, callback: d.callback, delayMs: d.delay_ms })),
      retries,
      retryDelayMs: retry_delay_ms,
      timeoutMs: timeout_ms,
    },
    secret: webhooks.secret,
    schedules: webhooks.schedules.map((s) => ({ webhook: s.webhook, url: s.url, everyMs: s.every_seconds * 1000, body: s.body })),
  };
}

/** The instant --now (or, without it, --seed) pins the clock to; undefined: the real clock. */
function pinnedNow(config: EffectiveConfig): number | undefined {
  return config.now !== undefined ? parseInstant(config.now) : config.seed !== undefined ? Date.parse(SEEDED_NOW) : undefined;
}

/**
 * The configured backend; `auto` (the default) is node:http when chaos asks for TCP resets, which
 * only node:http can send; otherwise the runtime picks uWebSockets.js where its addon loads.
 */
function httpBackend(config: EffectiveConfig, logger: Logger): ServeOptions['httpBackend'] {
  const chosen = config.server.http_backend ?? 'auto';
  if (!wantsTcpReset(config)) return chosen;
  if (chosen === 'auto') {
    logger.info('serving the HTTP mock with node:http: chaos connection_error_kind tcp_reset needs a backend that can send a TCP reset (uWebSockets.js cannot)');
    return 'node';
  }
  if (chosen === 'uws')
    logger.warn(
      'chaos connection_error_kind tcp_reset: uWebSockets.js cannot send a TCP reset, so those connections are closed without an answer (tcp_close); set server.http_backend to node or auto for real resets',
    );
  return chosen;
}

/**
 * server.http_version: auto is 1.1 here, and 2 once the HTTP mock's port speaks TLS (startServing
 * knows its certificate). HTTP/2 is node:http2's: asking for uWebSockets.js as well is a contradiction.
 */
function httpVersion(config: EffectiveConfig): ServeOptions['httpVersion'] {
  if (config.server.http_version !== '2') return '1.1';
  if (config.server.http_backend === 'uws') {
    throw new MockError('MOCK_ERR_HTTP_BACKEND_UNAVAILABLE', 'server.http_version 2 serves with node:http2, but server.http_backend is uws, which has no HTTP/2: leave http_backend out (or auto), or serve HTTP/1.1');
  }
  return '2';
}

/**
 * The HTTP version of a server with an http_version key of its own (graphql, admin, metrics): that
 * key, else server.http_version, as for the HTTP mock: auto is 2 where the server's port speaks TLS
 * (`secure`). The GraphQL mock serves with server.http_backend's library, which for 2 must not be uws.
 */
export function serverHttpVersion(config: EffectiveConfig, server: 'graphql' | 'admin' | 'metrics', secure: boolean): HttpVersion {
  const own = config[server].http_version;
  const value = own ?? config.server.http_version ?? '1.1';
  const version = value === 'auto' ? (secure ? '2' : '1.1') : value;
  if (version === '2' && server === 'graphql' && config.server.http_backend === 'uws') {
    const at = own === undefined ? 'server.http_version' : 'graphql.http_version';
    throw new MockError('MOCK_ERR_HTTP_BACKEND_UNAVAILABLE', `${at} ${value} serves the GraphQL mock with node:http2, but server.http_backend is uws, which has no HTTP/2: leave http_backend out (or auto), or set graphql.http_version to 1.1`);
  }
  return version;
}

/** time_travel with its instants and durations read once; a schedule step names jump_to or advance_by (the schema's semantics check). */
function timeTravelOptions(config: EffectiveConfig): ServeOptions['timeTravel'] {
  const travel = config.time_travel;
  if (travel === undefined) return undefined;
  return {
    enabled: travel.enabled,
    initialTime: travel.initial_time === undefined ? undefined : Date.parse(travel.initial_time),
    scaleFactor: travel.scale_factor,
    schedule: (travel.schedule ?? []).map((step) => ({
      at: Date.parse(step.at),
      jumpTo: step.jump_to === undefined ? undefined : Date.parse(step.jump_to),
      advanceBy: step.advance_by === undefined ? undefined : parseDuration(step.advance_by),
    })),
  };
}

function responseCacheOptions(config: EffectiveConfig): ServeOptions['responseCache'] {
  const caching = config.response?.caching;
  if (caching?.enabled !== true) return undefined;
  return { ttlSeconds: caching.ttl_seconds, maxSizeMb: caching.max_size_mb };
}

function corsOptions(config: EffectiveConfig): ServeOptions['cors'] {
  const cors = config.http.cors;
  if (!cors.enabled) return undefined;
  return {
    allowedOrigins: cors.allowed_origins,
    credentials: cors.credentials,
    allowedMethods: cors.allowed_methods?.map((m) => m.toUpperCase()),
    allowedHeaders: cors.allowed_headers,
    maxAgeSeconds: cors.max_age_seconds,
    proxied: cors.proxied,
  };
}

/** A JWKS file of auth.schemes.<name>.jwt (mock.yaml only: confined to the project), read once at start; a one-line error names the key and the file, never what it holds. */
function readJwks(resolved: ResolvedConfig, file: string, key: string): { keys: object[] } {
  const full = readablePath(resolved, key, path.resolve(resolved.projectDir, file), 'file');
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (e) {
    throw new MockError(
      'MOCK_ERR_CONFIG_INVALID',
      `${key}: cannot read ${displayPath(full)} (${(e as NodeJS.ErrnoException).code ?? String(e)}); give the path of a JSON Web Key Set file, relative to mock.yaml`,
    );
  }
  let jwks: unknown;
  try {
    jwks = JSON.parse(text);
  } catch (e) {
    throw new MockError('MOCK_ERR_CONFIG_INVALID', `${key}: ${displayPath(full)} is not JSON (${jsonSyntaxError(e)}); it must hold a JSON Web Key Set {"keys": [...]}`);
  }
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => k === null || typeof k !== 'object')) {
    throw new MockError('MOCK_ERR_CONFIG_INVALID', `${key}: ${displayPath(full)} is not a JSON Web Key Set; it must hold {"keys": [<JWK>, ...]} with at least one key`);
  }
  return { keys: keys as object[] };
}

/** mock.yaml `auth` as the runtime takes it; undefined when nothing is configured. */
export function apiAuthOptions(resolved: ResolvedConfig): ApiAuthOptions | undefined {
  const { schemes, token_endpoint } = resolved.config.auth;
  if (Object.keys(schemes).length === 0 && token_endpoint === undefined) return undefined;
  const pins: Record<string, SchemePins> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    const { jwt } = scheme;
    pins[name] = {
      apiKeys: scheme.api_keys,
      users: scheme.users,
      tokens: scheme.tokens,
      jwt:
        jwt === undefined
          ? undefined
          : {
              secret: jwt.secret,
              jwks: jwt.jwks_file === undefined ? undefined : readJwks(resolved, jwt.jwks_file, `auth.schemes.${name}.jwt.jwks_file`),
              issuer: jwt.issuer,
              audience: jwt.audience,
              requireExpiry: jwt.require_expiry,
              clockToleranceSeconds: jwt.clock_tolerance_seconds,
            },
    };
    for (const key of Object.keys(pins[name]) as Array<keyof SchemePins>) if (pins[name][key] === undefined) delete pins[name][key];
  }
  const tokenEndpoint =
    token_endpoint === undefined
      ? undefined
      : {
          path: token_endpoint.path,
          clients: token_endpoint.clients.map((c) => ({ clientId: c.client_id, clientSecret: c.client_secret, scopes: c.scopes ?? [] })),
          expiresInSeconds: token_endpoint.expires_in,
        };
  return { schemes: pins, tokenEndpoint };
}

/**
 * Embedded when asked for, unless `admin.standalone` was set explicitly as well: the spec's
 * default for standalone is true, and a default must not undo an explicit --admin-embed.
 */
export function adminMode(resolved: ResolvedConfig): MockOptions['admin'] {
  const { admin } = resolved.config;
  if (!admin.enabled && !admin.embedded) return undefined;
  const standalone = !admin.embedded || (admin.standalone && resolved.sources['admin.standalone'] !== 'default');
  return { standalone, port: admin.port, host: admin.bind, mountPath: admin.mount_path.replace(/\/+$/, '') || '/admin', api: !admin.disable_api };
}

export function authOptions(config: EffectiveConfig, logger: Logger): MockOptions['auth'] {
  const { auth, management_token } = config.admin;
  return {
    enabled: auth.enabled,
    jwtSecret: auth.jwt_secret,
    accessTtlSeconds: auth.session_timeout_seconds,
    refreshTtlSeconds: auth.refresh_timeout_seconds,
    users: auth.users,
    seedDevUsers: auth.seed_dev_users,
    managementToken: management_token,
    logger: { warn: (message) => logger.warn(message) },
  };
}

/** admin.allowed_hosts and admin.cors.allowed_origins: who may talk to the admin API and the management router. */
export function accessOptions(config: EffectiveConfig): NonNullable<MockOptions['access']> {
  return { allowedHosts: config.admin.allowed_hosts, allowedOrigins: config.admin.cors.allowed_origins };
}

export function redactionOptions(config: EffectiveConfig): NonNullable<MockOptions['redaction']> {
  return { credentials: config.logging.redact_credentials, names: config.logging.redact };
}

/**
 * The flat `chaos.latency_*` range as the live latency (base = min, jitter up to max - min) when it
 * is on; otherwise none, so that an admin update naming only base_ms does not inherit the default
 * 0-1000 ms range as jitter.
 */
function latency(config: EffectiveConfig): NonNullable<MockOptions['live']>['latency'] {
  const { latency_enabled, latency_min_ms, latency_max_ms } = config.chaos;
  if (!latency_enabled) return { enabled: false, base_ms: 0, jitter_ms: 0, tag_overrides: {} };
  return { enabled: true, base_ms: latency_min_ms, jitter_ms: Math.max(0, latency_max_ms - latency_min_ms), tag_overrides: {} };
}

export interface MockServeExtras {
  rebuild: () => Promise<string>;
  overrides: OverrideRule[];
  version: string;
  /** mock sync follows the workspace: a scenario put to use is served at once, by the reload its file starts. */
  followed?: boolean;
}

/** Everything `mock serve` starts: the HTTP mock, admin, metrics, auth and the live state's starting values. */
export function toMockOptions(resolved: ResolvedConfig, buildDir: string, logger: Logger, extras: MockServeExtras): MockOptions {
  const { config } = resolved;
  return {
    ...toServeOptions(config, buildDir, logger),
    apiAuth: apiAuthOptions(resolved),
    rebuild: extras.rebuild,
    specPath: config.specs[0]?.path ?? null,
    // a GraphQL schema, .proto files or a WebSocket configuration alone: no HTTP mock
    httpMock: config.specs.length > 0,
    live: {
      latency: latency(config),
      proxy: { enabled: proxying(resolved), upstream_url: config.proxy.upstream_url ?? null, timeout_seconds: config.proxy.timeout_seconds },
      overrides: extras.overrides,
      chaos: chaosStart(config),
      continuum: { config: config.reality_continuum, seed: config.seed },
    },
    admin: adminMode(resolved),
    metrics: config.metrics.enabled ? { port: config.metrics.port, host: config.metrics.bind } : undefined,
    auth: authOptions(config, logger),
    access: accessOptions(config),
    redaction: redactionOptions(config),
    requestLinesPerSecond: config.logging.request_lines_per_second,
    logBodies: config.logging.bodies.enabled ? { maxBodyBytes: config.logging.bodies.max_body_bytes, maxStoreMb: config.logging.bodies.max_store_mb } : undefined,
    envVariables: ENV_VARIABLES.map((v) => v.name),
    projectDir: resolved.projectDir,
    configFile: resolved.file?.file,
    version: extras.version,
    limits: config.admin.limits,
    fixtures: fixtureOptions(config),
    recorder: config.recorder.enabled ? { dbPath: config.recorder.db_path } : undefined,
    stateful: config.core.stateful,
    plugins: pluginOptions(resolved),
    entities: activeScenarioEntities(resolved.projectDir),
    scenarios: scenarioControl(resolved.projectDir, resolved.file?.via === 'search' ? undefined : resolved.file?.file, extras.followed === true),
    websocket: websocketOptions(resolved),
    graphql: graphqlOptions(resolved, buildDir),
    grpc: grpcOptions(resolved, buildDir),
    shutdownGraceMs: config.server.shutdown_timeout_ms,
  };
}

/** mock.yaml plugins (its paths absolute already): mock serve loads every plugin installed in dir. */
export function pluginOptions({ config }: ResolvedConfig): NonNullable<MockOptions['plugins']> {
  const plugins = config.plugins;
  return {
    dir: plugins.dir,
    limits: { max_memory_mb: plugins.max_memory_mb, max_execution_ms: plugins.max_execution_ms },
    sandbox: plugins.sandbox,
    disableAfter: plugins.disable_after,
    middleware: plugins.middleware,
    requestValidators: plugins.request_validators,
    responseModifiers: plugins.response_modifiers,
  };
}

/**
 * The GraphQL server, whenever a schema is given (graphql.schema, --graphql-schema,
 * MOCK_GRAPHQL_SCHEMA): it serves the schema.graphql the build wrote. `now` is the pinned instant
 * (--now, --seed) or the real clock; the runtime may read its virtual clock instead.
 */
export function graphqlOptions({ config }: ResolvedConfig, buildDir: string): MockOptions['graphql'] {
  const graphql = config.graphql;
  if (graphql.schema.length === 0) return undefined;
  const pinned = pinnedNow(config);
  return {
    port: config.server.graphql_port,
    path: graphql.path,
    schemaFile: path.resolve(buildDir, GRAPHQL_SCHEMA_FILE),
    mock: {
      seed: config.seed,
      now: pinned === undefined ? Date.now : () => pinned,
      overrides: graphql.overrides,
      listLength: { min: graphql.list_length.min, max: graphql.list_length.max },
      maxDepth: graphql.max_depth,
      maxComplexity: graphql.max_complexity,
      maxAliases: graphql.max_aliases,
      maxTokens: graphql.max_tokens,
      maxCacheBytes: graphql.max_cache_mb * MB,
      maxStoreBytes: graphql.max_store_mb * MB,
      answerCacheBytes: graphql.answer_cache_bytes,
      introspection: graphql.introspection,
      subscriptionIntervalMs: graphql.subscriptions.interval_ms,
      subscriptionMaxEvents: graphql.subscriptions.max_events,
    },
    maxBodyBytes: graphql.max_body_bytes,
    maxResponseBytes: graphql.max_response_bytes,
    sockets: {
      maxConnections: graphql.subscriptions.max_connections,
      maxPerConnection: graphql.subscriptions.max_per_connection,
      maxBufferedBytes: graphql.subscriptions.max_buffered_bytes,
    },
    backend: config.server.http_backend,
  };
}

/**
 * The gRPC server, when the run has .proto files (build-options.ts's protoDirInUse: proto_dir or
 * server.grpc_port set explicitly, or a proto/ folder holding .proto files): it serves the
 * grpc.json the build wrote. `now` as for GraphQL: the pinned instant (--now, --seed) or the real clock.
 */
export function grpcOptions(resolved: ResolvedConfig, buildDir: string): MockOptions['grpc'] {
  if (protoDirInUse(resolved) === undefined) return undefined;
  const { config } = resolved;
  const { grpc } = config;
  const pinned = pinnedNow(config);
  return {
    port: config.server.grpc_port,
    buildFile: path.resolve(buildDir, GRPC_BUILD_FILE),
    reflection: grpc.enable_reflection,
    maxMessageSize: grpc.max_message_size,
    concurrencyLimit: grpc.concurrency_limit,
    ...(grpc.http_bridge.enabled ? { httpBridge: { port: grpc.http_bridge.port, maxBodyBytes: grpc.http_bridge.max_body_bytes, maxStreamMessages: grpc.http_bridge.max_stream_messages } } : {}),
    mock: {
      seed: config.seed,
      now: pinned === undefined ? Date.now : () => pinned,
      rules: grpc.methods,
      stream: { count: grpc.stream.count, intervalMs: grpc.stream.interval_ms },
    },
  };
}

/**
 * Instances sharing their state in Redis must sign admin tokens with one key, or a token one of them
 * issued is refused by the others behind a balancer, now and then, whichever answers. Without
 * JWT_SECRET each would make its own, so admin auth with state.store redis needs it. The key is
 * never put in Redis for them: whoever could read Redis could then mint admin tokens.
 */
export function refuseUnsharedSigningKey(resolved: ResolvedConfig): void {
  const { admin, state } = resolved.config;
  if (state.store !== 'redis' || !admin.auth.enabled || admin.auth.jwt_secret !== undefined) return;
  throw new MockError(
    'MOCK_ERR_AUTH_CONFIG',
    'admin auth with state.store redis needs JWT_SECRET (admin.auth.jwt_secret): every instance sharing the Redis must sign admin tokens with the same key, or a token one issued is refused by the others; set JWT_SECRET to the same random value on each (openssl rand -base64 48), and users in admin.auth.users',
  );
}

/**
 * The embedded admin lives on the HTTP mock server, which runs only with an API description: a
 * project with a GraphQL schema, .proto files or a WebSocket configuration alone must run the
 * admin on its own port.
 */
export function refuseEmbeddedAdminWithoutHttp(resolved: ResolvedConfig): void {
  if (resolved.config.specs.length > 0 || adminMode(resolved)?.standalone !== false) return;
  const source = resolved.sources['admin.embedded'];
  const given = [
    resolved.config.graphql.schema.length > 0 ? 'a GraphQL schema' : undefined,
    protoDirInUse(resolved) !== undefined ? '.proto files' : undefined,
    websocketWanted(resolved) ? 'a WebSocket configuration' : undefined,
  ].filter((what) => what !== undefined);
  const alone = given.length > 1 ? `${given.slice(0, -1).join(', ')} and ${given[given.length - 1]}` : given[0];
  const setting = source === 'flag' ? '--admin-embed' : source === 'file' && resolved.file ? `admin.embedded in ${displayPath(resolved.file.file)}` : 'admin.embedded';
  throw new MockError(
    'MOCK_ERR_CONFIG_INVALID',
    `${setting}: the embedded admin is served by the HTTP mock, which runs only with an API description, and this run has ${alone} alone; run the admin on its own port (--admin, admin.port) or give a description with --spec`,
  );
}

/**
 * The WebSocket server, when asked for (servers-wanted.ts): a port alone, unless given by
 * --ws-port, starts nothing, so that `mock serve` for an HTTP API does not take port 3001 as well.
 */
export function websocketOptions(resolved: ResolvedConfig): MockOptions['websocket'] {
  const { config, sources } = resolved;
  const ws = config.websocket;
  if (!websocketWanted(resolved)) return undefined;
  // replay scripts are confined as every file mock.yaml names
  const routes = (ws.routes ?? []).map((route, i) =>
    route.script === undefined ? route : { ...route, script: readablePath(resolved, `websocket.routes[${i}].script`, route.script, sources['websocket.routes'] ?? 'file') },
  );
  const replayFile =
    ws.replay_file === undefined ? undefined : readablePath(resolved, 'websocket.replay_file', ws.replay_file, sources['websocket.replay_file'], ' (or give it with MOCK_WS_REPLAY_FILE)');
  return {
    port: config.server.ws_port,
    replayFile,
    routes,
    maxConnections: ws.max_connections,
    messageTimeoutMs: ws.message_timeout,
    heartbeatIntervalMs: ws.heartbeat_interval,
    maxMessageBytes: ws.max_message_bytes,
    maxBufferedBytes: ws.max_buffered_bytes,
  };
}

/** core.fixtures as the runtime takes it. */
export function fixtureOptions(config: EffectiveConfig): NonNullable<MockOptions['fixtures']> {
  const f = config.core.fixtures;
  return {
    dir: f.dir,
    record: f.record_enabled,
    replay: f.replay_enabled,
    recordGetOnly: f.record_get_only,
    ignoreQueryParams: f.ignore_query_params,
    matchHeaders: f.match_headers,
    matchBody: f.match_body,
    sequenceEnd: f.sequence_end,
    maxSequence: f.max_sequence,
    watch: f.watch,
    maxRecordingBytes: f.max_recording_mb * 1024 * 1024,
    maxUnsavedBytes: f.max_unsaved_mb * 1024 * 1024,
  };
}

/**
 * proxy.enabled, or an upstream given by --proxy-target or MOCK_PROXY_UPSTREAM without proxy.enabled
 * set anywhere: naming the upstream on the command line or in the environment is asking to proxy to
 * it (the usual way to record a real API). An upstream_url in mock.yaml alone does not proxy: the
 * reality continuum reads it too.
 */
function proxying({ config, sources }: ResolvedConfig): boolean {
  if (config.proxy.enabled || sources['proxy.enabled'] !== 'default') return config.proxy.enabled;
  const given = sources['proxy.upstream_url'];
  return config.proxy.upstream_url !== undefined && (given === 'flag' || given === 'env');
}

/** Where the startup override rules come from, so that an error names the variable or the file key. */
export function overrideSources(resolved: ResolvedConfig): { env: NodeJS.ProcessEnv; cwd: string; configRules?: unknown[]; configGlob?: string; maxRules: number } {
  const { config, sources, projectDir } = resolved;
  const fromEnv = (key: string): boolean => sources[key] === 'env';
  const rules = config.http.overrides?.rules;
  const glob = config.http.overrides?.glob;
  return {
    env: {
      MOCK_HTTP_OVERRIDES: fromEnv('http.overrides.rules') ? process.env.MOCK_HTTP_OVERRIDES : undefined,
      MOCK_HTTP_OVERRIDES_GLOB: fromEnv('http.overrides.glob') ? glob : undefined,
    },
    cwd: fromEnv('http.overrides.glob') ? process.cwd() : projectDir,
    configRules: rules !== undefined && !fromEnv('http.overrides.rules') ? rules : undefined,
    configGlob: glob !== undefined && !fromEnv('http.overrides.glob') ? glob : undefined,
    maxRules: config.admin.limits.max_override_rules,
  };
}

import type { StoreFactory } from '../../runtime/store/index.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ClusterView, RunningMock } from '../../runtime/index.js';
import { protoDirInUse, toBuildOptions } from './build-options.js';
import { buildInWorker } from './build-in-worker.js';
import { progressLine } from './build-progress.js';
import { checkPortClash } from './port-clash.js';
import { loggingOptions } from './project-paths.js';
import { serversTls } from './tls/index.js';
import { overrideSources, refuseEmbeddedAdminWithoutHttp, refuseUnsharedSigningKey, serverHttpVersion, toMockOptions } from './serve-options.js';
import { idlePortNotes } from './servers-wanted.js';
import { activeScenarioSummary, displayPath, type ResolvedConfig } from '../config/index.js';
import { closeLogger, createLogger } from '../logging/index.js';
import { refuseAiWithoutEndpoint } from '../ai/refuse.js';
import { hostingOptions, withHostDescription } from './hosting-options.js';

export interface Serving {
  running: RunningMock;
  logger: Logger;
  /** Closes the servers, then the logger. */
  close(): Promise<void>;
}

export interface StartServingOptions {
  /** --allow-ref: folders a description's $refs may reach outside the project. */
  allowRefs: string[];
  /** Where `mock: rebuilt …` goes (the command's output); nothing when absent. */
  say?: (line: string) => void;
  /** The SDK's `stores`: where the servers keep what requests and the admin API change; default: in memory. */
  stores?: StoreFactory;
  /** This process is one worker of several (mock serve --workers). */
  cluster?: ClusterView;
  /** The admin API's signing key every worker shares when JWT_SECRET is unset (AuthOptions.sharedKey). */
  sharedKey?: Uint8Array;
  /** The GraphQL mock's seed every worker shares when --seed is unset: its answers are a function of the seed, so every worker answers a query alike. */
  sharedGraphqlSeed?: number;
  /**
   * false: the servers only one process can run are left to another worker: gRPC (@grpc/grpc-js
   * cannot share a port), and the admin and metrics servers of their own ports (one admin API, one
   * metrics endpoint, which shows every worker's metrics). Default true.
   */
  soleServers?: boolean;
  /** Runs once the build is up to date, before each server binds its port (mock sync hands each port over from the generation serving so far). */
  beforeListen?: (port: number) => Promise<void>;
  /** The workspace is followed (mock sync): what changes on disk is served without a restart. */
  followed?: boolean;
}

/**
 * What `mock serve` and the SDK's startMockServer start from a resolved configuration: the build
 * brought up to date (in a child process, so the compiler's memory goes with it), then the mock
 * servers (HTTP with a description, WebSocket, GraphQL and gRPC when configured), admin and metrics.
 */
function warnProtoProblems(resolved: ResolvedConfig, dir: string, logger: Logger): void {
  const protoDir = protoDirInUse(resolved);
  if (protoDir === undefined) return;
  let problems: Array<{ file: string; line?: number; column?: number; message: string }>;
  try {
    problems = (JSON.parse(readFileSync(path.join(dir, 'grpc.json'), 'utf8')) as { problems?: typeof problems }).problems ?? [];
  } catch {
    return;
  }
  for (const { file, line, column, message } of problems) {
    const at = line === undefined ? '' : `:${line}${column === undefined ? '' : `:${column}`}`;
    logger.warn(`${displayPath(path.join(protoDir, file))}${at}: ${message} (fix the file; the other files still serve)`);
  }
}

const NO_OPERATIONS = /define no operations/;

export async function startServing(given: ResolvedConfig, options: StartServingOptions): Promise<Serving> {
  const resolved = withHostDescription(given);
  checkPortClash(resolved);
  refuseEmbeddedAdminWithoutHttp(resolved);
  refuseUnsharedSigningKey(resolved);
  refuseAiWithoutEndpoint(resolved);
  const buildOptions = toBuildOptions(resolved, options.allowRefs);
  const logger = createLogger(loggingOptions(resolved));
  let redis: { close(): Promise<void> } | undefined;
  try {
    // said before anything is built: hosted mode without its token is a one-line error
    const hosting = hostingOptions(resolved, (line) => logger.warn(line));
    let stores = options.stores;
    if (stores === undefined && resolved.config.state.store === 'redis') {
      // loaded only when asked for: a memory store never loads the Redis client
      const { RedisStores } = await import('../../runtime/store/redis-stores.js');
      stores = redis = await RedisStores.connect(resolved.config.state.redis_url, resolved.config.state.redis_key_prefix, (message) => logger.warn(message));
    }
    // Loaded on use, so that --help and --print-config do not load the compiler or the server.
    const compiler = await import('../../compiler/serving.js');
    const upToDate = async (label: string): Promise<{ dir: string; written?: number }> => {
      const check = await compiler.isBuildStale(buildOptions);
      if (!check.stale) return { dir: check.dir };
      const progress = progressLine(process.stderr, label);
      const built = await buildInWorker(buildOptions, progress?.report).finally(() => progress?.done());
      // a host's empty description (hosted mode without an API of its own) has no operations by design
      for (const warning of built.warnings) if (resolved === given || !NO_OPERATIONS.test(warning)) logger.warn(warning);
      return { dir: built.dir, written: built.written.length };
    };
    // a WebSocket configuration alone has nothing to build (the folder is where a build would go, which the admin's file editor keeps off)
    const nothingToBuild = buildOptions.specs.length === 0 && (buildOptions.graphqlSchemas ?? []).length === 0 && buildOptions.protoDir === undefined;
    const build = nothingToBuild ? { dir: path.join(buildOptions.outDir, buildOptions.name ?? 'mock') } : await upToDate('mock serve: building');
    const scenario = activeScenarioSummary(resolved.projectDir);
    if (scenario !== undefined) options.say?.(`mock: serving scenario ${scenario} under ${resolved.file ? displayPath(resolved.file.file) : 'the defaults'} (mock scenario use --clear stops)`);
    if (build.written !== undefined) options.say?.(`mock: rebuilt ${displayPath(build.dir)} (${build.written} file(s) written)`);
    // .proto files left out are said on every start, not only by the build that found them
    else if (!nothingToBuild) warnProtoProblems(resolved, build.dir, logger);
    const { startMock, loadOverrides } = await import('../../runtime/index.js');
    const overrides = loadOverrides(overrideSources(resolved));
    const mockOptions = toMockOptions(resolved, build.dir, logger, {
      rebuild: async () => (await upToDate('mock serve: rebuilding')).dir,
      overrides,
      version: compiler.TOOL_VERSION,
      followed: options.followed,
    });
    mockOptions.hosting = hosting;
    const tls = await serversTls(resolved, options.say);
    if (tls.http !== undefined) mockOptions.tls = tls.http;
    // browsers speak HTTP/2 only over TLS: there auto is 2
    if (tls.http !== undefined && resolved.config.server.http_version === 'auto') mockOptions.httpVersion = '2';
    const { config } = resolved;
    if (mockOptions.admin !== undefined) mockOptions.admin = { ...mockOptions.admin, tls: tls.admin, httpVersion: serverHttpVersion(config, 'admin', tls.admin !== undefined) };
    if (mockOptions.metrics !== undefined) mockOptions.metrics = { ...mockOptions.metrics, tls: tls.metrics, httpVersion: serverHttpVersion(config, 'metrics', tls.metrics !== undefined) };
    if (mockOptions.websocket !== undefined && tls.websocket !== undefined) mockOptions.websocket = { ...mockOptions.websocket, tls: tls.websocket };
    if (mockOptions.graphql !== undefined) mockOptions.graphql = { ...mockOptions.graphql, tls: tls.graphql, httpVersion: serverHttpVersion(config, 'graphql', tls.graphql !== undefined) };
    if (mockOptions.grpc !== undefined && tls.grpc !== undefined) mockOptions.grpc = { ...mockOptions.grpc, tls: tls.grpc };
    if (resolved.config.ai.enabled) mockOptions.ai = await (await import('../ai/options.js')).aiOptions(resolved, options.allowRefs, logger);
    if (options.soleServers === false) {
      mockOptions.grpc = undefined;
      if (mockOptions.metrics !== undefined) mockOptions.metrics = { ...mockOptions.metrics, listen: false };
      if (mockOptions.admin?.standalone === true) mockOptions.admin = undefined;
    }
    const started = { websocket: mockOptions.websocket !== undefined, graphql: mockOptions.graphql !== undefined, grpc: mockOptions.grpc !== undefined };
    for (const note of idlePortNotes(resolved, started)) logger.info(note);
    const auth = options.sharedKey === undefined ? mockOptions.auth : { ...mockOptions.auth, sharedKey: options.sharedKey };
    if (mockOptions.graphql !== undefined && mockOptions.graphql.mock.seed === undefined && options.sharedGraphqlSeed !== undefined) {
      mockOptions.graphql = { ...mockOptions.graphql, mock: { ...mockOptions.graphql.mock, seed: options.sharedGraphqlSeed } };
    }
    const running = await startMock({ ...mockOptions, auth, stores, cluster: options.cluster, beforeListen: options.beforeListen });
    return {
      running,
      logger,
      close: async () => {
        await running.close();
        await redis?.close();
        await closeLogger(logger);
      },
    };
  } catch (e) {
    await redis?.close();
    await closeLogger(logger);
    throw e;
  }
}

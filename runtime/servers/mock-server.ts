import type { SocketEndpoint } from './http/index.js';
import type { HostedSurface } from '../hosting/index.js';
import type { PluginHost } from '../plugins/index.js';
import type { ControlHandler } from '../control/admin/index.js';
import type { LiveState } from '../chain/settings/index.js';
import type { RecorderDb } from '../chain/recorder/index.js';
import type { RequestLog } from '../control/logging/index.js';
import type { TrafficStats } from '../control/metrics/index.js';
import type { RegisteredServer, ServerRegistry } from '../control/registry/index.js';
import type { MockOptions } from './mock-options.js';
import type { FixtureRecorder, FixtureStore } from '../chain/fixtures/index.js';
import type { StatefulService } from '../chain/stateful/index.js';
import type { EntityService } from '../chain/entities/index.js';
import { HttpMockServer } from './http-mock-server.js';
import { WebSocketMockServer } from './websocket-mock-server.js';
import type { LiveCheck } from '../contract-diff/index.js';
import type { CallbackSender, ServedWebhooks } from '../callbacks/index.js';
import type { OperationMeta, CallbackMeta } from '../../common/contract/index.js';

/** What a protocol server's factory gets: the options and the state every server of the process shares. */
export interface ServerContext {
  options: MockOptions;
  live: LiveState;
  stats: TrafficStats;
  requestLog: RequestLog;
  /** Where each server lists itself from creation until it closes. */
  registry: ServerRegistry;
  /** The admin is embedded in the server that hosts control: it sandboxes every answer. */
  embedded: boolean;
  /** core.fixtures, shared by every protocol's server: replay and recording. */
  fixtures?: { store: FixtureStore; recorder: FixtureRecorder };
  /** The recorder database, shared by every server of the process (--recorder). */
  recorderDb?: RecorderDb;
  /** core.stateful: one state per resource for every server of the process. */
  stateful?: StatefulService;
  /** contract_diff.capture: the check of what upstreams answer. */
  liveCheck?: LiveCheck;
  /** The installed plugins, shared by every server of the process. */
  plugins?: PluginHost;
  /** The collections of the scenario in use (vbr_entities). */
  entities?: EntityService;
  /** Sends the callbacks the HTTP mock's routes declare. */
  callbacks?: CallbackSender;
}

/** A protocol server as startMock runs it. */
export interface MockServer extends RegisteredServer {
  readonly host: string;
  /** The bound port once it listens (the asked one before). */
  readonly port: number;
  /** The HTTP server library answering (uws or node), for servers that choose one. */
  readonly backend?: string;
  listen(): Promise<void>;
  /** Stops accepting, lets what it is answering finish for up to `graceMs` (0: not at all), then ends every connection. */
  close(graceMs?: number): Promise<void>;
  /** The HTTP mock: the first description's mount (`/v1`: its base_path or first server's path; '' at the root), for the address mock serve prints. */
  readonly basePath?: string;
  /** Servers that can answer the management router and the embedded admin (HTTP) on their port, with its live stream; set before listen. */
  hostControl?(control: ControlHandler, page?: string, stream?: SocketEndpoint): void;
  /** Hosted mode's tenants beside the mocked API (the HTTP mock). Set before listen. */
  hostTenants?(surface: HostedSurface): void;
  /** The HTTP mock: the webhooks of the descriptions it serves now. */
  webhooks?(): ServedWebhooks;
  /** The HTTP mock: the operations and callbacks of the descriptions it serves now. */
  callbacks?(): { operations: readonly OperationMeta[]; callbacks: readonly CallbackMeta[] };
}

/** A protocol server for the configuration, or undefined when it asks for none. */
export type ServerFactory = (context: ServerContext) => Promise<MockServer | undefined>;

/** The HTTP mock server; embedded, the admin page shares its origin, so every answer is sandboxed (access-policy.ts). */
const httpServer: ServerFactory = async ({ options, live, stats, requestLog, registry, embedded, fixtures, recorderDb, stateful, liveCheck, plugins, entities, callbacks }) =>
  // none without a description (MockOptions.httpMock false: a GraphQL schema alone)
  options.httpMock === false
    ? undefined
    : HttpMockServer.create({ ...options, live, stats, requestLog, registry, sandboxAnswers: embedded, fixtureService: fixtures, recorderDb, statefulService: stateful, liveCheck, pluginHost: plugins, entityService: entities, callbackSender: callbacks });

/** The WebSocket mock server, when the configuration asks for one (MockOptions.websocket). */
const websocketServer: ServerFactory = async ({ options, live, stats, requestLog, registry, fixtures, plugins }) => {
  const settings = options.websocket;
  if (settings === undefined) return undefined;
  const { host, logger, seed, httpBackend } = options;
  return new WebSocketMockServer({ settings, host, live, stats, requestLog, logger, seed, registry, backend: settings.backend ?? httpBackend, fixtures: fixtures?.store, plugins });
};

/** The GraphQL mock server, when a schema is given (MockOptions.graphql); graphql and graphql-jit load only then. */
const graphqlServer: ServerFactory = async ({ options, live, requestLog, registry, recorderDb, plugins }) => {
  const settings = options.graphql;
  if (settings === undefined) return undefined;
  const { GraphqlMockServer } = await import('./graphql-mock-server.js');
  const { host, logger, maxConnections, cors, httpBackend } = options;
  return GraphqlMockServer.create({ settings, host, live, requestLog, registry, logger, maxConnections, cors, recorderDb, backend: settings.backend ?? httpBackend, plugins });
};

/** The gRPC mock server, when there are .proto files to serve (MockOptions.grpc); grpc-js and protobufjs load only then. */
const grpcServer: ServerFactory = async ({ options, live, requestLog, registry, fixtures, plugins }) => {
  const settings = options.grpc;
  if (settings === undefined) return undefined;
  const { GrpcMockServer } = await import('./grpc-mock-server.js');
  const { host, logger, maxConnections } = options;
  const recorded = fixtures === undefined ? undefined : { store: fixtures.store, watch: options.fixtures?.watch ?? false };
  return GrpcMockServer.create({ settings, host, live, requestLog, registry, logger, maxConnections, cors: options.cors, fixtures: recorded, plugins });
};

/** The protocol servers of `mock serve`, started in this order. */
export const SERVERS: readonly ServerFactory[] = [httpServer, websocketServer, graphqlServer, grpcServer];

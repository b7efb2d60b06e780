import type { StoreFactory } from '../store/index.js';
import type { AccessPolicyOptions, ClusterView, ScenarioControl } from '../control/admin/index.js';
import type { AuthOptions } from '../control/auth/index.js';
import type { LiveStateOptions } from '../chain/settings/index.js';
import type { BodyLogOptions, RedactionOptions } from '../control/logging/index.js';
import type { AdminLimits, HttpVersion, ServeOptions, TlsOptions } from '../serve-options.js';
import type { FixtureOptions } from '../chain/fixtures/index.js';
import type { StatefulOptions } from '../chain/stateful/index.js';
import type { PluginOptions } from '../plugins/index.js';
import type { EntityOptions } from '../chain/entities/index.js';
import type { WebSocketOptions } from './websocket/index.js';
import type { GraphqlOptions } from './graphql/graphql-options.js';
import type { GrpcOptions } from './grpc/grpc-options.js';
import type { HostingOptions } from '../hosting/index.js';

export interface AdminServerOptions {
  /** false: embedded in the HTTP mock server (API under /__mock, page at mountPath). */
  standalone: boolean;
  port: number;
  /** Where the standalone admin server listens (admin.bind, loopback by default). */
  host: string;
  mountPath: string;
  /** false: only the page answers (admin.disable_api). */
  api: boolean;
  /** The standalone server's TLS: admin.tls, else server.tls. */
  tls?: TlsOptions;
  /** The standalone server's HTTP version (admin.http_version, else server.http_version); absent: 1.1. */
  httpVersion?: HttpVersion;
}

/** What hosted mode takes from the configuration; the stores, limits and Host rules are the server's. */
export type HostedModeOptions = Pick<HostingOptions, 'plans' | 'declared' | 'managementToken' | 'dir' | 'build'>;

export interface MockOptions extends ServeOptions {
  /** Brings the build up to date for a restart (src/ passes the compiler's rebuild-if-stale). */
  rebuild?: () => Promise<string>;
  specPath: string | null;
  /**
   * false: no HTTP mock server runs, because the project has no API description (a GraphQL schema
   * alone: the build holds schema.graphql and no HTTP mock; specPath is null then). Default true.
   */
  httpMock?: boolean;
  live?: LiveStateOptions;
  /** Where every piece of state a request or the admin API changes is kept; default: this process's memory (MemoryStores). */
  stores?: StoreFactory;
  /** This process is one worker of several (mock serve --workers): what the admin API says of them all. */
  cluster?: ClusterView;
  admin?: AdminServerOptions;
  /** `listen` false: the metrics are kept but served by another worker's endpoint (mock serve --workers). */
  metrics?: { port: number; host: string; listen?: boolean; tls?: TlsOptions; httpVersion?: HttpVersion };
  auth: AuthOptions;
  /** Host names and browser origins the admin API and the management router answer; default: this machine's only. */
  access?: AccessPolicyOptions;
  /** Which values the request log hides; default: the credential headers and the descriptions' apiKey parameters. */
  redaction?: RedactionOptions;
  /** logging.request_lines_per_second: most info lines of single requests a second (0: every request). */
  requestLinesPerSecond?: number;
  /** logging.bodies: the request log keeps bodies within these bounds; undefined keeps none. */
  logBodies?: BodyLogOptions;
  /** MOCK_ variables the configuration reads (GET /__mock/env). */
  envVariables: readonly string[];
  /** Where files/content and files/save may read and write. */
  projectDir: string;
  /** The configuration file in use (editable through files/save even when dot-prefixed). */
  configFile?: string;
  version: string;
  /** admin.limits; default: the configuration's defaults. */
  limits?: AdminLimits;
  /** core.fixtures: the folder the admin API lists, replay answers from and recording writes to; absent: none. */
  fixtures?: FixtureOptions;
  /** recorder.enabled: every exchange goes to this SQLite file (absolute; its folder is made). */
  recorder?: { dbPath: string };
  /** core.stateful: state machines, when enabled. */
  stateful?: StatefulOptions;
  /** mock.yaml plugins: every plugin installed in its dir is loaded, each in its sandbox. */
  plugins?: PluginOptions;
  /** The vbr_entities of the scenario in use: stateful collections (docs/scenarios.md). */
  entities?: EntityOptions[];
  /** The project's scenario packages, for the admin API's /api/scenarios endpoints. */
  scenarios?: ScenarioControl;
  /** The WebSocket mock server; absent: none runs. */
  websocket?: WebSocketOptions;
  /** The GraphQL mock server; absent: none runs. */
  graphql?: GraphqlOptions;
  /** The gRPC mock server; absent: none runs. */
  grpc?: GrpcOptions;
  /** server.shutdown_timeout_ms: how long a close waits for the requests being answered (0, the default: not at all). */
  shutdownGraceMs?: number;
  /** Hosted mode (tenancy in mock.yaml, docs/hosting.md): tenants' mocks under /api/v1/hosted-mocks on the HTTP mock's port. */
  hosting?: HostedModeOptions;
  /** Runs before each server binds its port (the configured one; 0: any), so that whoever held it can let it go first (mock sync). */
  beforeListen?: (port: number) => Promise<void>;
}

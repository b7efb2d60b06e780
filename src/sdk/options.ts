import type { MockConfig } from '../config/index.js';
import type { StoreFactory } from '../../runtime/store/index.js';

/** Every key optional, at any depth: what a configuration written by hand may leave to the defaults. */
export type DeepPartial<T> = T extends ReadonlyArray<infer U> ? Array<DeepPartial<U>> : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/** One rule of the conditional proxy (docs/proxy-continuum.md). */
export interface ProxyRule {
  /** A path glob: `*` within a segment, `**` any number of segments (`/api/admin/**`). */
  pattern: string;
  /** Where matching requests go; absent: `proxy.upstream_url`. */
  upstream_url?: string;
  /**
   * A condition expression, parsed once at start (a malformed one is refused with its position):
   * `$.user.role == 'admin'`, `header[x-beta] != ''`, `query[version] == '2'`, and `AND(...)`,
   * `OR(...)`, `NOT(...)` of them. Absent: every request the pattern matches.
   */
  condition?: string;
}

/** The spec's `ProxyConfig`: the upstream, and the rules that send selected requests to it. */
export interface ProxyOptions {
  /** Forward every request that no rule, runtime mock or continuum path answered to `upstream_url`. Default false. */
  enabled?: boolean;
  upstream_url?: string;
  /** Default 30, at most 3600: after it, 504. */
  timeout_seconds?: number;
  /** Tried in order; the first whose pattern matches and whose condition holds forwards the request, whatever `enabled` says. */
  rules?: ProxyRule[];
}

/**
 * What startMockServer takes: the keys of mock.yaml (docs/configuration.md), every one optional,
 * plus where the description and the files are. Neither MOCK_* variables nor a mock.yaml found by
 * search are read: an embedded mock is configured by its caller alone.
 */
export interface MockServerOptions extends Omit<DeepPartial<MockConfig>, 'proxy'> {
  /** The API description(s): files (relative to `cwd`) or URLs; replaces `specs`. */
  spec?: string | string[];
  /** A mock.yaml to start from; these options override it key by key. */
  configFile?: string;
  /** What relative paths resolve against when no configFile is given; default process.cwd(). */
  cwd?: string;
  /** Folders (or http(s) URL prefixes) the descriptions' external $refs may read besides the project (--allow-ref). */
  allowRefs?: string[];
  proxy?: ProxyOptions;
  /**
   * Where every piece of state a request or the admin API changes is kept (state machines,
   * GraphQL's objects, rate-limit buckets, the breaker, runtime mocks, the live settings, replay
   * positions); default: this process's memory. Servers started with the same factory share all
   * of it, as instances sharing one Redis will.
   */
  stores?: StoreFactory;
}

/** A running mock. */
export interface MockServer {
  /** Where the mock answers, e.g. `http://127.0.0.1:41234` (an unspecified bind address shows as loopback); with a GraphQL schema alone, the GraphQL server's base URL. */
  readonly url: string;
  readonly port: number;
  /** The admin API's base URL when admin.enabled runs it on its own port (`http://127.0.0.1:9080`; its API is under /__mock/). */
  readonly adminUrl?: string;
  /** The WebSocket server's base URL when one runs (`ws://127.0.0.1:3001`: `websocket` or `server.ws_port` set; docs/websocket.md). */
  readonly wsUrl?: string;
  /** The GraphQL endpoint when a schema is given (`http://127.0.0.1:4000/graphql`: `graphql.schema` set; docs/graphql.md); subscriptions use its ws:// form. */
  readonly graphqlUrl?: string;
  /** Where gRPC clients dial when the gRPC server runs (`127.0.0.1:50051`: .proto files in grpc.proto_dir; docs/grpc.md). */
  readonly grpcAddress?: string;
  /** Stops every server it started. */
  close(): Promise<void>;
}

import type { TlsOptions } from '../../serve-options.js';
import type { GraphqlMockSettings } from '../../terminal/graphql/settings.js';
import type { HttpBackend, HttpVersion } from '../../serve-options.js';

/** The GraphQL mock server (MockOptions.graphql); absent: none runs. */
export interface GraphqlOptions {
  /** graphql.tls, else server.tls: https:// (and wss:// subscriptions). */
  tls?: TlsOptions;
  /** server.graphql_port, --graphql-port, MOCK_GRAPHQL_PORT (4000). */
  port: number;
  /** graphql.path: where queries, mutations and graphql-transport-ws subscriptions are answered. */
  path: string;
  /** The schema the build wrote (absolute path of <build>/schema.graphql). */
  schemaFile: string;
  mock: GraphqlMockSettings;
  /** graphql.max_body_bytes: the largest request body, and graphql-transport-ws message. */
  maxBodyBytes: number;
  /** graphql.max_response_bytes: the largest answer, as JSON, over HTTP and the WebSocket. */
  maxResponseBytes: number;
  /** graphql.subscriptions' limits of the graphql-transport-ws connections. */
  sockets: SocketLimits;
  /** server.http_backend, as for the HTTP mock. */
  backend?: HttpBackend;
  /** graphql.http_version, else server.http_version; absent: 1.1 (docs/http2.md). */
  httpVersion?: HttpVersion;
}

/** The limits of the graphql-transport-ws connections (graphql.subscriptions). */
export interface SocketLimits {
  /** max_connections: open connections at most; the next upgrade gets 503. */
  maxConnections: number;
  /** max_per_connection: operations one connection runs at once. */
  maxPerConnection: number;
  /** max_buffered_bytes: bytes a client may leave unread before it is cut off. */
  maxBufferedBytes: number;
}

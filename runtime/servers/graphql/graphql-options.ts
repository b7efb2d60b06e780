import type { GraphqlMockSettings } from '../../terminal/graphql/settings.js';
import type { HttpBackend } from '../../serve-options.js';

/** The GraphQL mock server (MockOptions.graphql); absent: none runs. */
export interface GraphqlOptions {
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
  /** server.http_backend, as for the HTTP mock. */
  backend?: HttpBackend;
}

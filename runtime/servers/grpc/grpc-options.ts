import type { TlsOptions } from '../../serve-options.js';
import type { GrpcMockSettings } from '../../terminal/grpc/settings.js';

/** The gRPC mock server (MockOptions.grpc); absent: none runs. */
export interface GrpcOptions {
  /** grpc.tls, else server.tls: the server (and its HTTP bridge) over TLS. */
  tls?: TlsOptions;
  /** server.grpc_port, --grpc-port, MOCK_GRPC_PORT (50051). */
  port: number;
  /** The build's grpc.json (absolute): common/grpc/build-output.ts. */
  buildFile: string;
  /** grpc.enable_reflection: grpc.reflection.v1 and v1alpha. */
  reflection: boolean;
  /** grpc.max_message_size, bytes, each way. */
  maxMessageSize: number;
  /** grpc.concurrency_limit: calls in flight per connection; more get RESOURCE_EXHAUSTED. */
  concurrencyLimit: number;
  /** grpc.http_bridge: methods also over HTTP/JSON on this port (google.api.http paths and POST /<Service>/<Method>); absent: off. */
  httpBridge?: {
    port: number;
    /** grpc.http_bridge.max_body_bytes: a larger request body is refused (413) before it is parsed. */
    maxBodyBytes: number;
    /** grpc.http_bridge.max_stream_messages: the most messages of a client- or bidirectional-streaming array. */
    maxStreamMessages: number;
  };
  mock: GrpcMockSettings;
}

/**
 * One entry of mock.yaml's `grpc.methods` (checked by the configuration schema; compiled by the
 * runtime engine). Messages are plain objects in protobufjs' object form with the field names of
 * the .proto (int64 as decimal strings, enums by name, bytes as base64 text); every string in them
 * may hold template tokens over the request: `{{request.body.<field path>}}` (the request message;
 * for client streams the last one), `{{request.header.<metadata key>}}`, and the usual tokens.
 */
export interface GrpcMethodRule {
  /** `package.Service/Method`; `package.Service/*` for every method of a service. */
  method: string;
  /** All must hold; absent: every call. */
  match?: {
    /** JSONPath conditions of the one condition dialect on the request message (client streams: any message received). */
    request?: Record<string, unknown>;
    /** Metadata keys (lower case) to exact values, or the dialect's condition objects. */
    metadata?: Record<string, unknown>;
  };
  /** Before the answer (each message of a stream: before each). */
  delay_ms?: number;
  /** The answer: unary, client streaming (after the half-close), each bidi reply, every server-stream message. */
  response?: Record<string, unknown>;
  /** Server streaming: these messages in order, each after its delay_ms (default grpc.stream.interval_ms). */
  responses?: Array<{ message: Record<string, unknown>; delay_ms?: number }>;
  /** Answer with this status instead (after `responses`, for a stream that fails midway). */
  error?: GrpcErrorRule;
  /** Bidirectional streaming: the replay idea applied to messages, played top to bottom. */
  script?: Array<{ expect?: Record<string, unknown>; send?: Array<Record<string, unknown>>; delay_ms?: number; error?: GrpcErrorRule }>;
}

export interface GrpcErrorRule {
  /** A status name (NOT_FOUND) or number (5). */
  code: string | number;
  message?: string;
  /** Rich error details (google.rpc.Status.details): `{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain, metadata }` and the other google/rpc/error_details.proto types. */
  details?: Array<Record<string, unknown>>;
  /** Trailing metadata sent with the status. */
  trailers?: Record<string, string>;
}

import type { AnswerSource } from './answer-source.js';

/**
 * The spec's "Request log entry" resource, as the admin API, the log stream and the JSON log lines
 * carry it: declared once, for the server that writes it and the clients that read it (the web
 * dashboard, `mock tui`).
 */
export interface RequestLogEntryJson {
  id: string;
  /** ISO 8601, when the response was written. */
  timestamp: string;
  method: string;
  /** Path without the query string, as received. */
  path: string;
  status_code: number;
  /** What made the answer (common/answer-source.ts): example, generated, runtime_mock, fixture, proxy, chaos, refusal … */
  source: AnswerSource;
  response_time_ms: number;
  client_ip: string;
  user_agent: string | null;
  /** Request headers, lower-case names; credentials show as `[redacted]`. */
  headers: Record<string, string>;
  response_size_bytes: number;
  /** Why it was refused or failed: the reason's detail (the problem's detail, X-Mock-Error-Detail uncut); null for an answer. */
  error_message: string | null;
  /** A refusal's or failure's catalogue code and detail; present only for such an answer. */
  error?: ErrorLog;
  /** What the client sent (logging.bodies); present when it sent a body and the log keeps it. */
  request_body?: LoggedBody;
  /** What the mock answered (logging.bodies); present when the answer had content and the log keeps it. */
  response_body?: LoggedBody;
  /** What chaos did to the answer; present only when it did something. */
  chaos?: ChaosLog;
  /** The route that answered (`GET /v1/pets/{petId}`, a runtime mock's `METHOD path`, `WS /chat/{room}`, `POST /pkg.Service/Method`); HTTP requests: null when none matched. */
  route?: string | null;
  /** HTTP requests: the query string without `?`, secret parameters' values redacted. */
  query?: string;
  /** A WebSocket session (status 101): its messages and how it closed; response_time_ms is its duration. */
  websocket?: WebSocketSessionLog;
  /** A GraphQL operation: which one ran (a subscription's entry is written when it ends). */
  graphql?: GraphqlOperationLog;
  /** A gRPC call, written when it ends. */
  grpc?: GrpcCallLog;
  /** A callback or webhook the mock sent. */
  callback?: CallbackLog;
}

export interface ErrorLog {
  /** The catalogue code (MOCK_ERR_…), as X-Mock-Error-Code carries it. */
  code: string;
  detail: string;
}

/**
 * A body as the log keeps it, credentials redacted (JSON members and form fields named like
 * secrets). Text when it is text, else base64 with `encoding`; past logging.bodies.max_body_bytes
 * its first bytes, `truncated` set. `size` is the whole body's, in bytes.
 */
export interface LoggedBody {
  text: string;
  encoding?: 'base64';
  size: number;
  truncated?: true;
  /** Its media type, when it said one. */
  content_type?: string;
}

export interface ChaosLog {
  fault: string | null;
  latency_ms: number | null;
}

export interface GraphqlOperationLog {
  operation_name: string | null;
  operation_type: 'query' | 'mutation' | 'subscription';
  /** Events a subscription sent. */
  events?: number;
}

/** A gRPC call: path is /<package.Service>/<Method>, status_code its status mapped to HTTP (the spec's integer); its own status is here. */
export interface GrpcCallLog {
  /** The gRPC status name: OK, NOT_FOUND, … (what the console line, the dashboards and the metrics show, and `?status=` filters on). */
  status: string;
  /** Its number (grpc/doc/statuscodes.md): 0 OK, 5 NOT_FOUND, … */
  code: number;
  messages_in: number;
  messages_out: number;
  /** A call answered from a recording: its file below core.fixtures.dir. */
  fixture?: string;
}

export interface WebSocketSessionLog {
  messages_in: number;
  messages_out: number;
  close_code: number;
  close_reason: string;
  /** What played: echo, answers, script <file>, fixture <file>. */
  played: string;
}

/**
 * A request the mock sent (source `callback`, docs/callbacks-webhooks.md): an OpenAPI callback after
 * a route answered, or a webhook. The entry's method and path are the request's; status_code the
 * last answer's status (0 when none came).
 */
export interface CallbackLog {
  kind: 'callback' | 'webhook';
  /** The callback's or webhook's name. */
  name: string;
  /** Where it went, without userinfo and query (either may carry a credential). */
  url: string;
  /** delivered: a 1xx-3xx answer; failed: no 2xx after every attempt; refused: not sent (the allowlist, a bad URL). */
  outcome: 'delivered' | 'failed' | 'refused';
  attempts: number;
  /** The route whose answer sent it (`POST /streams`); absent for webhooks. */
  trigger?: string;
  /** How a webhook was sent: on demand (the admin API) or by a schedule. */
  via?: 'admin' | 'schedule';
}

/** What a protocol other than HTTP adds to its entries. */
export interface ProtocolLog {
  websocket?: WebSocketSessionLog;
  graphql?: GraphqlOperationLog;
  grpc?: GrpcCallLog;
  callback?: CallbackLog;
}

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
  error_message: string | null;
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

/** A gRPC call: path is /<package.Service>/<Method>, status_code its status mapped to HTTP. */
export interface GrpcCallLog {
  /** The gRPC status name: OK, NOT_FOUND, … */
  status: string;
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

/** What a protocol other than HTTP adds to its entries. */
export interface ProtocolLog {
  websocket?: WebSocketSessionLog;
  graphql?: GraphqlOperationLog;
  grpc?: GrpcCallLog;
}

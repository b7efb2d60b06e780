import { randomBytes } from 'node:crypto';
import { readableAddress } from '../../chain/exchange/index.js';
import { Redaction } from './redaction.js';

/** The spec's "Request log entry" resource, as the admin API and the JSON log lines carry it. */
export interface RequestLogEntryJson {
  id: string;
  /** ISO 8601, when the response was written. */
  timestamp: string;
  method: string;
  /** Path without the query string, as received. */
  path: string;
  status_code: number;
  response_time_ms: number;
  client_ip: string;
  user_agent: string | null;
  /** Request headers, lower-case names; credentials show as `[redacted]` (see Redaction). */
  headers: Record<string, string>;
  response_size_bytes: number;
  error_message: string | null;
  /** What chaos did to the answer; present only when it did something. */
  chaos?: { fault: string | null; latency_ms: number | null };
  /** HTTP requests: the route that answered (`GET /v1/pets/{petId}`, a runtime mock's `METHOD path`), null when none matched. */
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

/** What a protocol adds to its entries. */
export interface ProtocolLog {
  websocket?: WebSocketSessionLog;
  graphql?: GraphqlOperationLog;
  grpc?: GrpcCallLog;
}

export interface WebSocketSessionLog {
  messages_in: number;
  messages_out: number;
  close_code: number;
  close_reason: string;
  /** What played: echo, answers, script <file>, fixture <file>. */
  played: string;
}

/** Distinguishes ids across restarts of the server; the per-request part is a counter. */
const ID_PREFIX = randomBytes(3).toString('hex');
const DEFAULT_REDACTION = new Redaction();
let sequence = 0;
const latin1 = new TextDecoder('latin1');

// Under load many requests share a millisecond: format each millisecond once.
let lastMs = Number.NaN;
let lastIso = '';
function isoInstant(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/**
 * One handled request. Built on the request path, so it only stores what it is given: the id,
 * the ISO timestamp, the client address text and the redacted headers are derived when first read
 * (by the JSON log line, the admin API or a filter), never per request. The headers as received
 * never leave the entry.
 */
export class RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status_code: number;
  readonly response_time_ms: number;
  readonly user_agent: string | null;
  readonly response_size_bytes: number;
  readonly error_message: string | null;
  readonly chaos: RequestLogEntryJson['chaos'];
  readonly websocket: WebSocketSessionLog | undefined;
  readonly graphql: GraphqlOperationLog | undefined;
  readonly grpc: GrpcCallLog | undefined;
  readonly route: string | null | undefined;
  /** Epoch milliseconds. */
  readonly time: number;
  private readonly seq: number;
  private address: ArrayBuffer | string;
  private received: Record<string, string>;
  private redacted: Record<string, string> | undefined;
  private rawQuery: string | undefined;
  private queryRedacted = false;
  private readonly redaction: Redaction;

  constructor(
    method: string,
    path: string,
    statusCode: number,
    responseTimeMs: number,
    clientAddress: ArrayBuffer | string,
    headers: Record<string, string>,
    responseSizeBytes: number,
    errorMessage: string | null,
    redaction: Redaction = DEFAULT_REDACTION,
    time = Date.now(),
    chaos?: RequestLogEntryJson['chaos'],
    protocol?: ProtocolLog,
    route?: string | null,
    query?: string,
  ) {
    this.chaos = chaos;
    this.websocket = protocol?.websocket;
    this.graphql = protocol?.graphql;
    this.grpc = protocol?.grpc;
    this.route = route;
    this.rawQuery = query;
    this.seq = ++sequence;
    this.time = time;
    this.method = method;
    this.path = path;
    this.status_code = statusCode;
    this.response_time_ms = responseTimeMs;
    this.address = clientAddress;
    this.received = headers;
    this.redaction = redaction;
    this.user_agent = headers['user-agent'] ?? null;
    this.response_size_bytes = responseSizeBytes;
    this.error_message = errorMessage;
  }

  /** Short and unique: a per-process prefix and a base-36 sequence number (`3fa9c1-2k`). */
  get id(): string {
    return `${ID_PREFIX}-${this.seq.toString(36)}`;
  }

  get timestamp(): string {
    return isoInstant(this.time);
  }

  /** Request headers with credentials redacted. */
  get headers(): Record<string, string> {
    if (this.redacted === undefined) {
      this.redacted = this.redaction.headers(this.received);
      // the raw headers are not needed any more: drop them, so nothing can read them later
      this.received = this.redacted;
    }
    return this.redacted;
  }

  /** HTTP requests: the query string with secret parameters' values redacted; undefined for other protocols. */
  get query(): string | undefined {
    if (!this.queryRedacted && this.rawQuery !== undefined) {
      this.rawQuery = this.redaction.queryString(this.rawQuery);
      this.queryRedacted = true;
    }
    return this.rawQuery;
  }

  get client_ip(): string {
    if (typeof this.address !== 'string') this.address = readableAddress(latin1.decode(this.address));
    return this.address;
  }

  toJSON(): RequestLogEntryJson {
    return {
      id: this.id,
      timestamp: this.timestamp,
      method: this.method,
      path: this.path,
      status_code: this.status_code,
      response_time_ms: this.response_time_ms,
      client_ip: this.client_ip,
      user_agent: this.user_agent,
      headers: this.headers,
      response_size_bytes: this.response_size_bytes,
      error_message: this.error_message,
      ...(this.chaos === undefined ? {} : { chaos: this.chaos }),
      ...(this.route === undefined ? {} : { route: this.route, query: this.query }),
      ...(this.websocket === undefined ? {} : { websocket: this.websocket }),
      ...(this.graphql === undefined ? {} : { graphql: this.graphql }),
      ...(this.grpc === undefined ? {} : { grpc: this.grpc }),
    };
  }
}

/** The admin API's `GET /__mock/logs` query. */

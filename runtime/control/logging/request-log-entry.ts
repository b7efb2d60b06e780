import { randomBytes } from 'node:crypto';
import type { AnswerSource } from '../../../common/answer-source.js';
import { readableAddress, type RequestRecord } from '../../chain/exchange/index.js';
import type { CallbackLog, ChaosLog, ErrorLog, GraphqlOperationLog, GrpcCallLog, LoggedBody, RequestLogEntryJson, WebSocketSessionLog } from '../../../common/request-log.js';
import { shownBody, type EntryBodies } from './kept-bodies.js';
import { Redaction } from './redaction.js';

export type { ChaosLog, ErrorLog, GraphqlOperationLog, GrpcCallLog, LoggedBody, ProtocolLog, RequestLogEntryJson, WebSocketSessionLog } from '../../../common/request-log.js';

/** Distinguishes ids across restarts of the server; the per-request part is a counter. */
const ID_PREFIX = randomBytes(3).toString('hex');
const DEFAULT_REDACTION = new Redaction();
let sequence = 0;
const latin1 = new TextDecoder('latin1');

// Under load many requests share a millisecond: format each millisecond once.
let lastMs = Number.NaN;
let lastIso = '';
function isoInstant(time: number): string {
  const ms = Math.trunc(time);
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
  readonly source: AnswerSource;
  readonly response_time_ms: number;
  readonly user_agent: string | null;
  readonly response_size_bytes: number;
  readonly error_message: string | null;
  /** A refusal's or failure's catalogue code (its detail is error_message). */
  readonly code: string | undefined;
  readonly chaos: ChaosLog | undefined;
  readonly websocket: WebSocketSessionLog | undefined;
  readonly graphql: GraphqlOperationLog | undefined;
  readonly grpc: GrpcCallLog | undefined;
  readonly callback: CallbackLog | undefined;
  readonly route: string | null | undefined;
  /** Epoch milliseconds (a fraction where the log's clock is finer: workers, so their logs merge in order). */
  readonly time: number;
  private readonly seq: number;
  private address: ArrayBuffer | string;
  private received: Record<string, string>;
  private redacted: Record<string, string> | undefined;
  private rawQuery: string | undefined;
  private queryRedacted = false;
  private readonly redaction: Redaction;
  /** What logging.bodies keeps of its bodies (emptied when its budget forgets them); redacted when read. */
  readonly bodies: EntryBodies | undefined;

  constructor(record: RequestRecord, redaction: Redaction = DEFAULT_REDACTION, time = Date.now(), bodies?: EntryBodies) {
    this.seq = ++sequence;
    this.time = time;
    this.method = record.method;
    this.path = record.path;
    this.status_code = record.status;
    this.source = record.source;
    this.response_time_ms = Math.round(record.durationMs);
    this.address = record.client;
    this.received = record.headers;
    this.redaction = redaction;
    this.user_agent = record.headers['user-agent'] ?? null;
    this.response_size_bytes = record.responseBytes;
    this.error_message = record.error ?? null;
    this.code = record.code;
    this.bodies = bodies;
    this.chaos = record.chaos;
    this.route = record.route;
    this.rawQuery = record.query;
    this.websocket = record.websocket;
    this.graphql = record.graphql;
    this.grpc = record.grpc;
    this.callback = record.callback;
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

  /** A refusal's or failure's code and detail; undefined for an answer. */
  get error(): ErrorLog | undefined {
    return this.code === undefined ? undefined : { code: this.code, detail: this.error_message ?? '' };
  }

  /** The request's body as the log shows it, credentials redacted; undefined when none was kept. */
  get request_body(): LoggedBody | undefined {
    const kept = this.bodies?.request;
    return kept === undefined ? undefined : shownBody(kept, this.redaction);
  }

  get response_body(): LoggedBody | undefined {
    const kept = this.bodies?.response;
    return kept === undefined ? undefined : shownBody(kept, this.redaction);
  }

  toJSON(): RequestLogEntryJson {
    const requestBody = this.request_body;
    const responseBody = this.response_body;
    const json = this.withoutBodies();
    if (requestBody !== undefined) json.request_body = requestBody;
    if (responseBody !== undefined) json.response_body = responseBody;
    return json;
  }

  /** The entry as a log line carries it: everything but the bodies, which would make a line up to twice logging.bodies.max_body_bytes long. */
  withoutBodies(): RequestLogEntryJson {
    const error = this.error;
    return {
      id: this.id,
      timestamp: this.timestamp,
      method: this.method,
      path: this.path,
      status_code: this.status_code,
      source: this.source,
      response_time_ms: this.response_time_ms,
      client_ip: this.client_ip,
      user_agent: this.user_agent,
      headers: this.headers,
      response_size_bytes: this.response_size_bytes,
      error_message: this.error_message,
      ...(error === undefined ? {} : { error }),
      ...(this.chaos === undefined ? {} : { chaos: this.chaos }),
      ...(this.route === undefined ? {} : { route: this.route, query: this.query }),
      ...(this.websocket === undefined ? {} : { websocket: this.websocket }),
      ...(this.graphql === undefined ? {} : { graphql: this.graphql }),
      ...(this.grpc === undefined ? {} : { grpc: this.grpc }),
      ...(this.callback === undefined ? {} : { callback: this.callback }),
    };
  }
}

/** The admin API's `GET /__mock/logs` query. */

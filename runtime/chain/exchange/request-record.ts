import type { AnswerSource } from '../../../common/answer-source.js';
import type { ChaosLog, ProtocolLog } from '../../../common/request-log.js';

/**
 * What a server tells the request log of a request it answered, by name: the fields every
 * protocol has, then the part of its own protocol (an HTTP request's route and query, a WebSocket
 * session, a GraphQL operation, a gRPC call).
 */
export interface RequestRecord extends ProtocolLog {
  method: string;
  /** Without the query string, as received. */
  path: string;
  status: number;
  /** Which stage or terminal made the answer. */
  source: AnswerSource;
  /** From arrival to the answer written (a session's or a call's whole length). */
  durationMs: number;
  /** uWS's raw address text, or a readable address. */
  client: ArrayBuffer | string;
  /** As received, lower-case names: redacted when first read. */
  headers: Record<string, string>;
  responseBytes: number;
  error?: string | null;
  /** The catalogue code of a refusal or failure; `error` is then its detail. */
  code?: string;
  /** The body as received (a reference: the log copies only what it keeps of a long one). */
  requestBody?: Buffer;
  /** The answer's body as written (a reference; a precomputed example's shared buffer stays shared). */
  responseBody?: string | Uint8Array;
  /** The answer's headers, for its media type (read only when the body is shown). */
  responseHeaders?: ReadonlyArray<[string, string]>;
  chaos?: ChaosLog;
  /** HTTP requests: the route that answered, null when none matched. */
  route?: string | null;
  /** HTTP requests: the raw query string (redacted when first read). */
  query?: string;
}

export {
  DEFAULT_REQUEST_LOG_CAPACITY,
  RequestLog,
  entryFilter,
  pathMatcher,
  type RequestLogFilter,
  type RequestLogListener,
  type StreamedEntry,
  type RequestLogOptions,
} from './request-log.js';
export { CREDENTIAL_HEADERS, REDACTED, Redaction, type KeyParameter, type RedactionOptions } from './redaction.js';
export { DEFAULT_REQUEST_LINES_PER_SECOND } from './request-lines.js';
export type { BodyLogOptions } from './kept-bodies.js';
export { RingBuffer } from './ring-buffer.js';
export { preciseClock } from './precise-clock.js';
export { LogStream, MAX_UNSENT_BYTES, type LogStreamOptions, type LogStreamSink } from './log-stream.js';
export { RequestLogEntry, type ChaosLog, type ErrorLog, type LoggedBody, type GraphqlOperationLog, type GrpcCallLog, type ProtocolLog, type RequestLogEntryJson, type WebSocketSessionLog } from './request-log-entry.js';

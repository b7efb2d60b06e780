export {
  DEFAULT_REQUEST_LOG_CAPACITY,
  RequestLog,
  RequestLogEntry,
  pathMatcher,
  readableAddress,
  type RequestLogEntryJson,
  type RequestLogFilter,
  type RequestLogListener,
  type RequestLogOptions,
} from './request-log.js';
export { RingBuffer } from './ring-buffer.js';

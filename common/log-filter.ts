import type { RequestLogEntryJson } from './request-log.js';
import { isGrpcStatusName } from './grpc-status.js';
import { protocolOf } from './request-log-view.js';

/** What the clients of the request log (the web dashboard, `mock tui`) filter it by; an empty or absent field matches every entry. */
export interface LogFilter {
  method?: string;
  /** A substring of the path. */
  path?: string;
  /** `404` that status, `4xx` its class, `NOT_FOUND` a gRPC call's status (any case). */
  status?: string;
  source?: string;
  protocol?: 'http' | 'graphql' | 'grpc' | 'websocket';
}

type Entry = Pick<RequestLogEntryJson, 'method' | 'path' | 'status_code' | 'source' | 'graphql' | 'grpc' | 'websocket'>;

const STATUS = /^(\d{3}|\dxx)$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
const PROTOCOLS: Record<string, NonNullable<LogFilter['protocol']>> = { http: 'http', graphql: 'graphql', grpc: 'grpc', websocket: 'websocket', ws: 'websocket' };

/** The test of `filter`; undefined when it lets everything through (no work per entry). */
export function logMatcher(filter: LogFilter): ((entry: Entry) => boolean) | undefined {
  const { method = '', path = '', source = '', protocol } = filter;
  const status = (filter.status ?? '').trim().toLowerCase();
  if (method === '' && path === '' && status === '' && source === '' && protocol === undefined) return undefined;
  const statusOk = status === '' ? () => true : /^\dxx$/.test(status) ? (s: number) => Math.floor(s / 100) === Number(status[0]) : (s: number) => String(s) === status;
  const grpcOk = (e: Entry): boolean => e.grpc !== undefined && e.grpc.status.toLowerCase() === status;
  return (e) =>
    (method === '' || e.method === method) &&
    (path === '' || e.path.includes(path)) &&
    (statusOk(e.status_code) || grpcOk(e)) &&
    (source === '' || e.source === source) &&
    (protocol === undefined || protocolOf(e) === protocol);
}

/**
 * A filter typed as words, as `mock tui`'s `/` prompt takes it: `GET`, `404`, `5xx` or `NOT_FOUND`, `graphql`
 * (`http`, `grpc`, `websocket`/`ws`), anything else a path substring (`GET 4xx /v1/pets`).
 */
export function parseLogFilter(text: string): LogFilter {
  const filter: LogFilter = {};
  const path: string[] = [];
  for (const word of text.trim().split(/\s+/)) {
    if (word === '') continue;
    const lower = word.toLowerCase();
    if (METHODS.has(word.toUpperCase()) && filter.method === undefined) filter.method = word.toUpperCase();
    else if ((STATUS.test(lower) || isGrpcStatusName(word.toUpperCase())) && filter.status === undefined) filter.status = lower;
    else if (Object.hasOwn(PROTOCOLS, lower) && filter.protocol === undefined) filter.protocol = PROTOCOLS[lower];
    else path.push(word);
  }
  if (path.length > 0) filter.path = path.join(' ');
  return filter;
}

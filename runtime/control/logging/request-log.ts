import type { Logger } from 'pino';
import type { AnswerSource } from '../../../common/answer-source.js';
import { compileGlob, requestPath } from '../../match/index.js';
import { turnClock } from '../metrics/index.js';
import { Redaction } from './redaction.js';
import type { RequestRecord } from '../../chain/exchange/index.js';
import { RequestLogEntry, type RequestLogEntryJson } from './request-log-entry.js';
import { KeptBodies, type BodyLogOptions } from './kept-bodies.js';
import { DEFAULT_REQUEST_LINES_PER_SECOND, RequestLines } from './request-lines.js';
import { RingBuffer } from './ring-buffer.js';

export interface RequestLogFilter {
  /** Exact method, any case. */
  method?: string;
  /** A path glob (runtime/match): `*` within one segment, `**` any number of segments; no `*`: that path. */
  path?: string;
  /** An HTTP status (every entry's status_code), or a gRPC status name (OK, NOT_FOUND …: gRPC calls that ended with it). */
  status?: number | string;
  /** What made the answer (common/answer-source.ts). */
  source?: AnswerSource;
  /** Only HTTP requests nothing matched that got a 404 (the unmatched-request view). */
  unmatched?: boolean;
  /** Most entries returned (newest first); all by default. */
  limit?: number;
}

/** What the log's subscribers read of an entry: its own, or one another worker recorded (mock serve --workers). */
export type StreamedEntry = Pick<RequestLogEntry, 'id' | 'method' | 'path' | 'status_code' | 'source' | 'route' | 'grpc' | 'toJSON'>;

export type RequestLogListener = (entry: StreamedEntry) => void;

/** An entry another worker recorded, as it sent it: what a subscriber reads of an entry, and its JSON. */
function foreignEntry(json: RequestLogEntryJson): StreamedEntry {
  return { id: json.id, method: json.method, path: json.path, status_code: json.status_code, source: json.source, route: json.route, grpc: json.grpc, toJSON: () => json };
}

export interface RequestLogOptions {
  /** Entries kept for the admin API; the oldest is dropped past it. Default 1000. */
  capacity?: number;
  /** Request lines are logged at info, when info is enabled (RequestLines). */
  logger?: Logger;
  /** Which header values are secrets; default: the credential headers. */
  redaction?: Redaction;
  /** Most info lines of single requests per second (logging.request_lines_per_second); 0: no limit. */
  linesPerSecond?: number;
  /** logging.bodies: keep request and response bodies within these bounds; undefined keeps none. */
  bodies?: BodyLogOptions;
  /** When an entry was answered, in epoch milliseconds; default the turn's clock. */
  clock?: () => number;
}

export const DEFAULT_REQUEST_LOG_CAPACITY = 1000;

/**
 * Every handled request, kept in a ring buffer (for `GET /__mock/logs`), offered to subscribers
 * (for the SSE stream) and logged at info (`GET /v1/pets 200 3ms`, the entry under `request`).
 *
 * Hot path: `record` allocates one entry and does no string or JSON work of its own. Building,
 * formatting and writing an info line costs more than answering the request, so RequestLines
 * writes at most logging.request_lines_per_second of them and sums up the rest once a second:
 * under load, logging at info costs what logging at warn does.
 */
export class RequestLog {
  private readonly ring: RingBuffer<RequestLogEntry>;
  private readonly logger: Logger | undefined;
  private readonly lines: RequestLines | undefined;
  /** Shared by every entry; the servers give it the apiKey parameters of their descriptions. */
  readonly redaction: Redaction;
  private listeners: RequestLogListener[] = [];
  private readonly demand: Array<(perSecond: number) => void> = [];
  /** What each subscriber takes at most a second (absent: every entry). */
  private readonly rates = new Map<RequestLogListener, number>();
  private lastDemand = 0;
  private tapped: ((entry: RequestLogEntry) => void) | undefined;
  private readonly bodies: KeptBodies | undefined;
  private readonly clock: () => number;

  constructor(options: RequestLogOptions = {}) {
    this.ring = new RingBuffer(options.capacity ?? DEFAULT_REQUEST_LOG_CAPACITY);
    this.logger = options.logger;
    this.lines = options.logger === undefined ? undefined : new RequestLines(options.logger, options.linesPerSecond ?? DEFAULT_REQUEST_LINES_PER_SECOND);
    this.redaction = options.redaction ?? new Redaction();
    this.clock = options.clock ?? turnClock;
    const logger = options.logger;
    this.bodies = options.bodies === undefined ? undefined : new KeptBodies(options.bodies, (message) => logger?.warn(message));
  }

  get capacity(): number {
    return this.ring.capacity;
  }

  get size(): number {
    return this.ring.size;
  }

  /** Records a request whose answer has just been written. */
  record(record: RequestRecord): RequestLogEntry {
    const kept = this.bodies;
    const bodies = kept === undefined ? undefined : kept.keep(record.requestBody, record.headers['content-type'], record.responseBody, record.responseBytes, record.responseHeaders);
    const entry = new RequestLogEntry(record, this.redaction, this.clock(), bodies);
    const dropped = this.ring.push(entry);
    if (dropped?.bodies !== undefined) kept?.forget(dropped.bodies);
    const logger = this.logger;
    this.lines?.write(entry);
    this.tapped?.(entry);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i](entry);
      } catch (e) {
        logger?.error({ err: e }, `request log subscriber failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return entry;
  }

  /**
   * An entry another worker recorded (mock serve --workers): offered to this log's subscribers (the
   * live streams), neither kept nor logged here, where that worker keeps and logs it.
   */
  offer(json: RequestLogEntryJson): void {
    const entry = foreignEntry(json);
    for (const listener of this.listeners) listener(entry);
  }

  /**
   * Hands every entry recorded from now on to `forward` (undefined: no more), apart from the
   * subscribers: a worker of mock serve --workers forwards its entries to the others' live
   * streams while one has a client, and that must not count as a client of its own.
   */
  tap(forward: ((entry: RequestLogEntry) => void) | undefined): void {
    this.tapped = forward;
  }

  /**
   * `listener` is told how many entries a second the subscribers take whenever that changes: 0
   * while there is none, Infinity while one takes every entry (a worker of mock serve --workers
   * forwards the others' entries at most at that rate).
   */
  onDemand(listener: (perSecond: number) => void): void {
    this.demand.push(listener);
  }

  private tellDemand(): void {
    let perSecond = 0;
    for (const listener of this.listeners) perSecond += this.rates.get(listener) ?? Infinity;
    if (perSecond === this.lastDemand) return;
    this.lastDemand = perSecond;
    for (const told of this.demand) told(perSecond);
  }

  /** Writes the summary of requests not logged one by one yet (at shutdown). */
  flush(): void {
    this.lines?.summarise();
  }

  /** Entries newest first, filtered. */
  recent(filter: RequestLogFilter = {}): RequestLogEntry[] {
    return this.ring.newest(filter.limit ?? Infinity, entryFilter(filter));
  }

  /**
   * Calls `listener` with every entry recorded from now on; returns the unsubscribe function.
   * `perSecond`: the most entries a second it takes (a client's budget), which other workers need
   * not exceed when they forward theirs; absent: it takes every entry.
   */
  subscribe(listener: RequestLogListener, perSecond?: number): () => void {
    this.listeners = [...this.listeners, listener];
    if (perSecond !== undefined) this.rates.set(listener, perSecond);
    this.tellDemand();
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
      this.rates.delete(listener);
      this.tellDemand();
    };
  }

  clear(): void {
    this.ring.clear();
    this.bodies?.clear();
  }
}

/** Whether an entry passes `filter` (its limit aside); undefined when every entry does. Throws PatternError for a path glob too long. */
export function entryFilter(filter: RequestLogFilter): ((entry: StreamedEntry) => boolean) | undefined {
  const method = filter.method?.toUpperCase();
  const path = filter.path === undefined ? undefined : pathMatcher(filter.path);
  const { status, source } = filter;
  const unmatched = filter.unmatched === true;
  if (method === undefined && path === undefined && status === undefined && source === undefined && !unmatched) return undefined;
  return (entry) =>
    (method === undefined || entry.method === method) &&
    (status === undefined || (typeof status === 'number' ? entry.status_code === status : entry.grpc?.status === status)) &&
    (source === undefined || entry.source === source) &&
    (!unmatched || (entry.route === null && entry.status_code === 404)) &&
    (path === undefined || path(entry.path));
}

/** The log's path filter: the path-glob dialect of runtime/match (`/v1/pets/*`, `/v1/**`; no `*`: that path). Throws PatternError for a glob too long. */
export function pathMatcher(pattern: string): (path: string) => boolean {
  const glob = compileGlob(pattern);
  return (path) => glob.test(requestPath(path));
}

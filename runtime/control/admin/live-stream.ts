import { isGrpcStatusName } from '../../../common/grpc-status.js';
import { ANSWER_SOURCES, isAnswerSource } from '../../../common/answer-source.js';
import type { IntervalMark, TrafficInterval } from '../metrics/index.js';
import { clusterInterval } from './cluster-questions.js';
import { entryFilter, type RequestLogFilter, type StreamedEntry } from '../logging/index.js';
import type { AccessPolicy } from './access-policy.js';
import { refuseForeign } from './admin-api.js';
import type { AdminContext } from './context.js';
import type { ControlReply } from './control-types.js';
import { fail } from './envelope.js';

/** Where the stream is served on the admin server. */
export const LIVE_STREAM_PATH = '/__mock/ws';
/** A client that has not taken this much of what was sent is closed (as the SSE stream's bound). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Client messages are small JSON commands. */
const MAX_MESSAGE_BYTES = 16 * 1024;
const METRICS_INTERVAL_MS = 1000;
/**
 * Log entries a client gets per second unless it asks for another number: each costs the server
 * about as much to turn into JSON as answering a request, and no dashboard shows more (they redraw
 * ten times a second); past it, entries are counted, not sent.
 */
const DEFAULT_ENTRIES_PER_SECOND = 1000;
const MAX_ENTRIES_PER_SECOND = 10_000;
/** Close codes (RFC 6455). */
const GOING_AWAY = 1001;

/** The connection as the server library gives it. */
export interface LiveSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Bytes sent but not yet taken by the client. */
  buffered(): number;
  /** Cuts the connection at once. */
  drop(): void;
}

interface Client {
  socket: LiveSocket;
  who: string;
  /** Undefined: not subscribed to log entries. */
  keep: ((entry: StreamedEntry) => boolean) | null | undefined;
  pending: string[];
  /** Entries per second it takes; past it they are only counted. */
  budget: number;
  /** Entries queued in the current second (reset by the metrics tick). */
  taken: number;
  /** Entries left out for the budget since its last logs message. */
  dropped: number;
}

/**
 * The admin WebSocket stream (docs/dashboard.md): a `metrics` message every second to every client,
 * and request log entries to those that subscribed, batched per event-loop turn. Library-free:
 * the admin server's adapter mounts it as a socket endpoint.
 */
export class LiveStream {
  readonly path = LIVE_STREAM_PATH;
  readonly maxMessageBytes = MAX_MESSAGE_BYTES;
  /** uWS (embedded admin) would drop sends past its 64 KB default without a word: it holds what the slow-reader check allows, and a batch more. */
  readonly maxBackpressure = MAX_BUFFERED_BYTES + 16 * 1024 * 1024;
  private readonly clients = new Set<Client>();
  private timer: NodeJS.Timeout | undefined;
  private mark: IntervalMark | undefined;
  /** The entries a second the log was last subscribed for (the clients' budgets together); 0: not subscribed. */
  private followed = 0;
  /** With workers: the figures of the last tick are still being gathered. */
  private asking = false;
  private lastTick = 0;
  private unsubscribe: (() => void) | undefined;
  private flushing = false;

  constructor(
    private readonly ctx: AdminContext,
    private readonly access: AccessPolicy,
    private readonly maxClients: number,
    /** Served by the mock server itself (admin.embedded): its own origin is the admin page's. */
    private readonly embedded = false,
  ) {}

  /** The handshake passes the admin API's Host and Origin guards, and the client limit. */
  accept(headers: Record<string, string>): { protocol: string } | { refuse: ControlReply } {
    const foreign = refuseForeign(this.access, this.embedded, { method: 'GET', path: this.path, headers });
    if (foreign !== undefined) return { refuse: foreign };
    if (this.clients.size >= this.maxClients) {
      return { refuse: fail(503, `the live stream already has ${this.clients.size} clients, the most admin.limits.max_log_subscribers allows; close one of them or raise admin.limits.max_log_subscribers in mock.yaml`) };
    }
    return { protocol: '' };
  }

  open(socket: LiveSocket, headers: Record<string, string>, address: string): { message(text: string): void; closed(): void } {
    const agent = headers['user-agent'];
    const who = `client ${address}${agent === undefined ? '' : ` (${JSON.stringify(agent.slice(0, 100))})`}`;
    const client: Client = { socket, who, keep: undefined, pending: [], budget: DEFAULT_ENTRIES_PER_SECOND, taken: 0, dropped: 0 };
    this.clients.add(client);
    socket.send(JSON.stringify({ type: 'hello', version: this.ctx.version, interval_ms: METRICS_INTERVAL_MS }));
    if (this.timer === undefined) this.startTicking();
    return {
      message: (text) => this.command(client, text),
      closed: () => this.remove(client),
    };
  }

  /** At shutdown: every client is told the server is going away. */
  close(): void {
    for (const client of [...this.clients]) {
      client.socket.close(GOING_AWAY, 'the admin server is shutting down');
      this.remove(client);
    }
  }

  private command(client: Client, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return this.error(client, 'messages are JSON objects such as {"type":"subscribe","logs":true}');
    }
    if (message === null || typeof message !== 'object' || (message as { type?: unknown }).type !== 'subscribe') {
      return this.error(client, 'the stream takes one message type: {"type":"subscribe","logs":true|false,"filter":{"method","path","status"}}');
    }
    const { logs, filter, max_per_second: budget } = message as { logs?: unknown; filter?: unknown; max_per_second?: unknown };
    if (typeof logs !== 'boolean') return this.error(client, 'subscribe: logs must be true or false');
    if (budget !== undefined && (!Number.isInteger(budget) || (budget as number) < 1 || (budget as number) > MAX_ENTRIES_PER_SECOND)) {
      return this.error(client, `subscribe: max_per_second must be an integer from 1 to ${MAX_ENTRIES_PER_SECOND} (got ${JSON.stringify(budget)})`);
    }
    client.budget = (budget as number | undefined) ?? DEFAULT_ENTRIES_PER_SECOND;
    if (!logs) {
      client.keep = undefined;
      client.pending = [];
      client.dropped = 0;
    } else {
      const parsed = parseFilter(filter);
      if (typeof parsed === 'string') return this.error(client, parsed);
      try {
        client.keep = entryFilter(parsed) ?? null;
      } catch (e) {
        return this.error(client, `subscribe: filter.path ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.followLog();
  }

  private error(client: Client, message: string): void {
    client.socket.send(JSON.stringify({ type: 'error', message }));
  }

  /**
   * Listens to the request log only while a client wants its entries, saying how many a second the
   * clients take together (their budgets): other workers forward no more than that.
   */
  private followLog(): void {
    const budget = [...this.clients].reduce((sum, c) => (c.keep === undefined ? sum : sum + c.budget), 0);
    if (budget === this.followed) return;
    this.unsubscribe?.();
    this.unsubscribe = budget === 0 ? undefined : this.ctx.requestLog.subscribe((entry) => this.queue(entry), budget);
    this.followed = budget;
  }

  private queue(entry: StreamedEntry): void {
    let json: string | undefined;
    let queued = false;
    for (const client of this.clients) {
      if (client.keep === undefined || (client.keep !== null && !client.keep(entry))) continue;
      // past its budget, counted and told with the next entries it gets (or the next metrics tick)
      if (client.taken >= client.budget) {
        client.dropped++;
        continue;
      }
      client.taken++;
      queued = true;
      // each entry is turned into JSON once, whatever the number of clients
      json ??= JSON.stringify(entry);
      client.pending.push(json);
    }
    if (queued && !this.flushing) {
      this.flushing = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushing = false;
    for (const client of this.clients) {
      if (client.pending.length === 0) continue;
      const entries = client.pending;
      const dropped = client.dropped === 0 ? '' : `,"dropped":${client.dropped}`;
      client.pending = [];
      client.dropped = 0;
      this.send(client, `{"type":"logs","entries":[${entries.join(',')}]${dropped}}`);
    }
  }

  /** Sends unless the client fell more than MAX_BUFFERED_BYTES behind: then it is closed, with one warning. */
  private send(client: Client, text: string): void {
    if (client.socket.buffered() > MAX_BUFFERED_BYTES) {
      this.ctx.logger.warn(`live stream: closed ${client.who}: it did not read ${MAX_BUFFERED_BYTES} bytes of earlier messages`);
      // a closing handshake would wait behind what it has not read: cut it
      client.socket.drop();
      this.remove(client);
      return;
    }
    client.socket.send(text);
  }

  private remove(client: Client): void {
    if (!this.clients.delete(client)) return;
    this.followLog();
    if (this.clients.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private startTicking(): void {
    // the first interval starts now: counts from before anyone watched are not this interval's
    this.mark = this.ctx.cluster === undefined ? this.ctx.stats.interval(undefined).mark : undefined;
    this.lastTick = Date.now();
    this.timer = setInterval(() => this.tick(), METRICS_INTERVAL_MS);
    this.timer.unref();
  }

  private tick(): void {
    const { cluster } = this.ctx;
    if (cluster === undefined) return this.sendMetrics({ ...this.ctx.stats.interval(this.mark), total: this.ctx.stats.totalRequests });
    // with workers, every worker's requests (one tick at a time: a slow answer skips a second rather than piling up)
    if (this.asking) return;
    this.asking = true;
    clusterInterval(cluster, this.mark)
      .then((figures) => {
        // the first answer only sets the mark: counts from before anyone watched are not this interval's
        const first = this.mark === undefined;
        this.mark = figures.mark;
        if (!first && this.timer !== undefined) this.sendMetrics(figures);
        else this.lastTick = Date.now();
      })
      .catch((e: unknown) => this.ctx.logger.warn(`the live stream could not read the workers' figures: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => (this.asking = false));
  }

  private sendMetrics({ interval, mark, total }: { interval: TrafficInterval; mark: IntervalMark; total: number }): void {
    const now = Date.now();
    const seconds = Math.max((now - this.lastTick) / 1000, 0.001);
    this.lastTick = now;
    this.mark = mark;
    const usage = this.ctx.sampler.current();
    const servers = this.ctx.registry.list();
    const data = {
      ts: new Date(now).toISOString(),
      total_requests: total,
      requests_per_second: round2(interval.requests / seconds),
      errors_per_second: round2(interval.errors / seconds),
      error_rate: interval.requests === 0 ? 0 : round2(interval.errors / interval.requests),
      response_time_ms: interval.percentiles ?? { p50: null, p95: null, p99: null },
      active_connections: servers.reduce((sum, s) => sum + (s.active_connections ?? 0), 0),
      memory_usage_mb: usage.memory_usage_mb,
      cpu_usage_percent: usage.cpu_usage_percent,
      chaos_injected: this.ctx.live.chaos.counters.snapshot().by_type,
    };
    const text = JSON.stringify({ type: 'metrics', data });
    for (const client of [...this.clients]) {
      if (client.dropped > 0) {
        this.send(client, `{"type":"logs","entries":[],"dropped":${client.dropped}}`);
        client.dropped = 0;
        if (!this.clients.has(client)) continue;
      }
      client.taken = 0;
      this.send(client, text);
    }
  }
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The log filter a subscribe message names (as GET /__mock/logs takes it), or what is wrong with it. */
function parseFilter(filter: unknown): RequestLogFilter | string {
  if (filter === undefined || filter === null) return {};
  if (typeof filter !== 'object' || Array.isArray(filter)) return 'subscribe: filter must be an object {method, path, status}';
  const out: RequestLogFilter = {};
  const { method, path, status, source, unmatched } = filter as Record<string, unknown>;
  if (method !== undefined && method !== '') {
    if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method)) return `subscribe: filter.method must be an HTTP method such as GET (got ${JSON.stringify(method)})`;
    out.method = method;
  }
  if (path !== undefined && path !== '') {
    if (typeof path !== 'string') return 'subscribe: filter.path must be a path glob such as /v1/**';
    out.path = path;
  }
  if (status !== undefined && status !== '') {
    if (typeof status === 'string' && isGrpcStatusName(status.toUpperCase())) out.status = status.toUpperCase();
    else if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599)
      return `subscribe: filter.status must be an HTTP status such as 404 or a gRPC status name such as NOT_FOUND (got ${JSON.stringify(status)})`;
    else out.status = status as number;
  }
  if (source !== undefined && source !== '') {
    if (typeof source !== 'string' || !isAnswerSource(source)) return `subscribe: filter.source must be one of ${ANSWER_SOURCES.join(', ')} (got ${JSON.stringify(source)})`;
    out.source = source;
  }
  if (unmatched !== undefined) {
    if (typeof unmatched !== 'boolean') return 'subscribe: filter.unmatched must be true or false';
    out.unmatched = unmatched;
  }
  return out;
}

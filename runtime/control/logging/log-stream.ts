import type { Logger } from 'pino';
import type { RequestLog } from './request-log.js';
import type { StreamedEntry } from './request-log.js';

/** One client connection of the stream (an adapter's StreamSink). */
export interface LogStreamSink {
  /** Queues text; returns how many bytes of earlier text the client had still not taken. */
  send(text: string): number;
  /** Drops the connection at once. */
  close(): void;
}

export interface LogStreamOptions {
  /** admin.limits.max_log_subscribers: clients at once. */
  maxClients: number;
  /** Bytes a client may leave unsent before it is dropped; default MAX_UNSENT_BYTES. */
  maxUnsentBytes?: number;
  /** Each client gets a comment this often, so proxies keep quiet streams open; default 15 s. */
  keepaliveMs?: number;
  /** Where dropped clients are reported. */
  logger?: Logger;
}

/**
 * A client that, when new events come, still has more than this of the earlier ones unsent (beyond
 * what the kernel's socket buffers hold) is dropped: seconds of a busy server's log, so a client
 * that reads is never dropped for a burst, while one that stops reading costs at most this (plus
 * one event-loop turn of events).
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;

const KEEPALIVE_MS = 15_000;
const PREAMBLE = 'retry: 2000\n: mock request log stream\n\n';

interface Client {
  sink: LogStreamSink;
  keep: ((entry: StreamedEntry) => boolean) | undefined;
  /** Who it is, for the warning that drops it. */
  who: string;
  /** Frames of the current event-loop turn, written together at its end. */
  pending: string[];
  gone: boolean;
}

/**
 * The request log as Server-Sent Events (`GET /__mock/logs/sse`), for every client at once. The
 * request log is subscribed to only while a client is connected, each entry becomes SSE text once
 * whoever wants it, and each client gets one write per event-loop turn with every entry of that
 * turn. A client that stops reading is dropped once it leaves more than `maxUnsentBytes` unsent
 * (one warning line says who and why), so it never makes the server hold more than that for it.
 */
export class LogStream {
  readonly maxClients: number;
  private readonly maxUnsent: number;
  private readonly keepaliveMs: number;
  private readonly logger: Logger | undefined;
  /** Replaced, never changed in place: a drop during a write loop must not disturb the loop. */
  private clients: Client[] = [];
  private unsubscribe: (() => void) | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private flushScheduled = false;

  constructor(
    private readonly log: RequestLog,
    options: LogStreamOptions,
  ) {
    this.maxClients = options.maxClients;
    this.maxUnsent = options.maxUnsentBytes ?? MAX_UNSENT_BYTES;
    this.keepaliveMs = options.keepaliveMs ?? KEEPALIVE_MS;
    this.logger = options.logger;
  }

  get size(): number {
    return this.clients.length;
  }

  /** No room for another client: the endpoint answers 503 instead of opening a stream. */
  get full(): boolean {
    return this.clients.length >= this.maxClients;
  }

  /**
   * Starts streaming to `sink` the entries `keep` accepts (all without it; see entryFilter); `who`
   * names the client in warnings. Returns the function that removes it (call it once the
   * connection is gone).
   */
  add(sink: LogStreamSink, keep: ((entry: StreamedEntry) => boolean) | undefined, who: string): () => void {
    const client: Client = { sink, keep, who, pending: [], gone: false };
    this.clients = [...this.clients, client];
    if (this.clients.length === 1) this.start();
    this.write(client, PREAMBLE);
    return () => this.remove(client);
  }

  private start(): void {
    this.unsubscribe = this.log.subscribe((entry) => this.offer(entry));
    this.keepalive = setInterval(() => {
      for (const client of this.clients) this.write(client, ': keep-alive\n\n');
    }, this.keepaliveMs);
    this.keepalive.unref();
  }

  private remove(client: Client): void {
    if (client.gone) return;
    client.gone = true;
    client.pending = [];
    this.clients = this.clients.filter((c) => c !== client);
    if (this.clients.length > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.keepalive);
  }

  private offer(entry: StreamedEntry): void {
    let frame: string | undefined;
    for (const client of this.clients) {
      if (client.keep !== undefined && !client.keep(entry)) continue;
      frame ??= `id: ${entry.id}\nevent: log\ndata: ${JSON.stringify(entry)}\n\n`;
      client.pending.push(frame);
    }
    if (frame !== undefined && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    for (const client of this.clients) {
      if (client.pending.length === 0) continue;
      const text = client.pending.join('');
      client.pending = [];
      this.write(client, text);
    }
  };

  private write(client: Client, text: string): void {
    if (client.gone) return;
    const unsent = client.sink.send(text);
    if (unsent <= this.maxUnsent) return;
    this.remove(client);
    client.sink.close();
    this.logger?.warn(
      { client: client.who, unsent_bytes: unsent },
      `log stream: disconnected ${client.who}: it had still not taken ${unsent} bytes of earlier events (more than ${this.maxUnsent}) when new ones came, reading slower than requests are logged; a client must keep reading, or ask for fewer events (?method=, ?path=, ?status=)`,
    );
  }
}

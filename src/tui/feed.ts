import WebSocket from 'ws';
import type { AdminApi } from './admin-api.js';
import type { LiveStore } from './store.js';
import type { LogEntry, MetricsSample } from './types.js';

export interface FeedOptions {
  /** Polling period when the WebSocket stream is not available. */
  pollMs?: number;
  /** Entries read at start (and per poll) from GET /__mock/logs. */
  backlog?: number;
  /** How long to poll before trying the WebSocket stream again. */
  retryWsMs?: number;
}

/**
 * Feeds the store from the admin API: the WebSocket stream `/__mock/ws` (metrics every second, log
 * entries as they happen: docs/dashboard.md), or, where the upgrade fails (an older server, a proxy
 * that drops upgrades), polling `GET /__mock/logs?limit=` and `GET /__mock/metrics` every second.
 * Entries are told apart by id, so the backlog read at start and the stream never show one twice.
 */
export class LiveFeed {
  private ws: WebSocket | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly seen = new Set<string>();
  private readonly seenOrder: string[] = [];
  private lastPoll: { at: number; total: number } | undefined;
  private pollDetail = '';
  private readonly pollMs: number;
  private readonly backlog: number;
  private readonly retryWsMs: number;

  constructor(private readonly api: AdminApi, private readonly store: LiveStore, options: FeedOptions = {}) {
    this.pollMs = options.pollMs ?? 1000;
    this.backlog = options.backlog ?? 200;
    this.retryWsMs = options.retryWsMs ?? 10_000;
  }

  async start(): Promise<void> {
    try {
      this.fresh((await this.api.logs(this.backlog)).reverse());
    } catch {
      // the first poll or the stream says why
    }
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.pollTimer !== undefined) clearTimeout(this.pollTimer);
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.ws?.removeAllListeners();
    this.ws?.on('error', () => {});
    this.ws?.terminate();
    this.ws = undefined;
  }

  private connect(): void {
    if (this.stopped) return;
    const url = `${this.api.base.replace(/^http/, 'ws')}/__mock/ws`;
    const headers: Record<string, string> = {};
    if (this.api.target.token !== undefined) headers.authorization = `Bearer ${this.api.target.token}`;
    const ws = new WebSocket(url, { headers, handshakeTimeout: 5000 });
    this.ws = ws;
    let opened = false;
    ws.on('open', () => {
      opened = true;
      this.stopPolling();
      this.store.setStream({ mode: 'websocket' });
      ws.send(JSON.stringify({ type: 'subscribe', logs: true }));
    });
    ws.on('unexpected-response', (_request, response) => {
      response.resume();
      this.fallBack(`no stream at /__mock/ws (HTTP ${response.statusCode})`);
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
    });
    ws.on('message', (raw) => this.message(String(raw)));
    ws.on('error', (e: Error & { code?: string }) => {
      if (!opened) this.fallBack(`stream unavailable (${e.code ?? e.message})`);
    });
    ws.on('close', (code) => {
      if (this.stopped || this.ws !== ws) return;
      this.ws = undefined;
      if (opened) this.fallBack(`stream closed (${code})`);
    });
  }

  private fallBack(detail: string): void {
    if (this.stopped) return;
    this.ws = undefined;
    this.pollDetail = detail;
    this.store.setStream({ mode: 'polling', detail });
    if (this.pollTimer === undefined) this.poll();
    if (this.retryTimer === undefined) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.connect();
      }, this.retryWsMs);
      this.retryTimer.unref();
    }
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    this.lastPoll = undefined;
  }

  private message(text: string): void {
    let message: { type?: string; data?: Record<string, unknown>; entries?: LogEntry[]; dropped?: number; message?: string };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.type === 'logs' && Array.isArray(message.entries)) {
      this.fresh(message.entries);
      if (typeof message.dropped === 'number') this.store.addSkipped(message.dropped);
    }
    else if (message.type === 'metrics' && message.data) this.store.addSample(sampleOf(message.data));
  }

  /** Adds the entries not seen before (oldest first). */
  private fresh(entries: readonly LogEntry[]): LogEntry[] {
    const added = entries.filter((entry) => {
      if (typeof entry?.id !== 'string' || this.seen.has(entry.id)) return false;
      this.seen.add(entry.id);
      this.seenOrder.push(entry.id);
      return true;
    });
    // ids of entries the server no longer keeps (it keeps 1000) need not be remembered
    while (this.seenOrder.length > 4000) this.seen.delete(this.seenOrder.shift() as string);
    this.store.addLogs(added);
    return added;
  }

  private poll(delay = 0): void {
    this.pollTimer = setTimeout(() => {
      void this.pollOnce().finally(() => {
        if (!this.stopped && this.pollTimer !== undefined) this.poll(this.pollMs);
      });
    }, delay);
  }

  private async pollOnce(): Promise<void> {
    try {
      const [entries, metrics] = await Promise.all([this.api.logs(this.backlog), this.api.metrics()]);
      const now = Date.now();
      const added = this.fresh(entries.reverse());
      const previous = this.lastPoll;
      this.lastPoll = { at: now, total: metrics.total_requests };
      if (this.ws === undefined) this.store.setStream({ mode: 'polling', detail: this.pollDetail });
      if (previous === undefined) return;
      const seconds = Math.max(0.001, (now - previous.at) / 1000);
      const times = added.map((e) => e.response_time_ms).sort((a, b) => a - b);
      this.store.addSample({
        ts: now,
        total_requests: metrics.total_requests,
        requests_per_second: Math.max(0, metrics.total_requests - previous.total) / seconds,
        errors_per_second: added.filter((e) => e.status_code >= 400).length / seconds,
        p95_ms: times.length === 0 ? null : times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)],
        active_connections: null,
        memory_usage_mb: metrics.memory_usage_over_time?.at(-1)?.[1] ?? null,
        cpu_usage_percent: metrics.cpu_usage_over_time?.at(-1)?.[1] ?? null,
        chaos_injected: {},
      });
    } catch (e) {
      this.lastPoll = undefined;
      this.store.setStream({ mode: 'offline', detail: (e as Error).message });
    }
  }
}

/** The stream's `metrics` data as a sample. */
export function sampleOf(data: Record<string, unknown>): MetricsSample {
  const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const times = (data.response_time_ms ?? {}) as { p95?: unknown };
  const ts = typeof data.ts === 'number' ? data.ts : typeof data.ts === 'string' ? Date.parse(data.ts) : Date.now();
  return {
    ts: Number.isFinite(ts) ? ts : Date.now(),
    total_requests: n(data.total_requests) ?? 0,
    requests_per_second: n(data.requests_per_second) ?? 0,
    errors_per_second: n(data.errors_per_second) ?? 0,
    p95_ms: n(times.p95),
    active_connections: n(data.active_connections),
    memory_usage_mb: n(data.memory_usage_mb),
    cpu_usage_percent: n(data.cpu_usage_percent),
    chaos_injected: typeof data.chaos_injected === 'object' && data.chaos_injected !== null ? (data.chaos_injected as Record<string, number>) : {},
  };
}

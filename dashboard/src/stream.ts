import { apiUrl, get } from './api';
import type { LogEntry, StreamMetrics } from './types';

export interface StreamHandlers {
  metrics(data: StreamMetrics): void;
  /** `dropped`: entries the server left out since its last batch (past the stream's rate for this client). */
  logs(entries: LogEntry[], dropped: number): void;
  mode(mode: StreamMode): void;
  /** Log entries flow (again) from now on: what came before is for GET /__mock/logs to tell. */
  subscribed(): void;
}

export interface Stream {
  /** Starts or stops the log entries (metrics keep flowing); on the SSE fallback the entries always flow, its metrics are made of them. */
  logs(on: boolean): void;
  close(): void;
}

/** `ws`: the admin WebSocket stream; `sse`: the fallback (SSE log stream + polled metrics); `offline` between attempts. */
export type StreamMode = 'connecting' | 'ws' | 'sse' | 'offline';

const RECONNECT_MS = 2000;
const POLL_MS = 1000;

/**
 * The live feed: `/__mock/ws` (metrics every second, log entries batched per event-loop turn).
 * Where the upgrade fails (an embedded admin may have no WebSocket) it falls back to the SSE log
 * stream (read with fetch, reconnecting after 2 s) and `GET /__mock/metrics` polled every second,
 * computing the interval's rates and percentiles from the entries itself.
 */
export function openStream(handlers: StreamHandlers): Stream {
  let closed = false;
  let stop = (): void => undefined;
  let wantLogs = true;
  let socket: WebSocket | undefined;
  const subscribe = (): void => {
    socket?.send(JSON.stringify({ type: 'subscribe', logs: wantLogs }));
    if (wantLogs) handlers.subscribed();
  };

  // the stream said hello once: after a drop it is retried (the server restarts), never swapped for the fallback
  let streamWorks = false;
  const connectWs = (): void => {
    handlers.mode('connecting');
    const opening = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${apiUrl('ws')}`);
    opening.onmessage = (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as { type: string; data?: StreamMetrics; entries?: LogEntry[]; dropped?: number };
      if (message.type === 'hello') {
        streamWorks = true;
        socket = opening;
        handlers.mode('ws');
        subscribe();
      } else if (message.type === 'metrics' && message.data !== undefined) handlers.metrics(message.data);
      else if (message.type === 'logs' && message.entries !== undefined) handlers.logs(message.entries, message.dropped ?? 0);
    };
    opening.onclose = () => {
      socket = undefined;
      if (closed) return;
      // no hello: nothing serves the stream here (or something between refuses it), so the fallback serves for the page's life
      if (!streamWorks) return connectFallback();
      handlers.mode('offline');
      const timer = setTimeout(connectWs, RECONNECT_MS);
      stop = () => clearTimeout(timer);
    };
    stop = () => opening.close();
  };

  const connectFallback = (): void => {
    const controller = new AbortController();
    let window: LogEntry[] = [];
    let lastTotal: number | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const read = async (): Promise<void> => {
      const res = await fetch(apiUrl('logs/sse'), { signal: controller.signal, headers: { accept: 'text/event-stream' } });
      if (!res.ok || res.body === null) throw new Error(`logs/sse answered ${res.status}`);
      handlers.mode('sse');
      handlers.subscribed();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let rest = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        rest += value;
        const cut = rest.lastIndexOf('\n\n');
        if (cut < 0) continue;
        const entries = parseEvents(rest.slice(0, cut));
        rest = rest.slice(cut + 2);
        if (entries.length === 0) continue;
        for (const entry of entries) window.push(entry);
        handlers.logs(entries, 0);
      }
    };
    const loop = (): void => {
      read()
        .catch(() => undefined)
        .finally(() => {
          if (controller.signal.aborted) return;
          handlers.mode('offline');
          retry = setTimeout(loop, RECONNECT_MS);
        });
    };
    loop();
    const timer = setInterval(() => {
      const seen = window;
      window = [];
      get<{ total_requests: number }>('metrics')
        .then(({ total_requests }) => {
          handlers.metrics(intervalMetrics(seen, total_requests, lastTotal));
          lastTotal = total_requests;
        })
        .catch(() => handlers.mode('offline'));
    }, POLL_MS);
    stop = () => {
      controller.abort();
      clearTimeout(retry);
      clearInterval(timer);
    };
  };

  connectWs();
  return {
    logs(on) {
      if (on === wantLogs) return;
      wantLogs = on;
      if (socket !== undefined) subscribe();
    },
    close() {
      closed = true;
      stop();
    },
  };
}

/**
 * The entries of whole SSE events (`data:` lines; comments and ids skipped), parsed at once: read
 * as a stream rather than with EventSource, a flood costs one callback per chunk, not one per event.
 */
function parseEvents(block: string): LogEntry[] {
  const data: string[] = [];
  for (const line of block.split('\n')) if (line.startsWith('data: ')) data.push(line.slice(6));
  return data.length === 0 ? [] : (JSON.parse(`[${data.join(',')}]`) as LogEntry[]);
}

/** One second's metrics from the entries the SSE stream delivered in it (the WebSocket stream's shape). */
function intervalMetrics(entries: LogEntry[], total: number, lastTotal: number | undefined): StreamMetrics {
  const times = entries.map((e) => e.response_time_ms).sort((a, b) => a - b);
  const pick = (q: number): number | null => (times.length === 0 ? null : times[Math.min(times.length - 1, Math.floor(q * times.length))]);
  const errors = entries.filter((e) => e.status_code >= 400).length;
  const rate = lastTotal === undefined ? entries.length : Math.max(0, total - lastTotal);
  return {
    ts: new Date().toISOString(),
    total_requests: total,
    requests_per_second: rate,
    errors_per_second: errors,
    error_rate: entries.length === 0 ? 0 : errors / entries.length,
    response_time_ms: { p50: pick(0.5), p95: pick(0.95), p99: pick(0.99) },
  };
}

import type { Logger } from 'pino';
import type { RequestLogEntry } from './request-log-entry.js';

/** logging.request_lines_per_second's default: a terminal stays readable, and logging costs nothing measurable under load. */
export const DEFAULT_REQUEST_LINES_PER_SECOND = 50;

const WINDOW_MS = 1000;

/**
 * The info line of each request, up to `perSecond` lines in any one-second window; past that, the
 * window's other requests are counted and told in one summary line when it ends
 * (`… 41,950 more requests in the last second (200 ×41,200, 404 ×750)`). Formatting and writing a
 * line per request costs more than answering it, and nobody reads 40,000 lines a second: every
 * request is still in the request log, the log stream and the metrics. 0 logs every request.
 */
export class RequestLines {
  private windowEnd = 0;
  private written = 0;
  private skipped = 0;
  private readonly statuses = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  /** Whether info is enabled, kept as the level changes: asking pino on every request costs a third of a microsecond. */
  private enabled: boolean;

  constructor(
    private readonly logger: Logger,
    private readonly perSecond: number,
  ) {
    this.enabled = logger.isLevelEnabled('info');
    logger.on('level-change', () => {
      this.enabled = logger.isLevelEnabled('info');
    });
  }

  write(entry: RequestLogEntry): void {
    if (!this.enabled) return;
    if (this.perSecond === 0) {
      this.line(entry);
      return;
    }
    const now = entry.time;
    if (now >= this.windowEnd) {
      this.summarise();
      this.windowEnd = now + WINDOW_MS;
      this.written = 0;
    }
    if (this.written < this.perSecond) {
      this.written++;
      this.line(entry);
      return;
    }
    this.skipped++;
    this.statuses.set(entry.status_code, (this.statuses.get(entry.status_code) ?? 0) + 1);
    // the window's summary must not wait for the next request, which may never come
    this.timer ??= setTimeout(() => this.summarise(), Math.max(0, this.windowEnd - Date.now())).unref();
  }

  /** `GET /v1/pets 200 3ms`; a gRPC call with its status name (`POST /routeguide.RouteGuide/GetFeature DEADLINE_EXCEEDED 501ms`); a refusal with its code and detail. */
  private line(entry: RequestLogEntry): void {
    const ws = entry.websocket;
    const session = ws === undefined ? '' : ` websocket: ${ws.messages_in} in, ${ws.messages_out} out, close ${ws.close_code}`;
    const status = entry.grpc === undefined ? entry.status_code : entry.grpc.status;
    const reason = entry.code === undefined ? '' : ` ${entry.code}: ${entry.error_message ?? ''}`;
    this.logger.info({ request: entry.withoutBodies() }, `${entry.method} ${entry.path} ${status} ${entry.response_time_ms}ms${session}${reason}`);
  }

  /** Writes the summary of the window that ended (or is ending: at shutdown). */
  summarise(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.skipped === 0) return;
    const counts = [...this.statuses].sort(([a], [b]) => a - b);
    const byStatus = Object.fromEntries(counts);
    const text = counts.map(([status, n]) => `${status} ×${grouped(n)}`).join(', ');
    this.logger.info(
      { requests_not_shown: this.skipped, statuses: byStatus, lines_per_second: this.perSecond },
      `… ${grouped(this.skipped)} more requests in the last second (${text}); one line per request again below ${this.perSecond}/s`,
    );
    this.skipped = 0;
    this.statuses.clear();
  }
}

/**
 * 12345 -> "12,345". Not toLocaleString: ICU's number formatting would page in about 4 MB of its
 * data for as long as the server runs.
 */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

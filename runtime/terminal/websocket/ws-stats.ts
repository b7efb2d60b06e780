import type { WsSessionReport } from './session.js';

/** One path's sessions and messages (a route's pattern, or the path itself when no route claims it). */
export interface WsPathStats {
  sessions: number;
  active: number;
  messages_in: number;
  messages_out: number;
  bytes_in: number;
  bytes_out: number;
  /** Sessions by the close code they ended with. */
  close_codes: Record<string, number>;
  /** Sessions the mock closed for a limit (message timeout, back-pressure, dead peer). */
  errors: number;
}

/** Paths kept at most: paths no route claims are counted one by one, so their number must be bounded. */
const MAX_PATHS = 1000;
const OTHER = '(other paths)';

/** Sessions and messages per path, for servers[], GET /__mock/websocket and the metrics. */
export class WsStats {
  private readonly paths = new Map<string, WsPathStats>();
  private totalSessions = 0;
  private totalIn = 0;
  private totalOut = 0;

  opened(pathKey: string): void {
    this.totalSessions++;
    this.of(pathKey).active++;
  }

  ended(report: WsSessionReport): void {
    const stats = this.of(report.pathKey);
    stats.active--;
    stats.sessions++;
    stats.messages_in += report.messagesIn;
    stats.messages_out += report.messagesOut;
    stats.bytes_in += report.bytesIn;
    stats.bytes_out += report.bytesOut;
    stats.close_codes[report.closeCode] = (stats.close_codes[report.closeCode] ?? 0) + 1;
    if (report.error !== null) stats.errors++;
    this.totalIn += report.messagesIn;
    this.totalOut += report.messagesOut;
  }

  get sessions(): number {
    return this.totalSessions;
  }

  /** Messages of closed sessions (open ones count when they close). */
  get messagesIn(): number {
    return this.totalIn;
  }

  get messagesOut(): number {
    return this.totalOut;
  }

  byPath(): Record<string, WsPathStats> {
    return Object.fromEntries([...this.paths].map(([key, stats]) => [key, { ...stats, close_codes: { ...stats.close_codes } }]));
  }

  private of(pathKey: string): WsPathStats {
    let stats = this.paths.get(pathKey);
    if (stats === undefined) {
      const key = this.paths.size >= MAX_PATHS ? OTHER : pathKey;
      stats = this.paths.get(key) ?? { sessions: 0, active: 0, messages_in: 0, messages_out: 0, bytes_in: 0, bytes_out: 0, close_codes: {}, errors: 0 };
      this.paths.set(key, stats);
    }
    return stats;
  }
}

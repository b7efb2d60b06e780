import type { Answer, Exchange } from '../../chain/exchange/index.js';
import { LatencyHistogram } from '../../control/metrics/index.js';

/** What GET /__mock/graphql, /__mock/metrics and Prometheus show per operation. */
export interface OperationCounts {
  /** query, mutation or subscription. */
  type: string;
  count: number;
  /** Answers with GraphQL errors or a 4xx/5xx status. */
  errors: number;
  /** Milliseconds; subscriptions count from subscribe to completion. */
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

class Tally {
  count = 0;
  errors = 0;
  readonly latency = new LatencyHistogram(60_000_000);

  constructor(readonly type: string) {}
}

/** Requests that never got as far as an operation (malformed, refused by chaos before it ran). */
const NO_OPERATION = '(none)';
const ANONYMOUS = '(anonymous)';

/** Operations by name: how many ran, how many failed, how long they took. */
export class OperationStats {
  private readonly byName = new Map<string, Tally>();

  /** An answered HTTP request (the dispatch's observe hook). */
  observe = (ex: Exchange, answer: Answer, durationMs: number): void => {
    const operation = ex.keptLocals?.graphql;
    const failed = answer.status >= 400 || operation?.errors === true;
    this.add(operation === undefined ? NO_OPERATION : (operation.name ?? ANONYMOUS), operation?.type ?? '', failed, durationMs);
  };

  /** An operation sent over the WebSocket (most often a subscription) that ended. */
  socketOperationEnded(name: string | null, type: string, failed: boolean, durationMs: number): void {
    this.add(name ?? ANONYMOUS, type, failed, durationMs);
  }

  private add(name: string, type: string, failed: boolean, durationMs: number): void {
    const key = `${type} ${name}`;
    let tally = this.byName.get(key);
    if (tally === undefined) {
      tally = new Tally(type);
      this.byName.set(key, tally);
    }
    tally.count++;
    if (failed) tally.errors++;
    tally.latency.record(Math.round(durationMs * 1000));
  }

  get total(): number {
    let sum = 0;
    for (const tally of this.byName.values()) sum += tally.count;
    return sum;
  }

  /** `query GetUser` → counts, sorted by key. */
  byOperation(): Record<string, OperationCounts> {
    const ms = (tally: Tally, p: number): number => Math.round(tally.latency.valueAtPercentile(p) / 10) / 100;
    return Object.fromEntries(
      [...this.byName.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, tally]) => [key.trim(), { type: tally.type || 'none', count: tally.count, errors: tally.errors, p50_ms: ms(tally, 50), p95_ms: ms(tally, 95), p99_ms: ms(tally, 99) }]),
    );
  }
}

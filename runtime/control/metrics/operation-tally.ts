import { LatencyHistogram } from './latency-histogram.js';

/** What GET /__mock/graphql, /__mock/grpc, /__mock/metrics and Prometheus show per operation. */
export interface OperationCounts {
  /** The operation's kind: query, mutation, subscription; unary, server_streaming, client_streaming, bidi_streaming. */
  type: string;
  count: number;
  /** Calls that failed (GraphQL errors or a 4xx/5xx; a gRPC status other than OK). */
  errors: number;
  /** Milliseconds; streams count from the call's start to its end. */
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  /** gRPC calls per status name (OK, NOT_FOUND, …). */
  statuses?: Record<string, number>;
}

class Tally {
  count = 0;
  errors = 0;
  readonly latency = new LatencyHistogram(60_000_000);
  /** Per status name, for operations that have one (gRPC); a method ends with a handful of them. */
  statuses: Map<string, number> | undefined;

  constructor(readonly type: string) {}
}

/** Calls by operation (a GraphQL operation, a gRPC method): how many ran, how many failed, how long they took. */
export class OperationTally {
  private readonly byKey = new Map<string, Tally>();

  /** `status`: the name the call ended with (gRPC). */
  add(key: string, type: string, failed: boolean, durationMs: number, status?: string): void {
    let tally = this.byKey.get(key);
    if (tally === undefined) {
      tally = new Tally(type);
      this.byKey.set(key, tally);
    }
    tally.count++;
    if (failed) tally.errors++;
    tally.latency.record(Math.round(durationMs * 1000));
    if (status !== undefined) {
      const statuses = (tally.statuses ??= new Map());
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  }

  get total(): number {
    let sum = 0;
    for (const tally of this.byKey.values()) sum += tally.count;
    return sum;
  }

  /** Key → counts, sorted by key. */
  byOperation(): Record<string, OperationCounts> {
    const ms = (tally: Tally, p: number): number => Math.round(tally.latency.valueAtPercentile(p) / 10) / 100;
    return Object.fromEntries(
      [...this.byKey.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, tally]) => [
          key,
          {
            type: tally.type,
            count: tally.count,
            errors: tally.errors,
            p50_ms: ms(tally, 50),
            p95_ms: ms(tally, 95),
            p99_ms: ms(tally, 99),
            ...(tally.statuses === undefined ? {} : { statuses: Object.fromEntries([...tally.statuses].sort(([a], [b]) => a.localeCompare(b))) }),
          },
        ]),
    );
  }
}

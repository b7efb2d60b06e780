// Counts, per operation, what one worker saw: responses by status, latencies, errors by code, and
// a per-second timeline. Plain objects and one histogram per operation: cheap on the hot path.
import { createHistogram, encodeHistogram, type Histogram } from '../histogram.js';
import type { OperationResult, WorkerResult } from '../protocol.js';

interface OperationCounts {
  responses: number;
  histogram: Histogram | null;
  statuses: Record<number, number>;
  errors: Record<string, number>;
}

export class Recorder {
  responses = 0;
  errors = 0;
  private readonly operations: OperationCounts[];
  private readonly perSecond: number[] = [];
  private readonly errorsPerSecond: number[] = [];
  private readonly activePerSecond: number[] = [];
  private origin = performance.now();
  startedAt = Date.now();

  constructor(operations: number) {
    this.operations = Array.from({ length: Math.max(1, operations) }, () => ({ responses: 0, histogram: null, statuses: {}, errors: {} }));
  }

  /** The run starts now: the timeline counts seconds from here. */
  begin(): void {
    this.origin = performance.now();
    this.startedAt = Date.now();
  }

  /** A complete response to a request of `operation` sent at `sentAt` (performance.now()). */
  response(operation: number, status: number, sentAt: number): void {
    const now = performance.now();
    const op = this.operations[operation];
    op.responses++;
    op.statuses[status] = (op.statuses[status] ?? 0) + 1;
    (op.histogram ??= createHistogram()).recordValue(Math.max(1, Math.round((now - sentAt) * 1000)));
    this.responses++;
    const second = ((now - this.origin) / 1000) | 0;
    this.perSecond[second] = (this.perSecond[second] ?? 0) + 1;
  }

  error(operation: number, code: string): void {
    const op = this.operations[operation];
    op.errors[code] = (op.errors[code] ?? 0) + 1;
    this.errors++;
    const second = ((performance.now() - this.origin) / 1000) | 0;
    this.errorsPerSecond[second] = (this.errorsPerSecond[second] ?? 0) + 1;
  }

  /** Active virtual users (or connections) now; the timeline keeps the last sample of each second. */
  sample(active: number): void {
    this.activePerSecond[((performance.now() - this.origin) / 1000) | 0] = active;
  }

  elapsed(): number {
    return performance.now() - this.origin;
  }

  result(elapsedMs: number, connections: number, interrupted: boolean): WorkerResult {
    const seconds = Math.max(this.perSecond.length, this.errorsPerSecond.length, this.activePerSecond.length);
    const dense = (values: number[]) => Array.from({ length: seconds }, (_, i) => values[i] ?? 0);
    let lastActive = 0;
    const active = Array.from({ length: seconds }, (_, i) => (lastActive = this.activePerSecond[i] ?? lastActive));
    const operations: OperationResult[] = this.operations.map((op) => ({
      responses: op.responses,
      histogram: op.histogram ? encodeHistogram(op.histogram) : null,
      statuses: op.statuses,
      errors: op.errors,
    }));
    return {
      startedAt: this.startedAt,
      elapsedMs,
      operations,
      timeline: { responses: dense(this.perSecond), errors: dense(this.errorsPerSecond), active },
      connections,
      interrupted,
    };
  }
}

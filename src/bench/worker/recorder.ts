// Counts, per operation, what one worker saw: responses by status, latencies, errors by code, and
// a per-second timeline. Plain objects and one histogram per operation: cheap on the hot path.
import { createHistogram, encodeHistogram, type Histogram } from '../histogram.js';
import type { OperationResult, SampledAnswer, SampledItem, WorkerResult } from '../protocol.js';

/** Items kept per operation (and worker and round) for validation: the main thread checks them after the round. */
export const SAMPLED_ITEMS = 100;
/** Plain answers kept per operation (and worker and round), the same way. */
export const SAMPLED_ANSWERS = 100;
/** Characters of sampled bodies one worker keeps in a round over all its operations: past them an answer is kept without its body, so a description of many operations answered with large bodies cannot exhaust memory. */
export const SAMPLED_BODY_BUDGET = 64 * 1024 * 1024;

interface OperationCounts {
  responses: number;
  histogram: Histogram | null;
  statuses: Record<number, number>;
  errors: Record<string, number>;
  stream: StreamCounts | null;
  answers: AnswerSample | null;
}

interface AnswerSample {
  /** Slots of the reservoir; one stays empty when its answer never completed. */
  sample: Array<SampledAnswer | undefined>;
  /** Answers offered to the sample so far. */
  seen: number;
  /** Index of the next answer to keep once the reservoir is full (Li's algorithm L). */
  next: number;
  w: number;
}

/** Li's algorithm L: how many answers to pass over before the next one kept, and the weight after it. */
function skipAhead(answers: AnswerSample, last: number): void {
  answers.w *= Math.exp(Math.log(unit()) / SAMPLED_ANSWERS);
  answers.next = last + Math.floor(Math.log(unit()) / Math.log(1 - answers.w)) + 1;
}

/** Uniform in (0, 1]: its logarithm is finite. */
const unit = (): number => 1 - Math.random();

interface StreamCounts {
  answers: number;
  cut: number;
  items: number;
  firstItem: Histogram | null;
  sample: SampledItem[];
  /** Items offered to the sample so far. */
  seen: number;
}

const streamCounts = (): StreamCounts => ({ answers: 0, cut: 0, items: 0, firstItem: null, sample: [], seen: 0 });

export class Recorder {
  responses = 0;
  errors = 0;
  private readonly operations: OperationCounts[];
  private readonly perSecond: number[] = [];
  private readonly errorsPerSecond: number[] = [];
  private readonly activePerSecond: number[] = [];
  private origin = performance.now();
  startedAt = Date.now();

  /** Characters of the sampled bodies kept now. */
  private sampledChars = 0;

  constructor(
    operations: number,
    private readonly bodyBudget = SAMPLED_BODY_BUDGET,
  ) {
    this.operations = Array.from({ length: Math.max(1, operations) }, () => ({ responses: 0, histogram: null, statuses: {}, errors: {}, stream: null, answers: null }));
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

  /**
   * A streamed answer the run ended while it was still open: a response (its status came), with no
   * latency, as it has no end.
   */
  cutResponse(operation: number, status: number): void {
    const op = this.operations[operation];
    op.responses++;
    op.statuses[status] = (op.statuses[status] ?? 0) + 1;
    this.responses++;
    const second = ((performance.now() - this.origin) / 1000) | 0;
    this.perSecond[second] = (this.perSecond[second] ?? 0) + 1;
  }

  /** The items of a streamed answer that ended (or was `cut`), sent at `sentAt`. */
  stream(operation: number, reader: { items: number; firstItemAt: number }, sentAt: number, cut: boolean): void {
    const counts = (this.operations[operation].stream ??= streamCounts());
    counts.answers++;
    if (cut) counts.cut++;
    counts.items += reader.items;
    if (reader.firstItemAt > 0) (counts.firstItem ??= createHistogram()).recordValue(Math.max(1, Math.round((reader.firstItemAt - sentAt) * 1000)));
  }

  /** One item read: kept with probability SAMPLED_ITEMS / items seen (reservoir sampling), so the sample spans the run. */
  streamItem(operation: number, status: number, contentType: string, item: string): void {
    const counts = (this.operations[operation].stream ??= streamCounts());
    const seen = counts.seen++;
    if (seen < SAMPLED_ITEMS) counts.sample.push({ status, contentType, item });
    else {
      const at = Math.floor(Math.random() * (seen + 1));
      if (at < SAMPLED_ITEMS) counts.sample[at] = { status, contentType, item };
    }
  }

  /**
   * A plain answer's head came: the reservoir slot it is to fill when complete, or -1 when it is
   * not kept (probability SAMPLED_ANSWERS / answers seen), decided before its body is read. The
   * answers to pass over are counted ahead (algorithm L), so most answers cost one comparison.
   */
  offerAnswer(operation: number): number {
    const answers = (this.operations[operation].answers ??= { sample: [], seen: 0, next: 0, w: 1 });
    const seen = answers.seen++;
    if (seen < answers.next) return -1;
    if (seen < SAMPLED_ANSWERS) {
      if (seen === SAMPLED_ANSWERS - 1) skipAhead(answers, seen);
      else answers.next = seen + 1;
      return seen;
    }
    skipAhead(answers, seen);
    return Math.floor(Math.random() * SAMPLED_ANSWERS);
  }

  /** A kept answer is complete: into the slot offerAnswer gave it. */
  keepAnswer(operation: number, slot: number, status: number, contentType: string, body: Buffer | null, bodiless: boolean): void {
    const answers = this.operations[operation].answers;
    if (answers === null || slot < 0) return;
    this.sampledChars -= answers.sample[slot]?.body?.length ?? 0;
    let text: string | null = null;
    let unkept: string | undefined;
    if (body === null) unkept = 'body over 1 MiB';
    else if (this.sampledChars + body.length > this.bodyBudget) unkept = `body not kept: the worker's ${Math.round(this.bodyBudget / 1048576)} MiB of sampled bodies were spent`;
    else this.sampledChars += (text = body.toString('utf8')).length;
    answers.sample[slot] = { status, contentType, body: text, bodiless, ...(unkept === undefined ? {} : { unkept }) };
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
      ...(op.stream === null
        ? {}
        : {
            stream: {
              answers: op.stream.answers,
              cut: op.stream.cut,
              items: op.stream.items,
              firstItem: op.stream.firstItem ? encodeHistogram(op.stream.firstItem) : null,
              sample: op.stream.sample,
            },
          }),
      ...(op.answers === null ? {} : { answers: op.answers.sample.filter((a): a is SampledAnswer => a !== undefined) }),
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

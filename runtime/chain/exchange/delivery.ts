// the global `performance` is a getter, read on every call: the module binding is not
import { performance } from 'node:perf_hooks';
import { withoutContent, type Answer, type Delivery } from './answer.js';
import { streamItems, type StreamWriter } from './item-stream.js';

/** Chunks per second of a paced body: small quanta, so the first one ahead of time is a small error. */
export const PACE_TICKS = 50;

export const bytesOf = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? Buffer.from(body) : body);

/** What a server adapter can do on one connection; `deliver` decides which, and when. */
export interface DeliveryWriter extends StreamWriter {
  /** Write `answer` (its hold served) the way the adapter writes from a timer (uWS corks). */
  writeLater(answer: Answer): void;
  /** Abort the connection: a TCP reset where the library can send one, else as drop. */
  reset(): void;
  /** The whole answer at once; `close`: the connection ends after it. */
  whole(answer: Answer, close: boolean): void;
  /** The head and the first `keep` bytes of the body, then the connection ends. */
  truncated(answer: Answer, bytes: Uint8Array, keep: number, close: boolean): void;
  /**
   * One chunk of a paced body (the head before the first): up to `step` bytes from where the
   * last chunk ended. Returns true when the body is all written, else calls `next` once the
   * adapter can take more.
   */
  chunk(answer: Answer, bytes: Uint8Array, step: number, close: boolean, next: () => void): boolean;
}

/**
 * Writes an answer as its `delivery` says (hold, drop, reset, close, truncate, pace) through an
 * adapter's writer, and calls `done` with the answer once it is written or given up; the
 * scheduling is here once for every protocol's writer. Answers without a delivery are the hot
 * path: adapters write them whole themselves.
 */
export function deliver(method: string, answer: Answer, delivery: Delivery, close: boolean, writer: DeliveryWriter, done: (written: Answer) => void): void {
  if (delivery.holdMs !== undefined && delivery.holdMs > 0) {
    const later: Answer = { ...answer, delivery: { ...delivery, holdMs: 0, ...(delivery.stream === undefined ? {} : { itemHoldMs: delivery.holdMs }) } };
    setTimeout(() => {
      // done also when the client left meanwhile: stages holding a place for the request (bulkhead) let it go
      if (writer.gone()) done(answer);
      else writer.writeLater(later);
    }, delivery.holdMs);
    return;
  }
  if (delivery.end === 'drop' || delivery.end === 'reset') {
    if (delivery.end === 'drop') writer.drop();
    else writer.reset();
    done(answer);
    return;
  }
  const closing = close || delivery.end === 'close';
  if (delivery.stream !== undefined && !withoutContent(method, answer.status)) {
    streamItems(writer, answer, delivery.stream, delivery, closing, () => done(answer));
    return;
  }
  if (withoutContent(method, answer.status) || (delivery.truncateAfter === undefined && delivery.bytesPerSecond === undefined)) {
    writer.whole(answer, closing);
    done(answer);
    return;
  }
  const bytes = bytesOf(answer.body);
  if (delivery.truncateAfter !== undefined) {
    writer.truncated(answer, bytes, delivery.truncateAfter, closing);
    done(answer);
    return;
  }
  pace(writer, answer, bytes, Math.max(1, Math.ceil((delivery.bytesPerSecond as number) / PACE_TICKS)), closing, () => done(answer));
}

/** One chunk a tick, on a schedule from the start, so timer lateness does not add up. */
function pace(writer: DeliveryWriter, answer: Answer, bytes: Uint8Array, step: number, close: boolean, done: () => void): void {
  const start = performance.now();
  let ticks = 0;
  const tick = (): void => {
    if (writer.gone()) {
      done();
      return;
    }
    const next = (): void => void setTimeout(tick, Math.max(0, start + ++ticks * (1000 / PACE_TICKS) - performance.now()));
    if (writer.chunk(answer, bytes, step, close, next)) done();
  };
  tick();
}

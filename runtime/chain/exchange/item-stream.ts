// the global `performance` is a getter, read on every call: the module binding is not
import { performance } from 'node:perf_hooks';
import type { Answer, Delivery, ItemStream } from './answer.js';

/** What `streamItems` needs of an adapter's connection (the rest of DeliveryWriter). */
export interface StreamWriter {
  gone(): boolean;
  /** The head, without a length: the body is chunked (HTTP/1.1) until `end`. */
  open(answer: Answer, close: boolean): void;
  /** Writes bytes; false when the connection must drain first, and then `drained` is called once (also when the client leaves). */
  write(bytes: Uint8Array, drained: () => void): boolean;
  /** Ends the body. */
  end(): void;
  /** Closes the connection at once (a truncated stream). */
  drop(): void;
  /** The server is shutting down: a stream ends (properly, its tail written) before its next item. */
  draining?(): boolean;
}

/** A pause longer than this is kept alive with heartbeats (idle timeouts of proxies are 30-60 s). */
const HEARTBEAT_MS = 5000;

/** Ticks per second of a bandwidth-limited item, as delivery.ts paces whole bodies. */
const PACE_TICKS = 50;

/**
 * Writes a stream's items as its delivery says: `interval` between items, chaos's latency
 * (`itemHoldMs`, what the latency stages drew for the request) added before every item after the
 * first, its bandwidth (`bytesPerSecond`) pacing each item's bytes, `truncateAfter` cutting the
 * stream after that many bytes. The next item is made only once the previous one is flushed
 * (backpressure), and nothing more once the client has left; `done` is called once either way.
 */
export function streamItems(writer: StreamWriter, answer: Answer, stream: ItemStream, delivery: Delivery, close: boolean, done: () => void): void {
  let items = 0;
  let written = 0;
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    stream.ended?.(items);
    done();
  };
  const pause = stream.intervalMs + (delivery.itemHoldMs ?? 0);
  const rate = delivery.bytesPerSecond;
  const step = rate === undefined ? 0 : Math.max(1, Math.ceil(rate / PACE_TICKS));

  /** Writes `bytes` (paced when a bandwidth is set), then calls `then`. */
  const put = (bytes: Uint8Array, then: () => void): void => {
    if (rate === undefined) {
      if (writer.write(bytes, then)) then();
      return;
    }
    const start = performance.now();
    let offset = 0;
    let ticks = 0;
    const tick = (): void => {
      if (writer.gone()) return finish();
      const chunk = bytes.subarray(offset, offset + step);
      offset += chunk.byteLength;
      const after = offset >= bytes.byteLength ? then : (): void => void setTimeout(tick, Math.max(0, start + ++ticks * (1000 / PACE_TICKS) - performance.now()));
      if (writer.write(chunk, after)) after();
    };
    tick();
  };

  /** `ms`, with a heartbeat every HEARTBEAT_MS of it when the stream has one. */
  const wait = (ms: number, then: () => void): void => {
    const heartbeat = stream.heartbeat;
    if (heartbeat === undefined || ms <= HEARTBEAT_MS) {
      setTimeout(then, ms);
      return;
    }
    const due = performance.now() + ms;
    const beat = (): void => {
      if (writer.gone()) return finish();
      const left = due - performance.now();
      if (left <= HEARTBEAT_MS) {
        setTimeout(then, Math.max(0, left));
        return;
      }
      setTimeout(() => {
        if (writer.gone()) return finish();
        if (writer.write(heartbeat, beat)) beat();
      }, HEARTBEAT_MS);
    };
    beat();
  };

  const next = (): void => {
    if (writer.gone()) return finish();
    let bytes = writer.draining?.() === true ? undefined : stream.next();
    if (bytes === undefined) {
      if (stream.tail !== undefined) writer.write(stream.tail, () => undefined);
      writer.end();
      return finish();
    }
    items++;
    const cut = delivery.truncateAfter !== undefined && written + bytes.byteLength >= delivery.truncateAfter;
    if (cut) bytes = bytes.subarray(0, (delivery.truncateAfter as number) - written);
    written += bytes.byteLength;
    put(bytes, () => {
      if (cut) {
        writer.drop();
        return finish();
      }
      if (writer.gone()) return finish();
      if (stream.done()) return next();
      wait(pause, next);
    });
  };

  writer.open(answer, close);
  next();
}

/** Events pushed and not yet read that a stream keeps at most: past it the oldest are dropped (a client that never reads does not grow the server). */
export const MAX_QUEUED_EVENTS = 64;

/** A subscription's source: the timer's events, and events pushed between them (what mutations did). */
export interface EventStream<T> extends AsyncIterableIterator<T> {
  /** Delivers `value` now (to a waiting reader, else on the next read), between the timer's events, which keep their schedule and count. */
  push(value: T): void;
  /** Called once when the stream ends, whoever ends it. */
  onEnd?: () => void;
}

/**
 * A subscription's source: event n (0, 1, 2 …) every `intervalMs`, counted from the start (a slow
 * reader gets the next event as soon as it asks once it is due), done after `maxEvents` (0: never);
 * pushed events come in between, first, and count toward no limit. One timer at a time, and none
 * once the stream is done: `return()` (a client that stops, a closed socket) clears it and settles
 * a pending `next()`.
 */
export function eventStream<T>(produce: (n: number) => T, intervalMs: number, maxEvents: number): EventStream<T> {
  const start = Date.now();
  let n = 0;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  let pending: ((result: IteratorResult<T>) => void) | undefined;
  const queued: T[] = [];

  const finish = (): IteratorResult<T> => {
    if (!done) iterator.onEnd?.();
    done = true;
    queued.length = 0;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const settle = pending;
    pending = undefined;
    settle?.({ done: true, value: undefined });
    return { done: true, value: undefined };
  };

  const iterator: EventStream<T> = {
    next() {
      if (done || (maxEvents > 0 && n >= maxEvents)) return Promise.resolve(finish());
      if (pending !== undefined) return Promise.reject(new Error('eventStream: next() called while another is pending'));
      if (queued.length > 0) return Promise.resolve({ done: false, value: queued.shift() as T });
      const due = start + (n + 1) * intervalMs;
      return new Promise<IteratorResult<T>>((resolve) => {
        pending = resolve;
        timer = setTimeout(() => {
          timer = undefined;
          pending = undefined;
          if (done) return resolve({ done: true, value: undefined });
          const value = produce(n++);
          resolve({ done: false, value });
        }, Math.max(0, due - Date.now()));
      });
    },
    push(value) {
      if (done) return;
      const settle = pending;
      if (settle === undefined) {
        if (queued.length >= MAX_QUEUED_EVENTS) queued.shift();
        queued.push(value);
        return;
      }
      // the timer's event n stays due when it was: the next read arms it again
      clearTimeout(timer);
      timer = undefined;
      pending = undefined;
      settle({ done: false, value });
    },
    return() {
      return Promise.resolve(finish());
    },
    throw(error?: unknown) {
      finish();
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

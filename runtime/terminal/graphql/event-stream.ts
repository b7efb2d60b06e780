/**
 * A subscription's source: event n (0, 1, 2 …) every `intervalMs`, counted from the start (a slow
 * reader gets the next event as soon as it asks once it is due), done after `maxEvents` (0: never).
 * One timer at a time, and none once the stream is done: `return()` (a client that stops, a
 * closed socket) clears it and settles a pending `next()`.
 */
export function eventStream<T>(produce: (n: number) => T, intervalMs: number, maxEvents: number): AsyncIterableIterator<T> {
  const start = Date.now();
  let n = 0;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  let pending: ((result: IteratorResult<T>) => void) | undefined;

  const finish = (): IteratorResult<T> => {
    done = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const settle = pending;
    pending = undefined;
    settle?.({ done: true, value: undefined });
    return { done: true, value: undefined };
  };

  const iterator: AsyncIterableIterator<T> = {
    next() {
      if (done || (maxEvents > 0 && n >= maxEvents)) return Promise.resolve(finish());
      if (pending !== undefined) return Promise.reject(new Error('eventStream: next() called while another is pending'));
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

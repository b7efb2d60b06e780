import { useEffect, useState } from 'preact/hooks';

/** A value components can watch: `set` notifies every listener. */
export class Observable<T> {
  private readonly listeners = new Set<() => void>();

  constructor(private current: T) {}

  get value(): T {
    return this.current;
  }

  set(next: T): void {
    this.current = next;
    this.notify();
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The observable's value, re-rendering on change. */
export function useObservable<T>(source: Observable<T>): T {
  const [, setTick] = useState(0);
  useEffect(() => source.subscribe(() => setTick((n) => n + 1)), [source]);
  return source.value;
}

/**
 * Re-renders at most once per animation frame, and at most once per `everyMs`, however often the
 * source notifies (1,000 log entries a second become ≤ 10 renders), and not at all while the tab
 * is hidden or `paused`: a browser painting a list 60 times a second would cost more than the data.
 */
export function useFrameThrottled<T>(source: Observable<T>, everyMs: number, paused = false): T {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (paused) return undefined;
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = 0;
    const draw = (): void => {
      frame = 0;
      timer = undefined;
      last = performance.now();
      setTick((n) => n + 1);
    };
    const off = source.subscribe(() => {
      if (timer !== undefined || frame !== 0) return;
      timer = setTimeout(() => (frame = requestAnimationFrame(draw)), Math.max(0, last + everyMs - performance.now()));
    });
    return () => {
      off();
      clearTimeout(timer);
      cancelAnimationFrame(frame);
    };
  }, [source, everyMs, paused]);
  return source.value;
}

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
 * Re-renders at most once per animation frame however often the source notifies (1,000 log entries
 * a second become ≤ 60 renders), and not at all while the tab is hidden or `paused`.
 */
export function useFrameThrottled<T>(source: Observable<T>, paused = false): T {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (paused) return undefined;
    let frame = 0;
    const off = source.subscribe(() => {
      if (frame === 0) frame = requestAnimationFrame(() => ((frame = 0), setTick((n) => n + 1)));
    });
    return () => {
      off();
      cancelAnimationFrame(frame);
    };
  }, [source, paused]);
  return source.value;
}

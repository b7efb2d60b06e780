import type { Awaitable, Store } from './store.js';

/**
 * One key of a store that its readers need synchronously on the request path (a setting read for
 * every request): the value is held here and replaced from the store's changes, whichever instance
 * made them, so a write is seen by `get` once the store has it (at once, in memory).
 */
export class Cell<T> {
  private current: T;
  private readonly listeners: Array<(value: T) => void> = [];
  /** Stops following the store (the owner is replaced: an engine after a restart). */
  readonly close: () => void;

  /** `initial`: the value while the store holds none (and after the key is deleted). */
  constructor(
    private readonly store: Store<T>,
    private readonly key: string,
    initial: T,
  ) {
    this.current = initial;
    this.close = store.subscribe((change) => {
      if (change.key === key) this.replace(change.value ?? initial);
    });
    const held = store.get(key);
    if (held instanceof Promise) void held.then((value) => value !== undefined && this.replace(value));
    else if (held !== undefined) this.current = held;
  }

  get(): T {
    return this.current;
  }

  set(value: T): Awaitable<void> {
    return this.store.set(this.key, value);
  }

  /** `listener` hears every new value after it is held. */
  onChange(listener: (value: T) => void): void {
    this.listeners.push(listener);
  }

  private replace(value: T): void {
    this.current = value;
    for (const listener of this.listeners) listener(value);
  }
}

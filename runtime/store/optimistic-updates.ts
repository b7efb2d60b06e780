interface Waiting<V> {
  decide: (current: V | undefined) => V | undefined;
  resolve: (value: V | undefined) => void;
  reject: (e: unknown) => void;
}

/** How often an update reads again when another instance changed the entry in between. */
const UPDATE_ATTEMPTS = 50;

/** What a shared store gives its optimistic updates: the entry as JSON (null: none), and a compare-and-set. */
export interface CompareAndSet<V> {
  read(key: string): Promise<string | null>;
  /** Stores `value` only if the entry still holds `expected` (the JSON read, '' for none); answers whether it stored. */
  write(key: string, value: V, expected: string): Promise<boolean>;
}

/**
 * Store.update for a store held by another process (Redis, a cluster's primary): read, decide, then a
 * compare-and-set that stores only if the entry is still what was read, else all again. Updates of
 * one key made while one is in flight wait and go together: one read, each `decide` in turn on the
 * value the one before left, one compare-and-set. A hot key (one rate-limit bucket for every
 * request) then costs two round trips per batch, not a retry per request.
 */
export class OptimisticUpdates<V> {
  private readonly waiting = new Map<string, Array<Waiting<V>>>();

  constructor(
    private readonly store: string,
    private readonly held: CompareAndSet<V>,
  ) {}

  update(key: string, decide: (current: V | undefined) => V | undefined): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(key);
      if (waiting !== undefined) return void waiting.push({ decide, resolve, reject });
      this.waiting.set(key, [{ decide, resolve, reject }]);
      void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    const waiting = this.waiting.get(key) as Array<Waiting<V>>;
    while (waiting.length > 0) {
      const batch = waiting.splice(0);
      try {
        const results = await this.together(
          key,
          batch.map((one) => one.decide),
        );
        batch.forEach((one, i) => one.resolve(results[i]));
      } catch (e) {
        for (const one of batch) one.reject(e);
      }
    }
    this.waiting.delete(key);
  }

  private async together(key: string, decides: Array<(current: V | undefined) => V | undefined>): Promise<Array<V | undefined>> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const read = await this.held.read(key);
      let json = read;
      let last: V | undefined;
      // each decide gets its own copy: one may change what it is given and still return undefined
      const results = decides.map((decide) => {
        const next = decide(json === null ? undefined : (JSON.parse(json) as V));
        if (next !== undefined) {
          last = next;
          json = JSON.stringify(next);
        }
        return next;
      });
      if (last === undefined) return results;
      if (await this.held.write(key, last, read ?? '')) return results;
    }
    throw new Error(`${this.store}: the entry ${key} changed under ${UPDATE_ATTEMPTS} updates in a row; try again`);
  }
}

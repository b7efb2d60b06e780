interface Waiting<V> {
  decide: (current: V | undefined) => V | undefined;
  resolve: (value: V | undefined) => void;
  reject: (e: unknown) => void;
}

/** How often an update reads again when another instance changed the entry in between. */
const UPDATE_ATTEMPTS = 50;

/** Keys whose last written value is remembered (and keys known to be written elsewhere too): the most recently updated. */
const KEYS_REMEMBERED = 1000;

/** A bounded map: past KEYS_REMEMBERED keys, the least recently set goes. */
class Remembered<V> {
  private readonly map = new Map<string, V>();

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > KEYS_REMEMBERED) this.map.delete(this.map.keys().next().value as string);
  }

  delete(key: string): void {
    this.map.delete(key);
  }
}

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
 * request) then costs two round trips per batch, not a retry per request; one, while no other
 * instance writes the key: the value this one last wrote is the expected value of the next
 * compare-and-set, without reading it first. A key another instance wrote in between (the
 * compare-and-set fails) is read first from then on.
 */
export class OptimisticUpdates<V> {
  private readonly waiting = new Map<string, Array<Waiting<V>>>();
  /** The JSON this instance last wrote to each key. */
  private readonly written = new Remembered<string>();
  /** Keys another instance writes too: their value is read before every compare-and-set. */
  private readonly shared = new Remembered<true>();

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
      const guessed = attempt === 0 && !this.shared.has(key) ? this.written.get(key) : undefined;
      const read = guessed ?? (await this.held.read(key));
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
      // decided on a remembered value and nothing to write: nothing checked that value, so read it
      if (last === undefined && guessed !== undefined) continue;
      if (last === undefined) return results;
      if (await this.held.write(key, last, read ?? '')) {
        this.written.set(key, json as string);
        return results;
      }
      this.written.delete(key);
      if (guessed !== undefined) this.shared.set(key, true);
    }
    throw new Error(`${this.store}: the entry ${key} changed under ${UPDATE_ATTEMPTS} updates in a row; try again`);
  }
}

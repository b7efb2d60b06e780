/**
 * A fixed-capacity ring: `push` is O(1) and overwrites the oldest item once full. Storage is one
 * preallocated array, so a steady stream of pushes allocates nothing here.
 */
export class RingBuffer<T> {
  readonly capacity: number;
  private readonly items: Array<T | undefined>;
  /** Index the next push writes to. */
  private next = 0;
  private count = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring buffer capacity must be a positive integer, not ${capacity}`);
    this.capacity = capacity;
    this.items = new Array<T | undefined>(capacity).fill(undefined);
  }

  get size(): number {
    return this.count;
  }

  /** Adds `item`; returns the oldest one it overwrote, if the ring was full. */
  push(item: T): T | undefined {
    const dropped = this.count === this.capacity ? this.items[this.next] : undefined;
    this.items[this.next] = item;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    if (this.count < this.capacity) this.count++;
    return dropped;
  }

  /**
   * Items newest first, keeping those `keep` accepts, at most `limit` of them. Stops walking as soon
   * as `limit` items are found.
   */
  newest(limit = Infinity, keep?: (item: T) => boolean): T[] {
    const out: T[] = [];
    let index = this.next;
    for (let seen = 0; seen < this.count && out.length < limit; seen++) {
      index = index === 0 ? this.capacity - 1 : index - 1;
      const item = this.items[index] as T;
      if (keep === undefined || keep(item)) out.push(item);
    }
    return out;
  }

  clear(): void {
    this.items.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}

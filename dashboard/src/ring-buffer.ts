/** The newest `capacity` items, oldest overwritten first; index 0 is the newest. */
export class RingBuffer<T> {
  private readonly items: Array<T | undefined>;
  private next = 0;
  private count = 0;
  /** Items ever pushed: tells a view how many arrived since it last looked. */
  pushed = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
    this.pushed++;
  }

  /** The i-th newest item (0: the newest). */
  at(i: number): T {
    return this.items[(this.next - 1 - i + this.capacity * 2) % this.capacity] as T;
  }

  clear(): void {
    this.items.fill(undefined);
    this.count = 0;
  }

  /** Newest first. */
  toArray(): T[] {
    return Array.from({ length: this.count }, (_, i) => this.at(i));
  }
}

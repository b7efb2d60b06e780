/**
 * bulkhead: at most maxConcurrent requests inside, at most maxQueue more waiting in FIFO order,
 * the rest refused (the caller answers 503). enter() gives a release function right away when a
 * slot is free, a promise of one when the request has to wait, and null when the queue is full.
 * Releasing hands the slot straight to the oldest waiter. A release function works once; later
 * calls do nothing, so a request can release on every path out without counting twice. A waiter
 * whose client went away must still release what it is given.
 */
export class Bulkhead {
  private inside = 0;
  private readonly waiting: Array<(release: () => void) => void> = [];
  private readonly maxConcurrent: number;
  private readonly maxQueue: number;

  constructor(o: { maxConcurrent: number; maxQueue: number }) {
    if (!(Number.isInteger(o.maxConcurrent) && o.maxConcurrent >= 1)) throw new RangeError(`a bulkhead needs maxConcurrent >= 1 (got ${o.maxConcurrent})`);
    if (!(Number.isInteger(o.maxQueue) && o.maxQueue >= 0)) throw new RangeError(`a bulkhead needs maxQueue >= 0 (got ${o.maxQueue})`);
    this.maxConcurrent = o.maxConcurrent;
    this.maxQueue = o.maxQueue;
  }

  enter(): (() => void) | Promise<() => void> | null {
    if (this.inside < this.maxConcurrent) {
      this.inside++;
      return this.releaser();
    }
    if (this.waiting.length >= this.maxQueue) return null;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  get active(): number {
    return this.inside;
  }

  get queued(): number {
    return this.waiting.length;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next === undefined) this.inside--;
      else next(this.releaser());
    };
  }
}

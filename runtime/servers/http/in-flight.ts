/**
 * The requests a server is still answering, for a graceful close: once it stops accepting, it
 * waits for these (up to a grace period) before ending its connections, so that every request
 * it took is answered, logged and recorded. Only requests answered later than the turn they came
 * in are counted (a body still arriving, a promise, a paced delivery): one answered within its
 * turn cannot be in flight when a close runs, so the hot path pays nothing.
 */
export class InFlight {
  private count = 0;
  private idle: (() => void) | undefined;
  /** Set once the server stops accepting: answers close their connection (`Connection: close`). */
  draining = false;

  /** A request that will be answered later; the returned function ends it, once (answered or aborted). */
  begin(): () => void {
    this.count++;
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.count--;
      if (this.count === 0) this.idle?.();
    };
  }

  get pending(): number {
    return this.count;
  }

  /** Stops new work from keeping connections, and resolves once nothing is in flight or `graceMs` passed (true: drained). */
  drain(graceMs: number): Promise<boolean> {
    this.draining = true;
    if (this.count === 0) return Promise.resolve(true);
    if (graceMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idle = undefined;
        resolve(false);
      }, graceMs);
      this.idle = () => {
        clearTimeout(timer);
        this.idle = undefined;
        resolve(true);
      };
    });
  }
}

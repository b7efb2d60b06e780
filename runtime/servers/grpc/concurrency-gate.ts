/** grpc.concurrency_limit: calls in flight per connection (grpc-js names a connection by its peer address and port). */
export class ConcurrencyGate {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** The release function, or undefined when the connection is at the limit. */
  enter(peer: string): (() => void) | undefined {
    const now = this.inFlight.get(peer) ?? 0;
    if (now >= this.limit) return undefined;
    this.inFlight.set(peer, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(peer) ?? 1) - 1;
      if (left === 0) this.inFlight.delete(peer);
      else this.inFlight.set(peer, left);
    };
  }
}

/** The commands a factory's stores sent to the process that holds them (Redis, a cluster's primary), until each settles. */
export class PendingCommands {
  private readonly pending = new Set<Promise<unknown>>();

  track(command: Promise<unknown>): void {
    this.pending.add(command);
    const done = (): void => void this.pending.delete(command);
    command.then(done, done);
  }

  /** StoreFactory.settled: once every command sent so far has settled, and what its callers chained on it has run. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    // a turn of the event loop: every callback chained on those commands (a Cell taking the value it read) has run
    await new Promise((resolve) => setImmediate(resolve));
  }
}

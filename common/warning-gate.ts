/** How often a gate lets a warning through. */
export const WARNING_INTERVAL_MS = 60_000;

/**
 * One warning line per interval for an event that can repeat at the client's pace (a store
 * forgetting objects past its budget, slow readers cut off): the first is logged, the next ones
 * within the interval are counted, and the count is told with the next line that passes. A log
 * that an unauthenticated client could fill line by line would be a disk to fill.
 */
export class WarningGate {
  private last = Number.NEGATIVE_INFINITY;
  private held = 0;

  constructor(
    private readonly log: (message: string) => void,
    private readonly intervalMs = WARNING_INTERVAL_MS,
  ) {}

  /** Whether a warning would be logged now (a caller that sums up what happened meanwhile asks first). */
  due(): boolean {
    return Date.now() - this.last >= this.intervalMs;
  }

  warn(message: string): void {
    const now = Date.now();
    if (now - this.last < this.intervalMs) {
      this.held++;
      return;
    }
    const held = this.held;
    this.last = now;
    this.held = 0;
    this.log(held === 0 ? message : `${message} (and ${held} more like it since the last such warning)`);
  }
}

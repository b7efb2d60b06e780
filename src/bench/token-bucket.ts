// Rate caps (--rps, --cps) inside one worker: a token bucket with a small burst, and a queue of
// waiters released by one timer, so a thousand waiting virtual users cost one pending timeout.

export class TokenBucket {
  private tokens = 1;
  private last: number;
  private readonly burst: number;
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;

  /** @param rate tokens per second; 0 or Infinity: no cap */
  constructor(
    private readonly rate: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.last = now();
    // 100 ms worth of tokens: a timer that fires late (a busy machine) loses no tokens, and
    // setTimeout's millisecond granularity cannot starve high rates
    this.burst = Math.max(1, rate / 10);
  }

  get unlimited(): boolean {
    return !(this.rate > 0) || !Number.isFinite(this.rate);
  }

  /** Takes a token if one is there. */
  take(): boolean {
    if (this.unlimited) return true;
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  /** Runs `go` now when a token is there, else once one is (first come, first served). */
  acquire(go: () => void): void {
    if (this.waiting.length === 0 && this.take()) go();
    else {
      this.waiting.push(go);
      this.schedule();
    }
  }

  /** Drops every waiter (the run is stopping). */
  clear(): Array<() => void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.waiting.splice(0);
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const wait = Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / this.rate));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refill();
      while (this.waiting.length > 0 && this.tokens >= 1) {
        this.tokens -= 1;
        (this.waiting.shift() as () => void)();
      }
      if (this.waiting.length > 0) this.schedule();
    }, wait);
  }
}

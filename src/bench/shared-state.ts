// A SharedArrayBuffer per target run: the main thread raises the stop flag (SIGINT, or the end of
// --repeat-until) and reads live counters for the progress line; workers publish their counters a
// few times a second, never per request.

const FIELDS = 4; // responses, errors, active VUs, elapsed ms

export class SharedState {
  private readonly flags: Int32Array;
  private readonly counters: Float64Array;

  constructor(
    readonly buffer: SharedArrayBuffer,
    private readonly workers: number,
  ) {
    this.flags = new Int32Array(buffer, 0, 2);
    this.counters = new Float64Array(buffer, 8, workers * FIELDS);
  }

  static create(workers: number): SharedState {
    return new SharedState(new SharedArrayBuffer(8 + workers * FIELDS * 8), workers);
  }

  stop(): void {
    Atomics.store(this.flags, 0, 1);
  }

  get stopped(): boolean {
    return Atomics.load(this.flags, 0) === 1;
  }

  publish(worker: number, responses: number, errors: number, active: number, elapsedMs: number): void {
    const at = worker * FIELDS;
    this.counters[at] = responses;
    this.counters[at + 1] = errors;
    this.counters[at + 2] = active;
    this.counters[at + 3] = elapsedMs;
  }

  /** Sums over the workers; elapsed: the longest-running worker's time since it started sending. */
  read(): { responses: number; errors: number; active: number; elapsedMs: number } {
    let responses = 0;
    let errors = 0;
    let active = 0;
    let elapsedMs = 0;
    for (let w = 0; w < this.workers; w++) {
      responses += this.counters[w * FIELDS];
      errors += this.counters[w * FIELDS + 1];
      active += this.counters[w * FIELDS + 2];
      elapsedMs = Math.max(elapsedMs, this.counters[w * FIELDS + 3]);
    }
    return { responses, errors, active, elapsedMs };
  }
}

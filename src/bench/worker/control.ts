// The life of one worker's part of a run, whatever the load pattern: a 50 ms tick (shape, request
// timeouts, progress, stop flag), the end of the duration, a short grace period for requests still
// in flight, then every socket closed and the counts returned.
import type { Socket } from 'node:net';
import type { Task, WorkerResult } from '../protocol.js';
import { SharedState } from '../shared-state.js';
import { TokenBucket } from '../token-bucket.js';
import { Recorder } from './recorder.js';

const TICK_MS = 50;
/** How long requests in flight at the end of the run may take to complete (then they are dropped). */
const GRACE_MS = 2_000;

/** What a load pattern plugs into the control. */
export interface Load {
  /** Start sending. */
  begin(): void;
  /** Every tick: follow the shape, time requests out; returns the number of active slots. */
  tick(elapsedMs: number, now: number): number;
  /** True when nothing is in flight any more (checked while stopping). */
  quiet(): boolean;
  /** Sending stops, and again at the very end: end what will not end by itself (streams still open). */
  stop?(): void;
  /** Sockets to destroy at the end. */
  sockets(): Iterable<Socket>;
}

export class RunControl {
  readonly recorder: Recorder;
  readonly rps: TokenBucket;
  readonly cps: TokenBucket;
  stopping = false;
  connections = 0;
  private readonly shared: SharedState;
  private sendWindowMs = 0;
  private interrupted = false;
  private finishing: (() => void) | null = null;

  constructor(
    readonly task: Task,
    operations: number,
  ) {
    this.recorder = new Recorder(operations);
    this.rps = new TokenBucket(task.rps);
    this.cps = new TokenBucket(task.cps);
    this.shared = new SharedState(task.shared, task.workers);
  }

  run(load: Load): Promise<WorkerResult> {
    return new Promise((resolve) => {
      const recorder = this.recorder;
      const shared = this.shared;
      let grace: NodeJS.Timeout | null = null;
      let ticker: NodeJS.Timeout | null = null;
      const finish = () => {
        if (ticker) clearInterval(ticker);
        if (grace) clearTimeout(grace);
        ticker = grace = null;
        this.finishing = null;
        load.stop?.(); // streams that began during the grace period
        for (const socket of load.sockets()) socket.destroy();
        shared.publish(this.task.worker, recorder.responses, recorder.errors, 0, this.sendWindowMs);
        resolve(recorder.result(this.sendWindowMs, this.connections, this.interrupted));
      };
      const stop = () => {
        if (this.stopping) return;
        this.stopping = true;
        this.sendWindowMs = recorder.elapsed();
        for (const waiter of [...this.rps.clear(), ...this.cps.clear()]) waiter();
        load.stop?.();
        this.finishing = finish;
        if (load.quiet()) return finish();
        grace = setTimeout(finish, Math.min(GRACE_MS, this.task.timeoutMs));
      };
      const tick = () => {
        const elapsed = recorder.elapsed();
        if (shared.stopped && !this.stopping) {
          this.interrupted = elapsed < this.task.durationMs;
          stop();
        }
        if (!this.stopping && elapsed >= this.task.durationMs) stop();
        const active = load.tick(elapsed, performance.now());
        recorder.sample(this.stopping ? 0 : active);
        shared.publish(this.task.worker, recorder.responses, recorder.errors, this.stopping ? 0 : active, this.stopping ? this.sendWindowMs : elapsed);
      };
      recorder.begin();
      ticker = setInterval(tick, TICK_MS);
      // the end of the run is exact, not rounded to the tick
      const end = setTimeout(stop, this.task.durationMs);
      end.unref();
      load.begin();
      tick();
    });
  }

  /** Call when a slot went idle while stopping: ends the run once nothing is in flight. */
  settled(load: Load): void {
    if (this.finishing && load.quiet()) this.finishing();
  }
}

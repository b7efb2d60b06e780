import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { compiledModule } from '../../common/package-root.js';
import { ACTION, BAD_OUTPUT, BROKEN, CALL, CONTROL_SLOTS, DATA_BYTES, DONE, IDLE, LENGTH, OK, STARTING, STATE, STATUS, TOO_LARGE, polled, type SandboxData } from './sandbox-protocol.js';
import type { PluginLimits } from './abi.js';

/** Why a call gave no output: the module trapped (or ran out of memory), answered what is not JSON, or overran its time. */
export type CallFailure = { kind: 'trapped' | 'garbage' | 'timeout' | 'unavailable'; reason: string };
export type CallResult = { ok: true; json: string } | ({ ok: false } & CallFailure);

/** The cores this process may use (its affinity included): with one, the threads hand over without polling. */
const POLL = availableParallelism() > 1;

/** How long a thread may take to load its module, the caller waiting (at start and after a time-out). */
const LOAD_MS = 10_000;

/**
 * One plugin's sandbox: its module instantiated in a thread of its own, called synchronously. The
 * caller waits on the shared state at most max_execution_ms (wall-clock); a call that overruns has
 * its thread terminated and a new one started, so the plugin's memory starts afresh too.
 */
export class Sandbox {
  // new buffers for each thread: a terminated one may still write to its own before it stops
  private control = new SharedArrayBuffer(CONTROL_SLOTS * 4);
  private ctl = new Int32Array(this.control);
  private data = new SharedArrayBuffer(DATA_BYTES);
  private buffer = Buffer.from(this.data);
  private readonly actionIndex: Map<string, number>;
  private worker: Worker | undefined;
  /** The worker has loaded its module (checked once after each spawn). */
  private ready = false;

  constructor(
    private readonly module: Uint8Array,
    private readonly actions: string[],
    private readonly limits: PluginLimits,
    private readonly usesWasi: boolean,
  ) {
    this.actionIndex = new Map(actions.map((a, i) => [a, i]));
  }

  /** Starts the thread and waits until the module is loaded; throws why it cannot be. */
  start(): void {
    for (const dir of this.limits.allowed_paths) {
      if (!isDirectory(dir)) throw new Error(`allowed_paths ${dir} is not a directory (create it, or remove it from plugins.sandbox in mock.yaml)`);
    }
    this.spawn();
    this.awaitReady();
  }

  /** A new thread on new buffers, not waited for. */
  private spawn(): void {
    this.ready = false;
    this.control = new SharedArrayBuffer(CONTROL_SLOTS * 4);
    this.ctl = new Int32Array(this.control);
    this.data = new SharedArrayBuffer(DATA_BYTES);
    this.buffer = Buffer.from(this.data);
    const workerData: SandboxData = {
      module: this.module,
      control: this.control,
      data: this.data,
      actions: this.actions,
      preopens: Object.fromEntries(this.limits.allowed_paths.map((p) => [p, p])),
      usesWasi: this.usesWasi,
      poll: POLL,
    };
    // the thread's own JS heap is small; the module's linear memory is capped by its declared maximum
    const worker = new Worker(compiledModule('runtime/plugins/sandbox-thread.js'), {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
      stdout: true,
      stderr: true,
    });
    worker.on('error', () => {});
    worker.unref();
    this.worker = worker;
  }

  private awaitReady(): void {
    Atomics.wait(this.ctl, STATE, STARTING, LOAD_MS);
    const state = Atomics.load(this.ctl, STATE);
    if (state === IDLE) {
      this.ready = true;
      return;
    }
    this.stop();
    throw new Error(state === BROKEN ? this.buffer.toString('utf8', 0, this.buffer.indexOf(0) === -1 ? 256 : this.buffer.indexOf(0)) : `its thread did not load it within ${LOAD_MS} ms`);
  }

  /** Calls `action` with the input JSON text; waits at most max_execution_ms. */
  call(action: string, input: string): CallResult {
    const index = this.actionIndex.get(action);
    if (index === undefined) return { ok: false, kind: 'unavailable', reason: `the plugin has no action ${action}` };
    if (!this.ready) {
      try {
        if (this.worker === undefined) this.start();
        else this.awaitReady();
      } catch (e) {
        return { ok: false, kind: 'unavailable', reason: (e as Error).message };
      }
    }
    const length = Buffer.byteLength(input);
    if (length > DATA_BYTES) return { ok: false, kind: 'unavailable', reason: `the input is ${length} bytes, more than ${DATA_BYTES}` };
    this.buffer.write(input, 0, 'utf8');
    const ctl = this.ctl;
    Atomics.store(ctl, ACTION, index);
    Atomics.store(ctl, LENGTH, length);
    Atomics.store(ctl, STATE, CALL);
    Atomics.notify(ctl, STATE);
    const deadline = performance.now() + this.limits.max_execution_ms;
    if (POLL) polled(ctl, DONE);
    for (;;) {
      if (Atomics.load(ctl, STATE) === DONE) break;
      const left = deadline - performance.now();
      if (left <= 0) {
        // the replacement loads while the server answers other requests
        this.stop();
        this.spawn();
        return { ok: false, kind: 'timeout', reason: `no answer within max_execution_ms (${this.limits.max_execution_ms} ms); its thread was stopped` };
      }
      Atomics.wait(ctl, STATE, CALL, left);
    }
    const status = Atomics.load(ctl, STATUS);
    const text = this.buffer.toString('utf8', 0, Atomics.load(ctl, LENGTH));
    Atomics.store(ctl, STATE, IDLE);
    if (status === OK) return { ok: true, json: text };
    return { ok: false, kind: status === BAD_OUTPUT || status === TOO_LARGE ? 'garbage' : 'trapped', reason: text };
  }

  /** Ends the thread (a new call starts another). */
  stop(): void {
    void this.worker?.terminate();
    this.worker = undefined;
    this.ready = false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

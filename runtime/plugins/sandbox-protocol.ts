/**
 * How the answering thread and a plugin's thread talk: one control array and one data buffer, both
 * shared. The caller writes the input into the data buffer, sets CALL and waits (Atomics.wait with
 * the plugin's time limit); the thread writes the output (or why it failed) and sets DONE. No
 * message crosses a port on a call, so a call costs two thread wake-ups and two copies.
 */
export const STATE = 0;
export const STATUS = 1;
export const LENGTH = 2;
export const ACTION = 3;
export const CONTROL_SLOTS = 4;

export const STARTING = 0;
export const IDLE = 1;
export const CALL = 2;
export const DONE = 3;
/** The module could not be loaded; the data buffer holds why. */
export const BROKEN = 4;

export const OK = 0;
export const TRAPPED = 1;
export const BAD_OUTPUT = 2;
export const TOO_LARGE = 3;

/**
 * How long each side polls the shared state before it sleeps in Atomics.wait, when the process may
 * run on more than one core: waking a sleeping thread on another core (a halted virtual CPU, a deep
 * idle state) costs tens of microseconds, more than most calls take. On one core, where polling
 * would only hold the core the other thread needs, neither side polls.
 */
export const POLL_NS = 50_000n;

/** Polls `ctl[STATE]` until it is `wanted` or POLL_NS has passed; whether it got there. */
export function polled(ctl: Int32Array, wanted: number): boolean {
  const until = process.hrtime.bigint() + POLL_NS;
  for (let i = 0; ; i++) {
    if (Atomics.load(ctl, STATE) === wanted) return true;
    if ((i & 63) === 63 && process.hrtime.bigint() > until) return false;
  }
}

/** Input and output of one call are at most this many bytes. */
export const DATA_BYTES = 1024 * 1024;

export interface SandboxData {
  module: Uint8Array;
  control: SharedArrayBuffer;
  data: SharedArrayBuffer;
  actions: string[];
  /** Guest path -> host path, for WASI. */
  preopens: Record<string, string>;
  usesWasi: boolean;
  /** Poll before sleeping (more than one core). */
  poll: boolean;
}

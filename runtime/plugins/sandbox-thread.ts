import { workerData } from 'node:worker_threads';
import { openSync } from 'node:fs';
import { devNull } from 'node:os';
import { WASI } from 'node:wasi';
import { ABI_VERSION, ABI_VERSION_EXPORT, ALLOC_EXPORT } from './abi.js';
import { ACTION, BAD_OUTPUT, BROKEN, CALL, DONE, IDLE, LENGTH, OK, STATE, STATUS, TOO_LARGE, TRAPPED, polled, type SandboxData } from './sandbox-protocol.js';

/**
 * A plugin's thread: it owns the module's instance and answers calls from the shared buffers (see
 * sandbox-protocol.ts). It never returns to an event loop: a call that runs away is stopped by the
 * caller terminating the thread.
 */
const { module, control, data, actions, preopens, usesWasi, poll } = workerData as SandboxData;
const ctl = new Int32Array(control);
const buffer = Buffer.from(data);

const finish = (status: number, length: number): void => {
  Atomics.store(ctl, STATUS, status);
  Atomics.store(ctl, LENGTH, length);
  Atomics.store(ctl, STATE, DONE);
  Atomics.notify(ctl, STATE);
};
const fail = (status: number, message: string): void => finish(status, buffer.write(message, 0, 'utf8'));

type Exports = Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory };
let exports: Exports;
try {
  // its standard streams lead nowhere: WASI would otherwise hand it the server's own descriptors 0-2
  const nowhere = openSync(devNull, 'r+');
  const wasi = new WASI({ version: 'preview1', args: [], env: {}, preopens, returnOnExit: true, stdin: nowhere, stdout: nowhere, stderr: nowhere });
  const instance = new WebAssembly.Instance(new WebAssembly.Module(module as Uint8Array<ArrayBuffer>), usesWasi ? { wasi_snapshot_preview1: wasi.wasiImport } : {});
  exports = instance.exports as Exports;
  if (usesWasi) wasi.initialize(instance);
  const version = exports[ABI_VERSION_EXPORT]();
  if (version !== ABI_VERSION) throw new Error(`${ABI_VERSION_EXPORT}() answers ${version}; this mock speaks ABI version ${ABI_VERSION}`);
} catch (e) {
  buffer.write((e as Error).message, 0, 'utf8');
  Atomics.store(ctl, STATE, BROKEN);
  Atomics.notify(ctl, STATE);
  throw e;
}

const functions = actions.map((name) => exports[name]);
Atomics.store(ctl, STATE, IDLE);
Atomics.notify(ctl, STATE);

for (;;) {
  const state = Atomics.load(ctl, STATE);
  if (state !== CALL) {
    // the next call often follows at once: it finds this thread awake
    if (!poll || !polled(ctl, CALL)) Atomics.wait(ctl, STATE, state);
    continue;
  }
  call(functions[Atomics.load(ctl, ACTION)], Atomics.load(ctl, LENGTH));
}

function call(fn: (ptr: number, len: number) => number, length: number): void {
  let out: number;
  try {
    const ptr = exports[ALLOC_EXPORT](length) >>> 0;
    const memory = exports.memory.buffer;
    if (ptr + length > memory.byteLength) return fail(BAD_OUTPUT, `${ALLOC_EXPORT}(${length}) answered a pointer outside its memory`);
    new Uint8Array(memory, ptr, length).set(buffer.subarray(0, length));
    out = fn(ptr, length) >>> 0;
  } catch (e) {
    return fail(TRAPPED, (e as Error).message);
  }
  const memory = exports.memory.buffer;
  if (out + 4 > memory.byteLength) return fail(BAD_OUTPUT, `the action answered pointer ${out}, outside its memory`);
  const size = new DataView(memory).getUint32(out, true);
  if (out + 4 + size > memory.byteLength) return fail(BAD_OUTPUT, `the action answered ${size} bytes at ${out}, past the end of its memory`);
  if (size > buffer.length) return fail(TOO_LARGE, `the action answered ${size} bytes, more than ${buffer.length}`);
  buffer.set(new Uint8Array(memory, out + 4, size));
  finish(OK, size);
}

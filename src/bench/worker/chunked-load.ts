// `mock bench-chunked` in a worker: each slot sends one request at a time with a
// `Transfer-Encoding: chunked` body framed in chunks of --chunk-size-bytes, on a keep-alive
// connection of its own. Without --chunk-interval-ms the framed request is written at once (the
// framing is still chunked); with it, one chunk per interval. The latency runs from the first
// byte of the request to the end of the response.
import type { Socket } from 'node:net';
import type { ChunkedTask, WorkerResult } from '../protocol.js';
import { ResponseParser } from '../response-parser.js';
import { RunControl, type Load } from './control.js';
import { watchSocket, reconnectDelayMs } from './socket.js';

/** The body as chunk frames: `<hex size>\r\n<data>\r\n` …, then `0\r\n\r\n`. */
export function frameChunks(body: Uint8Array, chunkSize: number): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at < body.length; at += chunkSize) {
    const data = body.subarray(at, Math.min(body.length, at + chunkSize));
    frames.push(Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`, 'latin1'), data, Buffer.from('\r\n', 'latin1')]));
  }
  frames.push(Buffer.from('0\r\n\r\n', 'latin1'));
  return frames;
}

export function runChunked(task: ChunkedTask): Promise<WorkerResult> {
  const control = new RunControl(task, 1);
  const head = Buffer.from(task.head.buffer, task.head.byteOffset, task.head.byteLength);
  const frames = frameChunks(task.body, task.chunkSize);
  const whole = Buffer.concat([head, ...frames]);
  const slots: ChunkedSender[] = [];
  for (let id = task.worker; id < task.concurrency; id += task.workers) slots.push(new ChunkedSender(control, head, frames, whole, task));
  const load: Load = {
    begin() {
      for (const s of slots) s.next();
    },
    tick(_elapsed, now) {
      for (const s of slots) s.timeout(now, task.timeoutMs);
      return slots.length;
    },
    quiet: () => slots.every((s) => !s.busy),
    *sockets() {
      for (const s of slots) if (s.socket) yield s.socket;
    },
  };
  for (const s of slots) s.load = load;
  return control.run(load);
}

class ChunkedSender {
  socket: Socket | null = null;
  busy = false;
  load!: Load;
  private sentAt = 0;
  private failedConnects = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The body is still being written (a response now means the server answered early). */
  private writing = false;
  private readonly parser: ResponseParser;

  constructor(
    private readonly control: RunControl,
    private readonly head: Buffer,
    private readonly frames: Buffer[],
    private readonly whole: Buffer,
    private readonly task: ChunkedTask,
  ) {
    this.parser = new ResponseParser((status, close) => this.onResponse(status, close));
  }

  next(): void {
    if (this.control.stopping) return this.control.settled(this.load);
    this.control.rps.acquire(() => {
      if (this.control.stopping) return this.control.settled(this.load);
      if (this.socket === null) this.control.cps.acquire(() => (this.control.stopping ? this.control.settled(this.load) : this.send(true)));
      else this.send(false);
    });
  }

  timeout(now: number, timeoutMs: number): void {
    if (this.busy && now - this.sentAt > timeoutMs) this.fail('ETIMEDOUT');
  }

  private send(connect: boolean): void {
    if (connect) this.connect();
    const socket = this.socket as Socket;
    this.busy = true;
    this.sentAt = performance.now();
    if (this.task.intervalMs <= 0) {
      socket.write(this.whole);
      return;
    }
    this.writing = true;
    socket.write(this.head);
    let index = 0;
    const writeNext = () => {
      this.timer = null;
      if (this.socket !== socket || !this.writing) return;
      socket.write(this.frames[index++]);
      if (index < this.frames.length) this.timer = setTimeout(writeNext, this.task.intervalMs);
      else this.writing = false;
    };
    writeNext();
  }

  private connect(): void {
    this.control.connections++;
    const socket = watchSocket(this.task.endpoint, {
      isCurrent: () => this.socket === socket,
      parser: this.parser,
      connected: () => {
        this.failedConnects = 0;
      },
      protocolError: () => this.fail('EPROTO'),
      closed: (connected, failure) => {
        this.socket = null;
        if (this.busy && this.parser.finish()) return; // a read-until-close response ends here
        this.parser.reset();
        if (!this.busy) return; // an idle keep-alive connection closed: the next request opens one
        if (!connected) this.failedConnects++;
        this.fail(failure ?? 'ECONNRESET');
      },
    });
    this.socket = socket;
  }

  private onResponse(status: number, close: boolean): void {
    if (!this.busy) return;
    this.busy = false;
    this.control.recorder.response(0, status, this.sentAt);
    // an answer before the whole body went out leaves the connection mid-request: start afresh
    if (close || this.writing) this.drop();
    this.next();
  }

  private fail(code: string): void {
    if (this.busy) this.control.recorder.error(0, code);
    this.busy = false;
    this.drop();
    if (this.control.stopping) return this.control.settled(this.load);
    const delay = reconnectDelayMs(this.failedConnects);
    setTimeout(() => this.next(), delay);
  }

  private drop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = false;
    const socket = this.socket;
    this.socket = null;
    this.parser.reset();
    socket?.destroy();
  }
}

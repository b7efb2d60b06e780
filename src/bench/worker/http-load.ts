// `mock bench` in a worker: closed-loop virtual users. Each VU owns one keep-alive connection and
// has exactly one request in flight; when its response is complete it sends the next request of
// the plan (pre-serialised bytes, one socket.write). The scenario decides which VUs are active.
// When the description documents streams, an answer of a sequential media type is read item by
// item (stream-reader.ts); one still open when sending stops is closed then and counted as cut.
// A uniform sample of the other answers is kept whole (recorder.ts) for the main thread to validate.
import type { Socket } from 'node:net';
import type { HttpTask, WorkerResult } from '../protocol.js';
import { ResponseParser, type SampleHooks, type StreamHooks } from '../response-parser.js';
import { activeVus } from '../scenarios.js';
import { RunControl, type Load } from './control.js';
import { watchSocket, reconnectDelayMs } from './socket.js';
import { StreamReader } from './stream-reader.js';

interface Planned {
  operation: number;
  bytes: Buffer;
  bodiless: boolean;
}

const enum VuState {
  Parked,
  Waiting,
  Busy,
  Idle,
}

export function runHttp(task: HttpTask): Promise<WorkerResult> {
  const control = new RunControl(task, task.operations);
  const plan: Planned[] = task.requests.map((r) => ({
    operation: r.operation,
    bytes: Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength),
    bodiless: r.bodiless,
  }));
  const vus: VirtualUser[] = [];
  for (let id = task.worker; id < task.vus; id += task.workers) vus.push(new VirtualUser(id, control, plan, task.streams, task.sampleAnswers));
  let active = 0; // VUs active across all workers
  const load: Load = {
    begin() {
      active = activeVus(task.scenario, task.vus, 0, task.durationMs);
      for (const vu of vus) vu.activate(active);
    },
    tick(elapsed, now) {
      if (!control.stopping) {
        active = activeVus(task.scenario, task.vus, elapsed, task.durationMs);
        for (const vu of vus) vu.activate(active);
      }
      let local = 0;
      for (const vu of vus) {
        vu.timeout(now, task.timeoutMs);
        if (vu.id < active) local++;
      }
      return local;
    },
    quiet: () => vus.every((vu) => vu.state !== VuState.Busy),
    stop() {
      for (const vu of vus) vu.cut();
    },
    *sockets() {
      for (const vu of vus) if (vu.socket) yield vu.socket;
    },
  };
  for (const vu of vus) vu.load = load;
  return control.run(load);
}

class VirtualUser {
  socket: Socket | null = null;
  state = VuState.Parked;
  load!: Load;
  private current: Planned | null = null;
  private sentAt = 0;
  private cursor: number;
  private active = 0;
  private failedConnects = 0;
  private readonly parser: ResponseParser;
  /** The streamed answer being read, once its head came. */
  private stream: StreamReader | null = null;
  /** The reservoir slot of the answer being read, when it is kept. */
  private slot = -1;

  constructor(
    readonly id: number,
    private readonly control: RunControl,
    private readonly plan: Planned[],
    streams: boolean,
    sampleAnswers: boolean,
  ) {
    // spread the VUs over the plan, so that every operation is hit from the first second
    this.cursor = (id * 7919) % plan.length;
    const hooks: StreamHooks | undefined = streams
      ? {
          start: (status, contentType) => {
            if (this.current !== null) this.stream = new StreamReader(control.recorder, this.current.operation, status, contentType);
          },
          data: (chunk) => this.stream?.data(chunk),
        }
      : undefined;
    const sample: SampleHooks | undefined = sampleAnswers
      ? {
          want: () => this.current !== null && (this.slot = control.recorder.offerAnswer(this.current.operation)) >= 0,
          answer: (status, contentType, body, bodiless) => {
            if (this.current !== null) control.recorder.keepAnswer(this.current.operation, this.slot, status, contentType, body, bodiless);
          },
        }
      : undefined;
    this.parser = new ResponseParser(
      (status, close) => this.onResponse(status, close),
      () => this.current?.bodiless === true,
      hooks,
      sample,
    );
  }

  /** The shape says `active` VUs (all workers) may run now. */
  activate(active: number): void {
    this.active = active;
    if (this.state === VuState.Parked && this.id < active) this.next();
  }

  /** Ready for the next request. */
  next(): void {
    if (this.control.stopping) return this.idle();
    if (this.id >= this.active) {
      this.state = VuState.Parked;
      return;
    }
    this.state = VuState.Waiting;
    this.control.rps.acquire(this.fire);
  }

  timeout(now: number, timeoutMs: number): void {
    // a stream may rightly last for ever: only its silence times out
    if (this.state === VuState.Busy && now - (this.stream === null ? this.sentAt : this.stream.lastDataAt) > timeoutMs) this.fail('ETIMEDOUT');
  }

  /** Sending stopped: a streamed answer still open is closed now and counted, with the items it gave. */
  cut(): void {
    const stream = this.stream;
    const request = this.current;
    if (stream === null || request === null || this.state !== VuState.Busy) return;
    this.stream = null;
    this.current = null;
    this.control.recorder.cutResponse(request.operation, stream.status);
    this.control.recorder.stream(request.operation, stream, this.sentAt, true);
    this.drop();
    this.idle();
  }

  private readonly fire = (): void => {
    if (this.control.stopping) return this.idle();
    if (this.socket === null) this.control.cps.acquire(this.connectAndSend);
    else this.send();
  };

  private readonly connectAndSend = (): void => {
    if (this.control.stopping) return this.idle();
    this.connect();
    this.send();
  };

  private send(): void {
    const request = this.plan[this.cursor];
    this.cursor = this.cursor + 1 === this.plan.length ? 0 : this.cursor + 1;
    this.current = request;
    this.state = VuState.Busy;
    this.sentAt = performance.now();
    (this.socket as Socket).write(request.bytes);
  }

  private connect(): void {
    this.control.connections++;
    const socket = watchSocket(this.control.task.endpoint, {
      isCurrent: () => this.socket === socket, // otherwise dropped on purpose
      parser: this.parser,
      connected: () => {
        this.failedConnects = 0;
      },
      protocolError: () => this.fail('EPROTO'),
      closed: (connected, failure) => {
        this.socket = null;
        if (this.current !== null && this.parser.finish()) return; // a read-until-close body ended
        this.parser.reset();
        this.stream = null;
        if (this.current !== null) {
          if (!connected) this.failedConnects++;
          this.control.recorder.error(this.current.operation, failure ?? 'ECONNRESET');
          this.current = null;
          this.retry();
        }
      },
    });
    this.socket = socket;
  }

  private onResponse(status: number, close: boolean): void {
    const request = this.current;
    if (request === null) return; // bytes nobody asked for
    this.current = null;
    this.control.recorder.response(request.operation, status, this.sentAt);
    const stream = this.stream;
    if (stream !== null) {
      this.stream = null;
      stream.end();
      this.control.recorder.stream(request.operation, stream, this.sentAt, false);
    }
    if (close) this.drop();
    this.next();
  }

  private fail(code: string): void {
    this.stream = null;
    if (this.current !== null) {
      this.control.recorder.error(this.current.operation, code);
      this.current = null;
    }
    this.drop();
    this.retry();
  }

  /** After an error: at once, or backing off (up to 1 s) while connections keep failing. */
  private retry(): void {
    if (this.control.stopping) return this.idle();
    this.state = VuState.Waiting;
    const delay = reconnectDelayMs(this.failedConnects);
    if (delay === 0) setImmediate(() => this.next());
    else setTimeout(() => this.next(), delay);
  }

  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    this.parser.reset();
    socket?.destroy();
  }

  private idle(): void {
    this.state = VuState.Idle;
    this.control.settled(this.load);
  }
}

// `mock bench-pipeline` in a worker: HTTP/1.1 pipelining. Each connection writes `depth` requests
// at once without waiting, then one more for each response that completes (batched per read), so
// `depth` requests stay in flight on every socket. Responses come back in order, so the send times
// wait in a FIFO and each response takes the oldest.
import type { Socket } from 'node:net';
import type { PipelineTask, WorkerResult } from '../protocol.js';
import { ResponseParser } from '../response-parser.js';
import { RunControl, type Load } from './control.js';
import { watchSocket, reconnectDelayMs } from './socket.js';

export function runPipeline(task: PipelineTask): Promise<WorkerResult> {
  const control = new RunControl(task, 1);
  const request = Buffer.from(task.request.buffer, task.request.byteOffset, task.request.byteLength);
  // `depth` copies back to back: refills are one write of a prefix of this
  const batch = Buffer.concat(Array.from({ length: task.depth }, () => request));
  const connections: PipelinedConnection[] = [];
  for (let id = task.worker; id < task.connections; id += task.workers) connections.push(new PipelinedConnection(control, request, batch, task));
  const load: Load = {
    begin() {
      for (const c of connections) control.cps.acquire(() => c.open());
    },
    tick(_elapsed, now) {
      for (const c of connections) c.timeout(now, task.timeoutMs);
      return connections.filter((c) => c.socket !== null).length;
    },
    quiet: () => connections.every((c) => c.inFlight === 0),
    *sockets() {
      for (const c of connections) if (c.socket) yield c.socket;
    },
  };
  for (const c of connections) c.load = load;
  return control.run(load);
}

class PipelinedConnection {
  socket: Socket | null = null;
  load!: Load;
  /** Send times of the requests in flight, oldest first (a ring of `depth` slots). */
  private readonly sent: Float64Array;
  private head = 0;
  inFlight = 0;
  private refill = 0;
  /** Bumped per connection and per failure: events of an abandoned socket are ignored. */
  private generation = 0;
  private failedConnects = 0;
  private readonly parser: ResponseParser;

  constructor(
    private readonly control: RunControl,
    private readonly request: Buffer,
    private readonly batch: Buffer,
    private readonly task: PipelineTask,
  ) {
    this.sent = new Float64Array(task.depth);
    this.parser = new ResponseParser((status, close) => this.onResponse(status, close), () => task.bodiless);
  }

  open(): void {
    if (this.control.stopping) return this.control.settled(this.load);
    const generation = ++this.generation;
    this.control.connections++;
    this.socket = watchSocket(this.task.endpoint, {
      isCurrent: () => generation === this.generation,
      parser: this.parser,
      received: () => {
        if (generation === this.generation) this.flush();
      },
      connected: () => {
        this.failedConnects = 0;
      },
      protocolError: () => this.fail('EPROTO'),
      closed: (connected, failure) => {
        this.socket = null;
        if (this.inFlight > 0) this.parser.finish(); // a read-until-close response ends here
        if (generation !== this.generation) return;
        if (!connected) this.failedConnects++;
        this.fail(failure ?? 'ECONNRESET');
      },
    });
    this.inFlight = 0;
    this.head = 0;
    this.write(this.task.depth);
  }

  timeout(now: number, timeoutMs: number): void {
    if (this.inFlight > 0 && now - this.sent[this.head] > timeoutMs) this.fail('ETIMEDOUT');
  }

  private write(count: number): void {
    if (count <= 0 || this.socket === null) return;
    const now = performance.now();
    for (let k = 0; k < count; k++) this.sent[(this.head + this.inFlight + k) % this.sent.length] = now;
    this.inFlight += count;
    this.socket.write(count === 1 ? this.request : this.batch.subarray(0, count * this.request.length));
  }

  private onResponse(status: number, close: boolean): void {
    if (this.inFlight === 0) return;
    this.control.recorder.response(0, status, this.sent[this.head]);
    this.head = (this.head + 1) % this.sent.length;
    this.inFlight--;
    if (close) {
      // the server ends the connection: what is still in flight will not be answered
      this.fail('ECONNRESET', true);
      return;
    }
    this.refill++;
  }

  /** After a read: replace what completed, in one write. */
  private flush(): void {
    const count = this.refill;
    this.refill = 0;
    if (this.control.stopping) {
      if (this.inFlight === 0) this.control.settled(this.load);
      return;
    }
    this.write(count);
  }

  /** Every request still in flight failed with `code`; reconnect (backing off while connects fail). */
  private fail(code: string, expected = false): void {
    this.generation++;
    for (let k = 0; k < this.inFlight; k++) this.control.recorder.error(0, code);
    this.inFlight = 0;
    this.refill = 0;
    const socket = this.socket;
    this.socket = null;
    this.parser.reset();
    socket?.destroy();
    if (this.control.stopping) return this.control.settled(this.load);
    const delay = expected ? 0 : reconnectDelayMs(this.failedConnects);
    setTimeout(() => this.control.cps.acquire(() => this.open()), delay);
  }
}

import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { MockError } from '../../../common/errors.js';
import { compiledModule } from '../../../common/package-root.js';
import { bodyLength, isReused, withoutContent, type Answer, type Exchange } from '../exchange/index.js';
import type { RecordingRedaction } from '../fixtures/index.js';
import type { Recording } from './schema.js';
import { RowPack } from './row-pack.js';
import type { FromWriter, Listing, ToWriter, WriterData } from './writer-messages.js';

export interface RecorderOptions {
  /** Absolute path of the database file. */
  file: string;
  /** Where the path came from, for errors (`recorder.db_path`). */
  setting?: string;
  /** The request log's: recordings hide exactly what request logs hide. */
  redaction: RecordingRedaction;
  logger: Logger;
  /** Longest a captured exchange waits before its batch goes to the writer. */
  flushMs?: number;
  /** A batch this large goes at once, and no batch is larger (the writer may gather several into one transaction). */
  batchRows?: number;
  /** Bounds of what waits (queued, or sent and not yet written): past them exchanges are dropped, counted and warned about, never waited for. */
  maxQueuedRows?: number;
  maxQueuedBytes?: number;
}

export interface RecorderStats {
  file: string;
  /** The SQLite library writing it: `node:sqlite` where Node has it, `node-sqlite3-wasm` otherwise. */
  library: string;
  /** Rows written since the server started. */
  recorded: number;
  /** Exchanges waiting to be written. */
  queued: number;
  /** Exchanges not recorded: the queue was full, or a write failed. */
  dropped: number;
}

const WARN_EVERY_MS = 1000;

/**
 * The recorder's database (`mock serve --recorder`). Once an answer is written its exchange is
 * written (redacted) into the batch's buffers (row-pack.ts): no I/O there, and nothing of the
 * exchange kept. Every `flushMs`, or as soon as `batchRows` wait, the batch is handed to a writer
 * thread that owns the SQLite file and inserts batches in transactions (writer-thread.ts), so
 * neither SQLite nor the disk ever holds up an answer. What waits is bounded: past it, exchanges
 * are dropped and counted, with at most one warning a second. Reads go through the writer too, after every batch sent before.
 */
export class RecorderDb {
  /** The rows not yet sent, and the bytes of their bodies. */
  private pack = new RowPack();
  private packBytes = 0;
  private readonly headersOf = new WeakMap<Answer, string>();
  /** Rows and bytes of each batch sent and not yet written, oldest first. */
  private readonly sent: Array<{ rows: number; bytes: number }> = [];
  private waitingRows = 0;
  private waitingBytes = 0;
  private recorded = 0;
  private dropped = 0;
  private unreported = 0;
  private dropReason = '';
  private timer: NodeJS.Timeout | undefined;
  private warnTimer: NodeJS.Timeout | undefined;
  private readonly reads = new Map<number, { resolve(value: unknown): void; reject(e: Error): void }>();
  private nextRead = 1;
  private closing: Promise<void> | undefined;
  /** Why the writer thread is gone, once it is. */
  private gone: string | undefined;
  private readonly flushMs: number;
  private readonly batchRows: number;
  private readonly maxRows: number;
  private readonly maxBytes: number;

  private constructor(
    private readonly writer: Worker,
    private readonly library: string,
    private readonly options: RecorderOptions,
  ) {
    this.flushMs = options.flushMs ?? 50;
    // small batches leave the answering thread soon (a queued row outliving a young-generation
    // collection is copied by it); the writer thread gathers them into larger transactions
    this.batchRows = options.batchRows ?? 500;
    this.maxRows = options.maxQueuedRows ?? 10_000;
    this.maxBytes = options.maxQueuedBytes ?? 64 * 1024 * 1024;
    writer.on('message', (message: FromWriter) => this.heard(message));
    writer.on('error', (e) => this.lost(`the recorder's writer thread failed: ${e.message}`));
    writer.on('exit', () => this.lost("the recorder's writer thread ended"));
    // the server's close writes what is left: the thread must not hold the process otherwise
    writer.unref();
  }

  /** Starts the writer thread on the file; a path that cannot be used is a one-line MockError. */
  static async open(options: RecorderOptions): Promise<RecorderDb> {
    const workerData: WriterData = { file: options.file, setting: options.setting ?? 'recorder.db_path' };
    const writer = new Worker(compiledModule('runtime/chain/recorder/writer-thread.js'), { workerData });
    const first = await new Promise<FromWriter>((resolve, reject) => {
      writer.once('message', resolve);
      writer.once('error', reject);
    });
    if (first.kind !== 'ready') {
      await writer.terminate();
      throw new MockError('MOCK_ERR_RECORDER_DB', first.kind === 'unusable' ? first.message : `the recorder's writer thread answered ${first.kind} before it was ready`);
    }
    return new RecorderDb(writer, first.library, options);
  }

  get file(): string {
    return this.options.file;
  }

  /** Hot path: queues the exchange, or counts it dropped when too much waits already. */
  capture(ex: Exchange, answer: Answer): void {
    if (this.gone !== undefined) return this.drop(1, this.gone);
    const bytes = (ex.body?.length ?? 0) + bodyLength(answer.body);
    if (this.waitingRows >= this.maxRows || this.waitingBytes + bytes > this.maxBytes) {
      return this.drop(1, `the recorder's write queue is full (${this.maxRows} exchanges or ${Math.round(this.maxBytes / 1048576)} MB of bodies wait for the disk)`);
    }
    // written into the batch at once (after the answer went out): nothing of the exchange is kept
    this.addRow(ex, answer, Date.now(), performance.now() - ex.startedAt);
    this.packBytes += bytes;
    this.waitingRows++;
    this.waitingBytes += bytes;
    if (this.pack.rows >= this.batchRows) this.send();
    else this.timer ??= setTimeout(this.turn, this.flushMs).unref();
  }

  stats(): RecorderStats {
    return { file: this.options.file, library: this.library, recorded: this.recorded, queued: this.waitingRows, dropped: this.dropped };
  }

  /** The figures once everything queued so far is written (or dropped). */
  async settled(): Promise<RecorderStats> {
    // the thread answers a read after every batch sent before it, and its written messages come first
    await this.list(1, 0);
    return this.stats();
  }

  /** Newest first; what is queued is sent first, so a listing shows every answered request. */
  list(limit: number, offset: number): Promise<Listing> {
    return this.read((id) => ({ kind: 'list', id, limit, offset }));
  }

  get(recording: number): Promise<Recording | undefined> {
    return this.read((id) => ({ kind: 'get', id, recording }));
  }

  /** Writes what is queued and closes the file (serve's SIGINT/SIGTERM path). */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(this.warnTimer);
        this.report();
        resolve();
      };
      if (this.gone !== undefined) return done();
      this.writer.once('exit', done);
      // held open until the thread has written the rest
      this.writer.ref();
      this.send();
      this.post({ kind: 'close' });
    });
    return this.closing;
  }

  /** A read after every batch queued: they are sent first, and the thread answers in order. */
  private read<T>(ask: (id: number) => ToWriter): Promise<T> {
    if (this.gone !== undefined) return Promise.reject(new Error(this.gone));
    this.send();
    const id = this.nextRead++;
    return new Promise<T>((resolve, reject) => {
      this.reads.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.post(ask(id));
    });
  }

  private readonly turn = (): void => this.send();

  /** The rows waiting, to the writer. */
  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pack.rows === 0) return;
    const { rows, bytes, index } = this.pack.take();
    this.sent.push({ rows, bytes: this.packBytes });
    this.packBytes = 0;
    this.post({ kind: 'write', rows, bytes, index }, [bytes, index]);
  }

  /** `transfer`: buffers the message hands over rather than copies. */
  private post(message: ToWriter, transfer: ArrayBuffer[] = []): void {
    this.writer.postMessage(message, transfer);
  }

  private heard(message: FromWriter): void {
    if (message.kind === 'written') {
      const batch = this.sent.shift() as { rows: number; bytes: number };
      this.waitingRows -= batch.rows;
      this.waitingBytes -= batch.bytes;
      if (message.failure === undefined) this.recorded += message.rows;
      else this.drop(message.rows, message.failure);
    } else if (message.kind === 'reply') {
      const read = this.reads.get(message.id);
      this.reads.delete(message.id);
      if (message.error === undefined) read?.resolve(message.result);
      else read?.reject(new Error(message.error));
    }
  }

  /** The writer thread is gone: what waits is lost, and so is whatever comes. */
  private lost(reason: string): void {
    if (this.gone !== undefined) return;
    this.gone = reason;
    if (this.closing === undefined) this.options.logger.error(reason);
    this.drop(this.waitingRows, reason);
    this.pack = new RowPack();
    this.packBytes = 0;
    this.sent.length = 0;
    this.waitingRows = this.waitingBytes = 0;
    for (const read of this.reads.values()) read.reject(new Error(reason));
    this.reads.clear();
  }

  /** What only this thread can do: redact with the request log's settings, read the exchange. `at`: epoch ms the answer was written. */
  private addRow(ex: Exchange, answer: Answer, at: number, durationMs: number): void {
    const { redaction } = this.options;
    this.pack.add(at, Math.round(durationMs * 1000) / 1000, answer.status, [
      ex.protocol,
      ex.method,
      ex.path,
      redaction.queryString(ex.rawQuery),
      JSON.stringify(redaction.headers(ex.headers)),
      bodyOf(ex.body),
      this.answerHeaders(answer),
      withoutContent(ex.method, answer.status) ? null : bodyOf(answer.body),
      ex.countedAs?.key ?? null,
      ex.clientAddress,
    ]);
  }

  /** An answer's headers as the column holds them; derived once for an answer served again and again (a documented example). */
  private answerHeaders(answer: Answer): string {
    const kept = this.headersOf.get(answer);
    if (kept !== undefined) return kept;
    const text = JSON.stringify(responseHeaders(answer.headers, this.options.redaction));
    if (isReused(answer)) this.headersOf.set(answer, text);
    return text;
  }

  private drop(count: number, reason: string): void {
    if (count === 0) return;
    this.dropped += count;
    this.unreported += count;
    this.dropReason = reason;
    if (this.warnTimer !== undefined) return;
    this.warnTimer = setTimeout(() => {
      this.warnTimer = undefined;
      this.report();
    }, WARN_EVERY_MS);
    this.warnTimer.unref();
  }

  private report(): void {
    if (this.unreported === 0) return;
    this.options.logger.warn({ dropped: this.unreported, dropped_total: this.dropped }, `recorder: ${this.unreported} exchange(s) not recorded: ${this.dropReason}`);
    this.unreported = 0;
  }
}

/** A body as a row holds it; none is null. */
function bodyOf(body: string | Uint8Array | undefined): Uint8Array | string | null {
  return body === undefined || body.length === 0 ? null : body;
}

/** Answer headers by lower-case name (a repeated one as a list), each value redacted as the request log would. */
function responseHeaders(pairs: ReadonlyArray<[string, string]>, redaction: RecordingRedaction): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  let repeated = false;
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const previous = out[key];
    repeated ||= previous !== undefined;
    out[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  if (!repeated) return redaction.headers(out as Record<string, string>);
  const shown = (key: string, value: string): string => redaction.headers({ [key]: value })[key];
  return Object.fromEntries(Object.entries(out).map(([key, value]) => [key, Array.isArray(value) ? value.map((v) => shown(key, v)) : shown(key, value)]));
}

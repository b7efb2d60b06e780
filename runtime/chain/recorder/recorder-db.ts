import type { Logger } from 'pino';
import { bodyLength, withoutContent, type Answer, type Exchange } from '../exchange/index.js';
import type { Redaction } from '../../control/logging/index.js';
import { countRecordings, listRecordings, readRecording } from './queries.js';
import { INSERT_RECORDING, type Recording, type RecordingSummary, type RecordingValues } from './schema.js';
import { isBusy, openForWriting, whileLocked, type Database } from './sqlite.js';

export interface RecorderOptions {
  /** Absolute path of the database file. */
  file: string;
  /** Where the path came from, for errors (`recorder.db_path`). */
  setting?: string;
  /** The request log's: recordings hide exactly what request logs hide. */
  redaction: Redaction;
  logger: Logger;
  /** Longest a captured exchange waits before its batch is written. */
  flushMs?: number;
  /** A batch this large is written at once, and no batch is larger (one transaction each). */
  batchRows?: number;
  /** The queue's bounds: exchanges past them are dropped, counted and warned about, never waited for. */
  maxQueuedRows?: number;
  maxQueuedBytes?: number;
}

/** An exchange captured on the request path, turned into a row only when its batch is written. */
interface Pending {
  ex: Exchange;
  answer: Answer;
  /** Epoch ms the answer was written. */
  at: number;
  durationMs: number;
  bytes: number;
}

export interface RecorderStats {
  file: string;
  /** Rows written since the server started. */
  recorded: number;
  /** Exchanges waiting for their batch. */
  queued: number;
  /** Exchanges not recorded: the queue was full, or a write failed. */
  dropped: number;
}

const WARN_EVERY_MS = 1000;

/**
 * The recorder's database (`mock serve --recorder`). The request path only queues the exchange
 * (no serialising, no redaction, no I/O there); rows are built, redacted and inserted in batches,
 * one transaction each, every `flushMs` or as soon as `batchRows` wait. While the file is locked by
 * a reader the batch waits for the next turn; past the queue's bounds exchanges are dropped and
 * counted, with at most one warning a second, so a slow disk never slows the answers.
 */
export class RecorderDb {
  private readonly queue: Pending[] = [];
  private queuedBytes = 0;
  private recorded = 0;
  private dropped = 0;
  private unreported = 0;
  private dropReason = '';
  private timer: NodeJS.Timeout | undefined;
  private soon = false;
  private warnTimer: NodeJS.Timeout | undefined;
  private readonly flushMs: number;
  private readonly batchRows: number;
  private readonly maxRows: number;
  private readonly maxBytes: number;

  private constructor(
    private readonly db: Database,
    private readonly options: RecorderOptions,
  ) {
    this.flushMs = options.flushMs ?? 50;
    this.batchRows = options.batchRows ?? 500;
    this.maxRows = options.maxQueuedRows ?? 10_000;
    this.maxBytes = options.maxQueuedBytes ?? 64 * 1024 * 1024;
  }

  /** Opens (creates) the file; a path that cannot be used is a one-line MockError. */
  static async open(options: RecorderOptions): Promise<RecorderDb> {
    return new RecorderDb(await openForWriting(options.file, options.setting ?? 'recorder.db_path'), options);
  }

  get file(): string {
    return this.options.file;
  }

  /** Hot path: queues the exchange, or counts it dropped when the queue is full. */
  capture(ex: Exchange, answer: Answer): void {
    const bytes = (ex.body?.length ?? 0) + bodyLength(answer.body);
    if (this.queue.length >= this.maxRows || this.queuedBytes + bytes > this.maxBytes) {
      this.drop(1, `the recorder's write queue is full (${this.maxRows} exchanges or ${Math.round(this.maxBytes / 1048576)} MB of bodies wait for the disk)`);
      return;
    }
    this.queue.push({ ex, answer, at: Date.now(), durationMs: performance.now() - ex.startedAt, bytes });
    this.queuedBytes += bytes;
    this.schedule(this.queue.length >= this.batchRows);
  }

  stats(): RecorderStats {
    return { file: this.options.file, recorded: this.recorded, queued: this.queue.length, dropped: this.dropped };
  }

  /** Newest first; what is queued is written first, so a listing shows every answered request. */
  list(limit: number, offset: number): { total: number; recordings: RecordingSummary[] } {
    this.drain();
    return whileLocked(() => ({ total: countRecordings(this.db), recordings: listRecordings(this.db, limit, offset) }));
  }

  get(id: number): Recording | undefined {
    this.drain();
    return whileLocked(() => readRecording(this.db, id));
  }

  /** Writes what is queued and closes the file (serve's SIGINT/SIGTERM path). */
  close(): void {
    if (!this.db.isOpen) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      this.drain();
    } finally {
      clearTimeout(this.warnTimer);
      this.report();
      this.db.close();
    }
  }

  private schedule(soon: boolean): void {
    if (this.timer !== undefined && (!soon || this.soon)) return;
    clearTimeout(this.timer);
    this.soon = soon;
    this.timer = setTimeout(this.turn, soon ? 0 : this.flushMs);
    // the server's close writes what is left: a pending batch must not hold the process
    this.timer.unref();
  }

  private readonly turn = (): void => {
    this.timer = undefined;
    const batch = this.queue.splice(0, this.batchRows);
    try {
      this.write(batch);
    } catch (e) {
      if (!isBusy(e)) throw e;
      // a reader holds the file for a moment: this batch goes first next turn
      this.queue.unshift(...batch);
      this.schedule(false);
      return;
    }
    if (this.queue.length > 0) this.schedule(this.queue.length >= this.batchRows);
  };

  /** Everything queued, now (before reads and at close), waiting out a reader's lock. */
  private drain(): void {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchRows);
      try {
        whileLocked(() => this.write(batch));
      } catch (e) {
        this.settle(batch);
        this.drop(batch.length, `writing to ${this.options.file} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  /** One transaction. Throws only while the file is locked (rolled back, to be tried again); other failures drop the batch. */
  private write(batch: Pending[]): void {
    if (batch.length === 0) return;
    const { db } = this;
    // prepared per batch: a statement that failed (a lock) cannot be bound again in this library
    const insert = db.prepare(INSERT_RECORDING);
    try {
      db.exec('BEGIN');
      for (const pending of batch) insert.run(this.valuesOf(pending));
      db.exec('COMMIT');
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (isBusy(e)) throw e;
      this.settle(batch);
      this.drop(batch.length, `writing to ${this.options.file} failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    } finally {
      insert.finalize();
    }
    this.settle(batch);
    this.recorded += batch.length;
  }

  private settle(batch: Pending[]): void {
    for (const pending of batch) this.queuedBytes -= pending.bytes;
  }

  private valuesOf({ ex, answer, at, durationMs }: Pending): RecordingValues {
    const { redaction } = this.options;
    return [
      new Date(at).toISOString(),
      Math.round(durationMs * 1000) / 1000,
      ex.protocol,
      ex.method,
      ex.path,
      redaction.queryString(ex.rawQuery),
      JSON.stringify(redaction.headers(ex.headers)),
      bytesOf(ex.body),
      answer.status,
      JSON.stringify(responseHeaders(answer.headers, redaction)),
      withoutContent(ex.method, answer.status) ? null : bytesOf(answer.body),
      ex.countedAs?.key ?? null,
      ex.clientAddress,
    ];
  }

  private drop(count: number, reason: string): void {
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

function bytesOf(body: string | Uint8Array | undefined): Uint8Array | null {
  if (body === undefined || body.length === 0) return null;
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/** Answer headers by lower-case name (a repeated one as a list), each value redacted as the request log would. */
function responseHeaders(pairs: ReadonlyArray<[string, string]>, redaction: Redaction): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const shown = redaction.headers({ [key]: value })[key];
    const previous = out[key];
    out[key] = previous === undefined ? shown : Array.isArray(previous) ? [...previous, shown] : [previous, shown];
  }
  return out;
}

import { linkSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { highestNumber, numberedFileName } from '../../common/fixtures/numbered-files.js';
import type { AtomicWriter } from './atomic-writer.js';
import type { WaitingBytes } from './waiting-bytes.js';

/** Lines held in memory before the first write: a short recording (most unary calls) touches the disk once, when it ends. */
const FLUSH_BYTES = 64 * 1024;
/** Numbers the temporary files of this process. */
let temporaries = 0;

/**
 * A recording written as it goes (a WebSocket session, a gRPC call), one of a folder's numbered
 * files (`session-0003.jsonl`). Lines go to a hidden temporary file beside them
 * (`.recording-<pid>.<n>`, which no reader lists) in the background, a write starting once
 * FLUSH_BYTES wait; lines appended during a write wait for the next, so on a disk slower than the
 * session up to `maxBytes` wait in memory. `finish` syncs the file and links it into place
 * under the first free number, so a recording appears whole or not at all and never replaces
 * another's (another process may record into the same folder). The temporary file is journaled
 * by the AtomicWriter: one a killed process leaves is removed by the next server started on the
 * project. At most `maxBytes` are kept: `append` refuses what would pass them, and what would pass
 * the process's `waiting` budget of every recording's unwritten bytes (then `behind`).
 */
export class RecordingFile {
  /** Bytes appended: written, or waiting to be. */
  bytes = 0;
  /** An append was refused because it would have passed maxBytes. */
  full = false;
  /** An append was refused because the recordings waiting to be written filled `waiting`: the disk is slower than the traffic. */
  behind = false;
  private readonly queue: string[] = [];
  private queued = 0;
  private temporary: string | undefined;
  private handle: FileHandle | undefined;
  private writing: Promise<void> | undefined;
  private failure: unknown;
  private closed = false;

  constructor(
    private readonly writer: AtomicWriter,
    private readonly folder: string,
    private readonly prefix: string,
    private readonly maxBytes: number,
    private readonly waiting?: WaitingBytes,
  ) {}

  /**
   * Queues whole lines. False, and nothing of `text` kept, once the file is finished or failed, or
   * when `text` would take it past maxBytes (then `full`), unless `always` (a small closing line).
   */
  append(text: string, always = false): boolean {
    if (this.closed || this.failure !== undefined) return false;
    const size = Buffer.byteLength(text);
    if (!always && this.bytes + size > this.maxBytes) {
      this.full = true;
      return false;
    }
    if (this.waiting !== undefined && !this.waiting.reserve(size, always)) {
      this.behind = true;
      return false;
    }
    this.bytes += size;
    this.queued += size;
    this.queue.push(text);
    if (this.queued >= FLUSH_BYTES) this.flush();
    return true;
  }

  /**
   * Writes what waits, syncs the file and links it into place: resolves with its path, or
   * undefined when nothing was appended. Rejects when it could not be written; nothing is left
   * behind then.
   */
  async finish(): Promise<string | undefined> {
    this.closed = true;
    if (this.bytes === 0) return undefined;
    this.flush();
    await this.settled();
    try {
      if (this.failure !== undefined) throw this.failure;
      const handle = this.handle as FileHandle;
      this.handle = undefined;
      await handle.sync();
      await handle.close();
      return this.linked();
    } catch (e) {
      await this.discard();
      throw e;
    }
  }

  /** Drops the recording: what waits is forgotten, the temporary file removed. */
  async abandon(): Promise<void> {
    this.closed = true;
    this.forget();
    await this.settled();
    await this.discard();
  }

  private flush(): void {
    if (this.writing === undefined && this.queue.length > 0) this.writing = this.drain();
  }

  /** Writes until nothing waits; lines appended meanwhile go in the next write. */
  private async drain(): Promise<void> {
    try {
      const handle = this.handle ?? (this.handle = await this.create());
      while (this.queue.length > 0) {
        const chunk = this.queue.join('');
        const bytes = this.queued;
        this.queue.length = 0;
        this.queued = 0;
        try {
          await handle.writeFile(chunk);
        } finally {
          this.waiting?.release(bytes);
        }
      }
    } catch (e) {
      this.failure = e;
      this.forget();
    } finally {
      this.writing = undefined;
    }
  }

  /** What waits is dropped, and no longer counts as waiting. */
  private forget(): void {
    this.waiting?.release(this.queued);
    this.queue.length = 0;
    this.queued = 0;
  }

  private async settled(): Promise<void> {
    while (this.writing !== undefined) await this.writing;
  }

  private async create(): Promise<FileHandle> {
    mkdirSync(this.folder, { recursive: true });
    const target = path.join(realpathSync(this.folder), `.recording-${process.pid}`);
    this.writer.begin(target);
    this.temporary = `${target}.${++temporaries}`;
    return open(this.temporary, 'wx');
  }

  /** The first free number from the highest in the folder; a link never replaces a file, so EEXIST tries the next. */
  private linked(): string {
    const temporary = this.temporary as string;
    for (let n = highestNumber(this.folder, this.prefix) + 1; ; n++) {
      const file = path.join(this.folder, numberedFileName(this.prefix, n));
      try {
        linkSync(temporary, file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw e;
      }
      this.removeTemporary();
      return file;
    }
  }

  private async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    this.removeTemporary();
  }

  private removeTemporary(): void {
    if (this.temporary === undefined) return;
    rmSync(this.temporary, { force: true });
    this.temporary = undefined;
    this.writer.done();
  }
}

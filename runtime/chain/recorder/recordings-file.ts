import { countRecordings, newestRecordings, readRecording, recordingsAfter } from './queries.js';
import type { Recording } from './schema.js';
import { openForReading, whileLocked, type Database } from './sqlite.js';

/** A recordings database read by a command, read-only, while a server may still be recording into it. */
export class RecordingsFile {
  private constructor(
    readonly file: string,
    private readonly db: Database,
  ) {}

  /** `flag` is how the command is given another file (`--input`), for its one-line errors. */
  static async open(file: string, flag: string): Promise<RecordingsFile> {
    return new RecordingsFile(file, await openForReading(file, flag));
  }

  count(): number {
    return whileLocked(() => countRecordings(this.db));
  }

  /** The newest `limit` (every one when absent), oldest first. */
  newest(limit?: number): Recording[] {
    return whileLocked(() => newestRecordings(this.db, limit));
  }

  /** Up to `limit` recordings after the one of id `after` (0: from the first), oldest first. */
  after(after: number, limit: number): Recording[] {
    return whileLocked(() => recordingsAfter(this.db, after, limit));
  }

  get(id: number): Recording | undefined {
    return whileLocked(() => readRecording(this.db, id));
  }

  close(): void {
    this.db.close();
  }
}

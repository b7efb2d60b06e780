/** A row read back: column name to value (INTEGER and REAL as numbers, TEXT as strings, BLOB as bytes, NULL as null). */
export type Row = Record<string, unknown>;

export type SqlValue = string | number | Uint8Array | null;

/**
 * The little of SQLite the recorder uses, over either library (sqlite-drivers.ts): the server's
 * writer thread and the commands that read a file hold one of these.
 */
export interface Database {
  /** The library that opened it (SqliteDriver.name). */
  readonly library: string;
  exec(sql: string): void;
  /** Ends the open transaction, if one is open (after a failed step). */
  rollback(): void;
  get(sql: string, params?: SqlValue[]): Row | undefined;
  all(sql: string, params?: SqlValue[]): Row[];
  /** Runs `sql` once for each list of values, prepared once (inside the caller's transaction). */
  runEach(sql: string, rows: Iterable<SqlValue[]>): void;
  close(): void;
}

export interface SqliteDriver {
  /** `node:sqlite` or `node-sqlite3-wasm`, in messages and docs. */
  readonly name: string;
  /**
   * How this library locks the file while it writes: `fcntl` locks every SQLite program honours, or
   * a folder `<file>.lock` only node-sqlite3-wasm sees (left behind by a process killed mid-batch).
   */
  readonly lock: 'posix' | 'folder';
  open(file: string, options: { readOnly: boolean }): Database;
}

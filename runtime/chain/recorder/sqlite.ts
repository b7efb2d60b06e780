import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../../common/errors.js';
import { nativeSqlite } from './native-sqlite.js';
import { CREATE_SCHEMA, RECORDINGS_TABLE } from './schema.js';
import type { Database, SqliteDriver } from './sqlite-driver.js';
import { wasmSqlite } from './wasm-sqlite.js';

export type { Database };

let driver: Promise<SqliteDriver> | undefined;

/** The SQLite library of this Node: native where it has one, WebAssembly otherwise; loaded when a recorder first opens, never by a server without one. */
export function sqlite(): Promise<SqliteDriver> {
  return (driver ??= Promise.resolve(nativeSqlite() ?? wasmSqlite()));
}

const fail = (message: string): MockError => new MockError('MOCK_ERR_RECORDER_DB', message);

const reason = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));

/** SQLite's answer while another connection holds the file's lock. */
const isBusy = (e: unknown): boolean => e instanceof Error && /database is locked|SQLITE_BUSY/i.test(e.message);

/** `file` (absolute) as the server's recorder writes it: its folder made, the table created; `setting` names where the path came from. */
export async function openForWriting(file: string, setting: string): Promise<Database> {
  const dir = path.dirname(file);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    const blocking = fileOnPath(dir);
    if (blocking !== undefined) throw fail(`${setting} ${file}: ${blocking} is a file, not a folder; give a path in a folder`);
    throw fail(`${setting} ${file}: cannot create its folder ${dir} (${reason(e)}); give a path in a writable folder`);
  }
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory() === true) throw fail(`${setting} ${file} is a folder; give the path of a database file`);
  try {
    accessSync(dir, constants.W_OK);
    if (statSync(file, { throwIfNoEntry: false }) !== undefined) accessSync(file, constants.R_OK | constants.W_OK);
  } catch (e) {
    throw fail(`${setting} ${file} is not writable (${reason(e)}); give a path this user may write`);
  }
  const library = await sqlite();
  let db: Database | undefined;
  try {
    db = library.open(file, { readOnly: false });
    // fewer syncs per commit of the rollback journal (WAL needs shared memory this VFS lacks): batches
    // cost a third; a power loss at the wrong moment may lose the last batches, rarely more
    db.exec(`PRAGMA synchronous = NORMAL; ${CREATE_SCHEMA}`);
    return db;
  } catch (e) {
    db?.close();
    if (isBusy(e))
      throw fail(
        `${setting} ${file} is locked: another process records into it${library.lock === 'folder' ? `, or one that was killed left the folder ${file}.lock behind (remove it when no mock serve --recorder uses this file)` : ''}`,
      );
    throw fail(`${setting} ${file} cannot be used as a recordings database (${e instanceof Error ? e.message : String(e)}); give a new file or one mock serve --recorder wrote`);
  }
}

/** The nearest existing part of `dir` when it is a file (which mkdir reports as EEXIST or ENOTDIR). */
function fileOnPath(dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const stat = statSync(at, { throwIfNoEntry: false });
    if (stat !== undefined) return stat.isDirectory() ? undefined : at;
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * A recordings database a command reads (`mock recorder convert`, `mock verify-mocks`). Missing
 * files, other files and databases without the table are one-line errors; `flag` is how to give another.
 */
export async function openForReading(file: string, flag: string): Promise<Database> {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) throw fail(`${file}: no such recordings database; record one with mock serve --recorder --recorder-db ${file}, or give an existing one with ${flag} <file>`);
  if (!stat.isFile()) throw fail(`${file} is not a file; give a recordings database with ${flag} <file>`);
  const library = await sqlite();
  let db: Database | undefined;
  try {
    db = library.open(file, { readOnly: true });
    const table = whileLocked(() => (db as Database).get(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [RECORDINGS_TABLE]));
    if (table === undefined) throw fail(`${file} has no ${RECORDINGS_TABLE} table: it is not a database mock serve --recorder wrote; give one with ${flag} <file>`);
    return db;
  } catch (e) {
    db?.close();
    if (e instanceof MockError) throw e;
    throw fail(`${file} cannot be read as a recordings database (${e instanceof Error ? e.message : String(e)}); give one mock serve --recorder wrote with ${flag} <file>`);
  }
}

const LOCK_WAIT_MS = 5000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs a read, again while a running recorder holds the file's lock: it does for one batch of
 * inserts (milliseconds), and neither library is given a busy timeout (the WebAssembly one has none).
 */
export function whileLocked<T>(read: () => T): T {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return read();
    } catch (e) {
      if (!isBusy(e) || Date.now() > until) throw e;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

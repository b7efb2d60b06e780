import { parentPort, workerData } from 'node:worker_threads';
import { countRecordings, listRecordings, readRecording } from './queries.js';
import { packedValues } from './row-pack.js';
import { INSERT_RECORDING, type Recording } from './schema.js';
import { openForWriting, whileLocked, type Database } from './sqlite.js';
import type { FromWriter, Listing, ToWriter, WriterData } from './writer-messages.js';

/**
 * The recorder's writer thread: it owns the database, so SQLite's work (binding, paging, syncing a
 * commit) never runs on the thread that answers requests. Messages are handled in order. Batches
 * wait here up to COMMIT_MS, or until COMMIT_ROWS rows wait, and are written together in one
 * transaction: the answering thread sends small batches often (a row it keeps is a row its
 * collector copies), and a commit costs about 0.5 ms whatever its size (measured with node:sqlite:
 * 4.6 µs a row in transactions of 500 rows, 3.3 µs in transactions of 4,000).
 */
const port = parentPort as NonNullable<typeof parentPort>;
const post = (message: FromWriter): void => port.postMessage(message);
const { file, setting } = workerData as WriterData;

let db: Database;
try {
  db = await openForWriting(file, setting);
  post({ kind: 'ready', library: db.library });
  port.on('message', handle);
} catch (e) {
  post({ kind: 'unusable', message: e instanceof Error ? e.message : String(e) });
  port.close();
}

const COMMIT_MS = 25;
const COMMIT_ROWS = 2000;

/** Batches received and not yet written, oldest first, and their rows. */
const waiting: Array<Extract<ToWriter, { kind: 'write' }>> = [];
let waitingRows = 0;
let timer: NodeJS.Timeout | undefined;

function handle(message: ToWriter): void {
  if (message.kind === 'write') {
    waiting.push(message);
    waitingRows += message.rows;
    if (waitingRows >= COMMIT_ROWS) writeWaiting();
    else timer ??= setTimeout(writeWaiting, COMMIT_MS);
    return;
  }
  // a read or the close comes after every batch sent before it
  writeWaiting();
  switch (message.kind) {
    case 'list':
      reply(message.id, () => ({ total: countRecordings(db), recordings: listRecordings(db, message.limit, message.offset) }));
      break;
    case 'get':
      reply(message.id, () => readRecording(db, message.recording));
      break;
    case 'close':
      db.close();
      port.close();
      break;
  }
}

function reply(id: number, read: () => Listing | Recording | undefined): void {
  try {
    post({ kind: 'reply', id, result: whileLocked(read) });
  } catch (e) {
    post({ kind: 'reply', id, error: e instanceof Error ? e.message : String(e) });
  }
}

/** The waiting batches in one transaction; each is answered as written, or dropped with the reason. */
function writeWaiting(): void {
  clearTimeout(timer);
  timer = undefined;
  if (waiting.length === 0) return;
  const batches = waiting.splice(0);
  waitingRows = 0;
  const failure = write(batches);
  for (const { rows } of batches) post({ kind: 'written', rows, failure });
}

/** One transaction, waiting out a reader's lock; what went wrong when the rows could not be written. */
function write(batches: ReadonlyArray<Extract<ToWriter, { kind: 'write' }>>): string | undefined {
  try {
    whileLocked(() => {
      try {
        db.exec('BEGIN');
        for (const { rows, bytes, index } of batches) db.runEach(INSERT_RECORDING, packedValues(rows, new Uint8Array(bytes), new Float64Array(index)));
        db.exec('COMMIT');
      } catch (e) {
        db.rollback();
        throw e;
      }
    });
    return undefined;
  } catch (e) {
    return `writing to ${file} failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

import { parentPort, workerData } from 'node:worker_threads';
import { countRecordings, listRecordings, readRecording } from './queries.js';
import { INSERT_RECORDING, type Recording, type RecordingValues } from './schema.js';
import { openForWriting, whileLocked, type Database } from './sqlite.js';
import type { FromWriter, Listing, SentRow, ToWriter, WriterData } from './writer-messages.js';

/**
 * The recorder's writer thread: it owns the database, so SQLite's work (binding, paging, syncing a
 * commit) never runs on the thread that answers requests. Messages are handled in order.
 */
const port = parentPort as NonNullable<typeof parentPort>;
const post = (message: FromWriter): void => port.postMessage(message);
const { file, setting } = workerData as WriterData;

let db: Database;
try {
  db = await openForWriting(file, setting);
  post({ kind: 'ready' });
  port.on('message', handle);
} catch (e) {
  post({ kind: 'unusable', message: e instanceof Error ? e.message : String(e) });
  port.close();
}

function handle(message: ToWriter): void {
  switch (message.kind) {
    case 'write':
      post({ kind: 'written', rows: message.rows.length, failure: write(message.rows) });
      break;
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

/** One transaction, waiting out a reader's lock; what went wrong when the rows could not be written. */
function write(rows: SentRow[]): string | undefined {
  try {
    whileLocked(() => {
      // prepared per batch: a statement whose step failed (a lock) cannot be bound again in this library
      const insert = db.prepare(INSERT_RECORDING);
      try {
        db.exec('BEGIN');
        for (const row of rows) insert.run(valuesOf(row));
        db.exec('COMMIT');
      } catch (e) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw e;
      } finally {
        insert.finalize();
      }
    });
    return undefined;
  } catch (e) {
    return `writing to ${file} failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

const encoder = new TextEncoder();

const bytesOf = (body: Uint8Array | string | null): Uint8Array | null => (typeof body === 'string' ? encoder.encode(body) : body);

function valuesOf(row: SentRow): RecordingValues {
  const [at, duration, protocol, method, path, query, requestHeaders, requestBody, status, responseHeaders, responseBody, route, client] = row;
  return [new Date(at).toISOString(), duration, protocol, method, path, query, requestHeaders, bytesOf(requestBody), status, responseHeaders, bytesOf(responseBody), route, client];
}

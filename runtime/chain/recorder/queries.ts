import type { Database } from './sqlite.js';
import { SUMMARY_COLUMNS, recordingOf, summaryOf, type Recording, type RecordingSummary } from './schema.js';

/** Reads of the recordings table, shared by the server's recorder (admin API) and the commands that read a file. */
export function countRecordings(db: Database): number {
  return Number((db.get('SELECT count(*) AS n FROM recordings') as { n: number }).n);
}

/** Newest first. */
export function listRecordings(db: Database, limit: number, offset: number): RecordingSummary[] {
  return db.all(`SELECT ${SUMMARY_COLUMNS} FROM recordings ORDER BY id DESC LIMIT ? OFFSET ?`, [limit, offset]).map((row) => summaryOf(row));
}

export function readRecording(db: Database, id: number): Recording | undefined {
  const row = db.get('SELECT * FROM recordings WHERE id = ?', [id]);
  return row === undefined ? undefined : recordingOf(row);
}

/** The newest `limit` recordings (every one when absent), oldest first: the order they happened in. */
export function newestRecordings(db: Database, limit?: number): Recording[] {
  const rows = limit === undefined ? db.all('SELECT * FROM recordings ORDER BY id DESC') : db.all('SELECT * FROM recordings ORDER BY id DESC LIMIT ?', [limit]);
  return rows.map((row) => recordingOf(row)).reverse();
}

/** Up to `limit` recordings after the one of id `after`, oldest first: a whole file read page by page in bounded memory. */
export function recordingsAfter(db: Database, after: number, limit: number): Recording[] {
  return db.all('SELECT * FROM recordings WHERE id > ? ORDER BY id LIMIT ?', [after, limit]).map((row) => recordingOf(row));
}

import type { Recording, RecordingSummary } from './schema.js';

/** What the recorder sends its writer thread; the thread answers in order, so a read sees every batch sent before it. `close` ends the thread. */
export type ToWriter =
  /** `rows` rows packed by RowPack (row-pack.ts): their bytes and their index, transferred. */
  | { kind: 'write'; rows: number; bytes: ArrayBuffer; index: ArrayBuffer }
  | { kind: 'list'; id: number; limit: number; offset: number }
  | { kind: 'get'; id: number; recording: number }
  | { kind: 'close' };

export type FromWriter =
  /** The file is open, by that SQLite library (`node:sqlite`, `node-sqlite3-wasm`). */
  | { kind: 'ready'; library: string }
  /** The file cannot be used: the one-line message of MOCK_ERR_RECORDER_DB. */
  | { kind: 'unusable'; message: string }
  /** One `write` done: its rows written, or dropped (and why). */
  | { kind: 'written'; rows: number; failure?: string }
  /** The answer to a read: `list` gives a Listing, `get` a Recording or undefined. */
  | { kind: 'reply'; id: number; result?: Listing | Recording; error?: string };

export interface Listing {
  total: number;
  recordings: RecordingSummary[];
}

export interface WriterData {
  file: string;
  setting: string;
}

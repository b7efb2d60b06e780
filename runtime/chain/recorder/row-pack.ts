import type { SqlValue } from './sqlite-driver.js';

/**
 * A batch of rows as the recorder sends it to its writer thread: every text and byte field of every
 * row in one byte buffer, and the numbers and each field's place in an index of float64s. The
 * answering thread writes a row into it as the answer goes out and keeps no object of the row (an
 * object it keeps is one its collector copies); the two buffers are transferred, not cloned (a
 * message would clone each string and array on its own), and the writer binds the fields as bytes.
 *
 * Per row in the index: the time (epoch ms), the duration (ms), the status, then for each of FIELDS
 * its start and end in the bytes (start -1: null).
 */
const FIELDS = ['protocol', 'method', 'path', 'query', 'request_headers', 'request_body', 'response_headers', 'response_body', 'route', 'client_address'] as const;
const SLOTS = 3 + 2 * FIELDS.length;
const INITIAL_BYTES = 64 * 1024;

type Field = string | Uint8Array | null;

export class RowPack {
  private bytes: Buffer;
  private index: Float64Array;
  private used = 0;
  /** Rows written so far. */
  rows = 0;

  constructor(bytes = INITIAL_BYTES, rows = 64) {
    this.bytes = Buffer.allocUnsafeSlow(bytes);
    this.index = new Float64Array(rows * SLOTS);
  }

  /** One row; `fields` in the order of FIELDS. */
  add(at: number, durationMs: number, status: number, fields: readonly [Field, Field, Field, Field, Field, Field, Field, Field, Field, Field]): void {
    let need = 0;
    for (const field of fields) if (field !== null) need += typeof field === 'string' ? field.length * 3 : field.byteLength;
    if (this.used + need > this.bytes.length) this.growBytes(this.used + need);
    if ((this.rows + 1) * SLOTS > this.index.length) this.growIndex();
    const index = this.index;
    const row = this.rows * SLOTS;
    index[row] = at;
    index[row + 1] = durationMs;
    index[row + 2] = status;
    if (!this.addOneByte(row, fields)) {
      for (let i = 0; i < fields.length; i++) this.addField(row + 3 + 2 * i, fields[i]);
    }
    this.rows++;
  }

  /**
   * The row's text fields written with one call when they are all one-byte text (ASCII, as nearly
   * every request's are): a write per field costs a call into the runtime each. False, having
   * written nothing that counts, when some are not.
   */
  private addOneByte(row: number, fields: readonly Field[]): boolean {
    let text = '';
    for (const field of fields) if (typeof field === 'string') text += field;
    if (this.bytes.write(text, this.used, 'utf8') !== text.length) return false;
    let at = this.used;
    this.used += text.length;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const slot = row + 3 + 2 * i;
      if (typeof field === 'string') {
        this.index[slot] = at;
        this.index[slot + 1] = at += field.length;
      } else this.addField(slot, field);
    }
    return true;
  }

  private addField(slot: number, field: Field): void {
    if (field === null) {
      this.index[slot] = -1;
      this.index[slot + 1] = -1;
      return;
    }
    this.index[slot] = this.used;
    if (typeof field === 'string') this.used += this.bytes.write(field, this.used, 'utf8');
    else {
      this.bytes.set(field, this.used);
      this.used += field.byteLength;
    }
    this.index[slot + 1] = this.used;
  }

  /** The buffers to transfer; the pack is empty afterwards, with room for a batch as large. */
  take(): { rows: number; bytes: ArrayBuffer; index: ArrayBuffer } {
    const taken = { rows: this.rows, bytes: this.bytes.buffer as ArrayBuffer, index: this.index.buffer as ArrayBuffer };
    this.bytes = Buffer.allocUnsafeSlow(this.bytes.length);
    this.index = new Float64Array(this.index.length);
    this.used = 0;
    this.rows = 0;
    return taken;
  }

  private growBytes(least: number): void {
    const grown = Buffer.allocUnsafeSlow(Math.max(least, this.bytes.length * 2));
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }

  private growIndex(): void {
    const grown = new Float64Array(this.index.length * 2);
    grown.set(this.index);
    this.index = grown;
  }
}

const EMPTY_TEXT = '';

/**
 * The writer's side: each row's values in the order of INSERT_RECORDING, made as the previous one has
 * been inserted. Text fields are bound as bytes (the statement casts them back to text); an empty
 * one as '' (a zero-length blob may bind as NULL).
 */
export function* packedValues(rows: number, bytes: Uint8Array, index: Float64Array): Generator<SqlValue[]> {
  const field = (slot: number): Uint8Array | null => (index[slot] < 0 ? null : bytes.subarray(index[slot], index[slot + 1]));
  const text = (slot: number): Uint8Array | string => (index[slot] === index[slot + 1] ? EMPTY_TEXT : bytes.subarray(index[slot], index[slot + 1]));
  for (let row = 0; row < rows; row++) {
    const s = row * SLOTS;
    yield [
      new Date(index[s]).toISOString(),
      index[s + 1],
      text(s + 3),
      text(s + 5),
      text(s + 7),
      text(s + 9),
      text(s + 11),
      field(s + 13),
      index[s + 2],
      text(s + 15),
      field(s + 17),
      index[s + 19] < 0 ? null : text(s + 19),
      text(s + 21),
    ];
  }
}

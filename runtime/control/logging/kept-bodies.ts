import { storedBody } from '../../../common/fixtures/index.js';
import type { LoggedBody } from '../../../common/request-log.js';
import { WarningGate } from '../../../common/warning-gate.js';
import { MULTIPART_TYPE, type Redaction } from './redaction.js';

/** logging.bodies, as the request log takes it. */
export interface BodyLogOptions {
  /** Most bytes kept of one body (a longer one keeps a prefix, marked truncated). */
  maxBodyBytes: number;
  /** Budget of every body kept, in MB. */
  maxStoreMb: number;
}

/** What the budget counts per entry besides its bytes: the two objects that hold them. */
const OVERHEAD_BYTES = 64;

/** One body as kept: a reference to it when it is short enough, else a copy of its first bytes. */
interface KeptBody {
  readonly data: string | Uint8Array;
  /** The whole body's size in bytes. */
  readonly size: number;
  readonly truncated: boolean;
  readonly contentType: string | undefined;
}

/** An entry's bodies; emptied when the budget forgets them. */
export interface EntryBodies {
  request: KeptBody | undefined;
  response: KeptBody | undefined;
  /** What the budget counts for them: their bytes and the objects that hold them. */
  bytes: number;
}

function empty(bodies: EntryBodies): void {
  bodies.request = bodies.response = undefined;
}

/**
 * The request log's bodies, under one byte budget (logging.bodies.max_store_mb): past it the oldest
 * entries' bodies are emptied, with one warning a minute; an entry the ring buffer drops gives its
 * bytes back at once. Entries leave in the order they came (the ring drops the oldest, the budget
 * forgets the oldest), so a first-in first-out queue with a byte count is the whole bookkeeping:
 * an LRU cache (lru-cache) cost about a microsecond a request in set, evict and delete, for an
 * order of use nothing here has (an entry is not used again once kept).
 *
 * Hot path: keeping a body stores a reference (a precomputed example's shared text or buffer is
 * not copied); only a body longer than max_body_bytes is copied, its prefix, which is less than
 * the answer's write costs. Redacting and decoding wait until the entry is read.
 */
export class KeptBodies {
  private readonly maxBytes: number;
  private readonly maxBodyBytes: number;
  private readonly gate: WarningGate;
  private readonly warning: string;
  /** Kept entries, oldest first from `head` (the slots before it are spent, reclaimed in batches). */
  private queue: EntryBodies[] = [];
  private head = 0;
  /** Bytes of the entries from `head` on. */
  private bytes = 0;
  /** The last whole body kept. */
  private last: KeptBody | undefined;

  constructor(options: BodyLogOptions, warn: (message: string) => void) {
    this.maxBytes = options.maxStoreMb * 1024 * 1024;
    // two bodies of an entry must fit the budget, whatever max_body_bytes says
    this.maxBodyBytes = Math.min(options.maxBodyBytes, Math.floor((this.maxBytes - OVERHEAD_BYTES) / 2));
    this.gate = new WarningGate(warn);
    this.warning = `request log: bodies of older entries forgotten to stay within logging.bodies.max_store_mb (${options.maxStoreMb} MB); raise it to keep more, or lower logging.bodies.max_body_bytes`;
  }

  /** Keeps what an entry shows of its bodies; undefined when it has none. `responseBytes`: the answer's content length (0: none, as for HEAD). */
  keep(
    requestBody: Buffer | undefined,
    requestType: string | undefined,
    responseBody: string | Uint8Array | undefined,
    responseBytes: number,
    responseHeaders: ReadonlyArray<[string, string]> | undefined,
  ): EntryBodies | undefined {
    const request = requestBody === undefined || requestBody.byteLength === 0 ? undefined : this.kept(requestBody, requestBody.byteLength, requestType);
    const response = responseBody === undefined || responseBytes === 0 ? undefined : this.kept(responseBody, responseBytes, contentTypeOf(responseHeaders));
    if (request === undefined && response === undefined) return undefined;
    const bodies: EntryBodies = { request, response, bytes: OVERHEAD_BYTES + keptBytes(request) + keptBytes(response) };
    this.queue.push(bodies);
    this.bytes += bodies.bytes;
    if (this.bytes > this.maxBytes) {
      while (this.bytes > this.maxBytes) this.dequeue();
      this.gate.warn(this.warning);
    }
    return bodies;
  }

  /** The ring buffer dropped the entry (its oldest): its bytes are free, unless the budget freed them first. */
  forget(bodies: EntryBodies): void {
    if (this.head < this.queue.length && this.queue[this.head] === bodies) this.dequeue();
  }

  clear(): void {
    this.last = undefined;
    for (let i = this.head; i < this.queue.length; i++) empty(this.queue[i]);
    this.queue = [];
    this.head = 0;
    this.bytes = 0;
  }

  /** Empties the oldest entry's bodies. */
  private dequeue(): void {
    const oldest = this.queue[this.head++];
    this.bytes -= oldest.bytes;
    empty(oldest);
    // spent slots are dropped once they are half the array: each entry is moved at most once on average
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  private kept(body: string | Uint8Array, size: number, contentType: string | undefined): KeptBody {
    if (size <= this.maxBodyBytes) {
      // an answer given again and again (a documented example) is kept as one object: nothing changes a kept body
      const last = this.last;
      if (last !== undefined && last.data === body && last.size === size && last.contentType === contentType) return last;
      return (this.last = { data: body, size, truncated: false, contentType });
    }
    return { data: prefix(body, this.maxBodyBytes), size, truncated: true, contentType };
  }
}

/** A kept body as an entry shows it: text (credentials redacted) or base64. */
export function shownBody(kept: KeptBody, redaction: Redaction): LoggedBody {
  const type = kept.contentType;
  const { text, encoding } = type !== undefined && MULTIPART_TYPE.test(type) ? multipartBody(kept.data, type, redaction) : plainBody(kept.data, type, redaction);
  const shown: LoggedBody = encoding === undefined ? { text, size: kept.size } : { text, encoding: 'base64', size: kept.size };
  if (kept.truncated) shown.truncated = true;
  if (type !== undefined) shown.content_type = type;
  return shown;
}

type Shown = ReturnType<typeof storedBody>;

/** Text when its media type is textual and its bytes UTF-8 (redacted), else base64 (as fixtures store bodies). */
function plainBody(data: string | Uint8Array, type: string | undefined, redaction: Redaction): Shown {
  const stored = storedBody(data, type);
  return stored.encoding === undefined ? { text: redaction.bodyText(stored.text, type) } : stored;
}

/**
 * Multipart form data, whose file parts may be bytes while its fields are text: redacted as
 * latin1 (one character a byte, so nothing is lost), then shown as text when it is UTF-8, else as
 * base64 of the redacted bytes. A credential field never reaches the log, even beside a file.
 */
function multipartBody(data: string | Uint8Array, type: string, redaction: Redaction): Shown {
  const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return storedBody(Buffer.from(redaction.bodyText(bytes.toString('latin1'), type), 'latin1'), 'text/plain');
}

/** Its first `max` bytes, copied (a reference would hold the whole body), never ending inside a UTF-8 character. */
function prefix(body: string | Uint8Array, max: number): Uint8Array {
  // a character is at most 3 bytes per UTF-16 unit: encode no more than can matter
  const bytes = typeof body === 'string' ? Buffer.from(body.slice(0, max)) : body;
  let end = Math.min(max, bytes.byteLength);
  // back off over continuation bytes to the start of the character cut in two, and drop it
  if (end < bytes.byteLength && (bytes[end] & 0xc0) === 0x80) {
    while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  }
  return new Uint8Array(bytes.subarray(0, end));
}

/** Bytes a kept body holds: a truncated one its copied prefix, another the whole body (counted even when shared: the budget errs on the safe side). */
const keptBytes = (kept: KeptBody | undefined): number => (kept === undefined ? 0 : kept.truncated ? (kept.data as Uint8Array).byteLength : kept.size);

function contentTypeOf(headers: ReadonlyArray<[string, string]> | undefined): string | undefined {
  if (headers === undefined) return undefined;
  for (let i = 0; i < headers.length; i++) if (headers[i][0] === 'content-type') return headers[i][1];
  return undefined;
}

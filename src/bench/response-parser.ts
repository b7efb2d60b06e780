// Incremental HTTP/1.1 response parser for the load generator's raw sockets. It reads only what a
// load test needs (status, framing, Connection: close) and never builds header objects, so it
// costs a few hundred nanoseconds per small response. Framing: Content-Length, chunked (with
// extensions and trailers), read-until-close; 1xx interim responses are skipped; responses to HEAD,
// 204 and 304 have no body. Several responses in one chunk (pipelining) and a response split over
// many chunks are both handled. Given stream hooks, it also hands the body bytes of an answer of a
// sequential media type (SSE, JSON Lines …) to them as they arrive. Given sample hooks, it asks at
// each other answer's head whether to keep it, and keeps the body of those it is told to (up to a
// cap); every other body is only skipped.
import { framingOf } from '../../common/sequence-items.js';

const CRLFCRLF = Buffer.from('\r\n\r\n');
const CR = 0x0d;
const LF = 0x0a;
/** Longest status line plus headers accepted before the response is called malformed. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Longest body kept for a sampled answer: a longer one is reported without it. */
export const MAX_SAMPLED_BODY_BYTES = 1024 * 1024;

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailers,
  UntilClose,
}

const APPLICATION_JSON = Buffer.from('application/json');
const CONTENT_TYPE = Buffer.from('content-type');

/** The Content-Type of the head from `start` to `end` (the blank line), '' when there is none. */
function contentTypeOf(b: Buffer, start: number, end: number): string {
  let p = b.indexOf(LF, start) + 1;
  while (p > 0 && p < end) {
    let le = b.indexOf(LF, p);
    if (le < 0 || le > end) le = end;
    if (p + 12 < le && b[p + 12] === 0x3a && isContentType(b, p)) return b.toString('latin1', p + 13, b[le - 1] === CR ? le - 1 : le).trim();
    p = le + 1;
  }
  return '';
}

/** Whether the header name at `at` is Content-Type, in any case. */
function isContentType(b: Buffer, at: number): boolean {
  for (let k = 0; k < CONTENT_TYPE.length; k++) if ((b[at + k] | 0x20) !== CONTENT_TYPE[k]) return false;
  return true;
}

/**
 * A first look at a content type without making a string of it: application/json (the usual
 * answer) and anything but text/, application/ and multipart/ is no sequential media type.
 */
function maybeSequential(b: Buffer, from: number, to: number): boolean {
  while (from < to && (b[from] === 0x20 || b[from] === 0x09)) from++;
  const c = b[from] | 0x20;
  if (c !== 0x74 && c !== 0x61 && c !== 0x6d) return false;
  const after = from + APPLICATION_JSON.length;
  if (after > to || (after < to && b[after] !== 0x3b && b[after] !== 0x20)) return true;
  for (let k = 1; k < APPLICATION_JSON.length; k++) if ((b[from + k] | 0x20) !== APPLICATION_JSON[k]) return true;
  return false;
}

export class ResponseParseError extends Error {
  readonly code = 'EPROTO';
}

/** Called once per complete (final, non-1xx) response. `close`: the server said Connection: close. */
export type OnResponse = (status: number, close: boolean) => void;

/** Where the body of a streamed answer goes (mock bench's virtual users read it item by item). */
export interface StreamHooks {
  /** A final response with a body of a sequential media type begins. */
  start(status: number, contentType: string): void;
  /** Some of its body bytes (valid only during the call). */
  data(chunk: Buffer): void;
}

/** How a load loop samples answers that are not streams (mock bench validates them after the round). */
export interface SampleHooks {
  /** Asked at the head of each final answer that is not a stream: keep this one? */
  want(): boolean;
  /**
   * A kept answer is complete (called before OnResponse). `body` is null when it was longer than
   * MAX_SAMPLED_BODY_BYTES; `bodiless`: the answer could have none (HEAD, 204, 304).
   */
  answer(status: number, contentType: string, body: Buffer | null, bodiless: boolean): void;
}

export class ResponseParser {
  private state = State.Head;
  private partial: Buffer | null = null;
  private line = '';
  private remaining = 0;
  private status = 0;
  private close = false;
  /** Bumped by reset(): execute() stops when the owner reset the parser from a callback. */
  private epoch = 0;
  /** The body of the current response goes to the stream hooks. */
  private streaming = false;
  /** The current response is a sampled one: its body is kept (up to the cap). */
  private capturing = false;
  private captured: Buffer[] = [];
  private capturedBytes = 0;
  private overCap = false;
  private capturedType = '';
  private capturedBodiless = false;

  /**
   * @param onResponse called for each complete response
   * @param bodiless asked once per response head: true when the request was HEAD (no body follows)
   */
  constructor(
    private readonly onResponse: OnResponse,
    private readonly bodiless: () => boolean = () => false,
    private readonly stream?: StreamHooks,
    private readonly sample?: SampleHooks,
  ) {}

  /** Feeds bytes; throws ResponseParseError on anything that is not an HTTP/1.x response. */
  execute(buf: Buffer): void {
    const n = buf.length;
    const epoch = this.epoch;
    let i = 0;
    while (i < n && epoch === this.epoch) {
      switch (this.state) {
        case State.Head: {
          if (this.partial !== null) {
            const joined = Buffer.concat([this.partial, buf.subarray(i)]);
            const end = joined.indexOf(CRLFCRLF);
            if (end < 0) {
              if (joined.length > MAX_HEAD_BYTES) throw new ResponseParseError('response head larger than 64 KiB');
              this.partial = joined;
              return;
            }
            const used = end + 4 - this.partial.length;
            this.partial = null;
            this.head(joined, 0, end);
            i += used;
          } else {
            const end = buf.indexOf(CRLFCRLF, i);
            if (end < 0) {
              if (n - i > MAX_HEAD_BYTES) throw new ResponseParseError('response head larger than 64 KiB');
              this.partial = Buffer.from(buf.subarray(i));
              return;
            }
            this.head(buf, i, end);
            i = end + 4;
          }
          break;
        }
        case State.Length: {
          const take = Math.min(this.remaining, n - i);
          if (this.streaming) this.stream?.data(buf.subarray(i, i + take));
          else if (this.capturing) this.keep(buf, i, i + take);
          i += take;
          this.remaining -= take;
          if (this.remaining === 0) this.complete();
          break;
        }
        case State.ChunkSize: {
          const nl = buf.indexOf(LF, i);
          if (nl < 0) {
            this.line += buf.toString('latin1', i, n);
            if (this.line.length > 1024) throw new ResponseParseError('chunk size line too long');
            return;
          }
          const text = this.line + buf.toString('latin1', i, nl);
          this.line = '';
          i = nl + 1;
          const size = parseInt(text, 16);
          if (!/^\s*[0-9a-fA-F]+/.test(text) || Number.isNaN(size)) throw new ResponseParseError(`bad chunk size ${JSON.stringify(text.slice(0, 20))}`);
          if (size === 0) this.state = State.Trailers;
          else {
            this.remaining = size;
            this.state = State.ChunkData;
          }
          break;
        }
        case State.ChunkData: {
          const take = Math.min(this.remaining, n - i);
          if (this.streaming) this.stream?.data(buf.subarray(i, i + take));
          else if (this.capturing) this.keep(buf, i, i + take);
          i += take;
          this.remaining -= take;
          if (this.remaining === 0) {
            this.remaining = 2; // the CRLF after the data
            this.state = State.ChunkEnd;
          }
          break;
        }
        case State.ChunkEnd: {
          const take = Math.min(this.remaining, n - i);
          i += take;
          this.remaining -= take;
          if (this.remaining === 0) this.state = State.ChunkSize;
          break;
        }
        case State.Trailers: {
          const nl = buf.indexOf(LF, i);
          if (nl < 0) {
            this.line += buf.toString('latin1', i, n);
            if (this.line.length > MAX_HEAD_BYTES) throw new ResponseParseError('trailers larger than 64 KiB');
            return;
          }
          const text = this.line + buf.toString('latin1', i, nl);
          this.line = '';
          i = nl + 1;
          if (text === '' || text === '\r') this.complete();
          break;
        }
        case State.UntilClose:
          if (this.streaming) this.stream?.data(buf.subarray(i));
          else if (this.capturing) this.keep(buf, i, n);
          return;
      }
    }
  }

  /** The connection closed. Returns true when that completed a read-until-close response. */
  finish(): boolean {
    if (this.state !== State.UntilClose) return false;
    this.complete();
    return true;
  }

  /** Forget any partial response (the socket it came from is gone). */
  reset(): void {
    this.epoch++;
    this.state = State.Head;
    this.partial = null;
    this.line = '';
    this.remaining = 0;
    this.streaming = false;
    this.capturing = false;
    this.captured = [];
  }

  private head(b: Buffer, start: number, end: number): void {
    // "HTTP/1.1 200 OK"
    if (b[start] !== 0x48 || b[start + 1] !== 0x54 || b[start + 4] !== 0x2f || b[start + 8] !== 0x20) {
      throw new ResponseParseError(`not an HTTP/1.x response: ${JSON.stringify(b.toString('latin1', start, Math.min(end, start + 20)))}`);
    }
    const d0 = b[start + 9] - 48;
    const d1 = b[start + 10] - 48;
    const d2 = b[start + 11] - 48;
    if (d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) throw new ResponseParseError('bad status code');
    const status = d0 * 100 + d1 * 10 + d2;
    let length = -1;
    let chunked = false;
    let close = false;
    let contentType: string | undefined;
    // without stream hooks the content type is not even looked at
    const typeLength = this.stream === undefined ? -1 : 12;
    let p = b.indexOf(LF, start) + 1;
    while (p > 0 && p < end) {
      let le = b.indexOf(LF, p);
      if (le < 0 || le > end) le = end;
      const c = b[p] | 0x20;
      // only content-length, connection and transfer-encoding matter (and content-type for streams)
      if (c === 0x63 || c === 0x74) {
        const colon = b.indexOf(0x3a, p);
        if (colon > 0 && colon < le) {
          const nameLength = colon - p;
          if (nameLength === typeLength) {
            const valueEnd = b[le - 1] === CR ? le - 1 : le;
            if (isContentType(b, p) && maybeSequential(b, colon + 1, valueEnd)) contentType = b.toString('latin1', colon + 1, valueEnd).trim();
          } else if (nameLength === 14 || nameLength === 17 || nameLength === 10) {
            const name = b.toString('latin1', p, colon).toLowerCase();
            const valueEnd = b[le - 1] === CR ? le - 1 : le;
            if (name === 'content-length') {
              length = Number(b.toString('latin1', colon + 1, valueEnd).trim());
              if (!Number.isSafeInteger(length) || length < 0) throw new ResponseParseError('bad content-length');
            } else if (name === 'transfer-encoding') {
              chunked = /chunked/i.test(b.toString('latin1', colon + 1, valueEnd));
            } else if (name === 'connection') {
              close = /close/i.test(b.toString('latin1', colon + 1, valueEnd));
            }
          }
        }
      }
      p = le + 1;
    }
    if (status < 200 && status !== 101) return; // 100 Continue, 103 Early Hints: the real response follows
    this.status = status;
    this.close = close;
    const bodiless = status === 204 || status === 304 || status === 101 || this.bodiless();
    if (!bodiless && contentType !== undefined && length !== 0 && framingOf(contentType) !== undefined) {
      this.streaming = true;
      this.stream?.start(status, contentType);
    } else if (this.sample !== undefined && this.sample.want()) {
      // only kept answers pay for their content type and body
      this.capturing = true;
      this.captured = [];
      this.capturedBytes = 0;
      this.overCap = length > MAX_SAMPLED_BODY_BYTES;
      this.capturedType = contentTypeOf(b, start, end);
      this.capturedBodiless = bodiless;
    }
    if (bodiless) return this.complete();
    if (chunked) this.state = State.ChunkSize;
    else if (length > 0) {
      this.remaining = length;
      this.state = State.Length;
    } else if (length === 0) this.complete();
    else this.state = State.UntilClose;
  }

  /** Body bytes of a sampled answer: copied (the socket's buffer is not ours), or dropped past the cap. */
  private keep(buf: Buffer, from: number, to: number): void {
    if (this.overCap) return;
    this.capturedBytes += to - from;
    if (this.capturedBytes > MAX_SAMPLED_BODY_BYTES) {
      this.overCap = true;
      this.captured = [];
      return;
    }
    this.captured.push(Buffer.from(buf.subarray(from, to)));
  }

  private complete(): void {
    this.state = State.Head;
    this.streaming = false;
    if (this.capturing) {
      this.capturing = false;
      const body = this.overCap ? null : Buffer.concat(this.captured);
      this.captured = [];
      this.sample?.answer(this.status, this.capturedType, body, this.capturedBodiless);
    }
    this.onResponse(this.status, this.close);
  }
}

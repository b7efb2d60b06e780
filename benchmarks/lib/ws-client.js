// A lean WebSocket load client on node:net, for benchmarks/websocket.js: autocannon cannot speak
// WebSocket (nor can wrk), and a general-purpose client library spends more per message than the
// servers it measures. It does only what an echo benchmark needs:
//
// - the HTTP/1.1 upgrade handshake, checked (101 and Sec-WebSocket-Accept), no extensions offered;
// - per connection, `window` messages in flight: the client frames (masked, FIN + text, a small
//   payload) are encoded once, and each read's replies are answered with as many new frames in one
//   write (a slice of the pre-encoded buffer);
// - the server's frames parsed minimally (2-byte header, 7- or 16-bit length, unmasked);
// - latency = reply time − send time, from a ring of send timestamps per connection (replies come
//   back in order), in microseconds into an hdr histogram;
// - one in SAMPLE_EVERY replies compared byte for byte with what was sent (every payload is
//   distinct within a window: an answer that is not the echo, or comes out of order, is counted).
//
// Reads go through `onread` with one reused buffer (no stream machinery, no allocation per read).
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import * as hdr from 'hdr-histogram-js';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const TEXT = 0x1;
const BINARY = 0x2;
const CLOSE = 0x8;
const PING = 0x9;
const PONG = 0xa;
/** Power of two: every SAMPLE_EVERY-th reply of a connection is compared with what was sent. */
const SAMPLE_EVERY = 16;
const HEADER_END = Buffer.from('\r\n\r\n');

/** One microsecond resolution up to one hour, three significant digits (as src/bench/histogram.ts). */
export function createHistogram() {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
}

/** A client frame (FIN, masked) of a payload shorter than 64 KiB. */
export function encodeFrame(opcode, payload, mask = randomBytes(4)) {
  const length = payload.length;
  if (length > 0xffff) throw new Error('encodeFrame: payloads of 64 KiB or more are not supported');
  const header = length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(header + 4 + length);
  frame[0] = 0x80 | opcode;
  if (length < 126) frame[1] = 0x80 | length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  }
  mask.copy(frame, header);
  for (let i = 0; i < length; i++) frame[header + 4 + i] = payload[i] ^ mask[i & 3];
  return frame;
}

function handshakeRequest(host, port, path) {
  const key = randomBytes(16).toString('base64');
  const request =
    `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` + `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
  const accept = createHash('sha1').update(key + GUID).digest('base64');
  return { request, accept };
}

/** Undefined when `head` (the response up to its blank line) accepts the upgrade; the reason otherwise. */
function handshakeError(head, accept) {
  const [status, ...fields] = head.split('\r\n');
  if (!/^HTTP\/1\.1 101\b/.test(status)) return `upgrade refused: ${status}`;
  const field = fields.find((line) => /^sec-websocket-accept:/i.test(line));
  if (field?.slice(field.indexOf(':') + 1).trim() !== accept) return `wrong Sec-WebSocket-Accept (${field ?? 'none'})`;
  const extensions = fields.find((line) => /^sec-websocket-extensions:/i.test(line));
  if (extensions !== undefined) return `an extension none was offered: ${extensions}`;
  return undefined;
}

/** Parses the complete frames of buf[0, end): [{ opcode, fin, payload }], and the offset of the first incomplete one. */
function parseFrames(buf) {
  const frames = [];
  let off = 0;
  while (buf.length - off >= 2) {
    let length = buf[off + 1] & 0x7f;
    let start = off + 2;
    if (length === 126) {
      if (buf.length - off < 4) break;
      length = buf.readUInt16BE(off + 2);
      start = off + 4;
    } else if (length === 127) {
      if (buf.length - off < 10) break;
      length = Number(buf.readBigUInt64BE(off + 2));
      start = off + 10;
    }
    if (buf[off + 1] & 0x80) throw new Error('the server sent a masked frame');
    if (start + length > buf.length) break;
    frames.push({ fin: (buf[off] & 0x80) !== 0, opcode: buf[off] & 0x0f, payload: buf.subarray(start, start + length) });
    off = start + length;
  }
  return { frames, rest: buf.subarray(off) };
}

/**
 * Opens one connection to ws://host:port<path>, sends each message ({ opcode, payload }) and
 * resolves with the replies' { opcode, payload }, in order; rejects on a refused handshake, a
 * closed connection or a timeout. For the echo check before measuring, not for load.
 */
export function exchange(host, port, path, messages, { timeoutMs = 5_000 } = {}) {
  const { request, accept } = handshakeRequest(host, port, path);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, noDelay: true });
    const replies = [];
    let pending = Buffer.alloc(0);
    let open = false;
    const done = (error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(new Error(`ws://${host}:${port}${path}: ${error}`));
      else resolve(replies);
    };
    const timer = setTimeout(() => done(`${replies.length} of ${messages.length} replies after ${timeoutMs} ms`), timeoutMs);
    socket.once('error', (e) => done(e.message));
    socket.once('close', () => done('connection closed'));
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      if (!open) {
        const end = pending.indexOf(HEADER_END);
        if (end < 0) return;
        const error = handshakeError(pending.subarray(0, end).toString('latin1'), accept);
        if (error) return done(error);
        open = true;
        pending = pending.subarray(end + 4);
        socket.write(Buffer.concat(messages.map(({ opcode, payload }) => encodeFrame(opcode, payload))));
      }
      let parsed;
      try {
        parsed = parseFrames(pending);
      } catch (e) {
        return done(e.message);
      }
      pending = parsed.rest;
      for (const frame of parsed.frames) {
        if (frame.opcode === PING) socket.write(encodeFrame(PONG, frame.payload));
        else if (frame.opcode === CLOSE) return done(`closed by the server (${frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 'no code'})`);
        else if (!frame.fin) return done('a fragmented reply');
        else replies.push({ opcode: frame.opcode, payload: Buffer.from(frame.payload) });
      }
      if (replies.length >= messages.length) done();
    });
  });
}

/** Resolves when `exchange` echoes a text and a binary message (one with a 16-bit length); rejects with what differs. */
export async function checkEcho(host, port, path, options) {
  const messages = [
    { opcode: TEXT, payload: Buffer.from('echo check: «ünïcödé» ✓') },
    { opcode: BINARY, payload: Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff)) },
  ];
  const replies = await exchange(host, port, path, messages, options);
  messages.forEach((sent, i) => {
    const got = replies[i];
    if (got.opcode !== sent.opcode || !got.payload.equals(sent.payload)) {
      const kind = (opcode) => ({ [TEXT]: 'text', [BINARY]: 'binary' })[opcode] ?? `opcode ${opcode}`;
      throw new Error(
        `ws://${host}:${port}${path}: message ${i + 1} (${kind(sent.opcode)}, ${sent.payload.length} bytes) came back as ${kind(got.opcode)}, ${got.payload.length} bytes${got.payload.length === sent.payload.length && !got.payload.equals(sent.payload) ? ', different bytes' : ''}`,
      );
    }
  });
}

/**
 * The load of one process: `connections` connections to ws://host:port<path>, each keeping
 * `window` (a power of two) text messages of `payloadSize` bytes in flight. `open()` connects and
 * handshakes every connection; `start()` sends the first windows; `measure(true)` starts
 * counting replies and recording latencies, `measure(false)` stops; `stop()` closes everything.
 */
export class EchoLoad {
  constructor({ host, port, path, connections, window, payloadSize }) {
    if (!Number.isInteger(Math.log2(window))) throw new Error(`the window must be a power of two, not ${window}`);
    if (payloadSize > 125) throw new Error('the payload must fit a 7-bit length (≤ 125 bytes)');
    Object.assign(this, { host, port, path, window, payloadSize });
    this.histogram = createHistogram();
    this.messages = 0; // replies while measuring
    this.wrong = 0; // sampled replies that were not the echo of what was sent
    this.errors = 0; // connections lost or refused, unexpected frames
    this.problems = []; // the first few, for the report
    this.measuring = false;
    this.running = false;
    // one read buffer for every connection: a read is handled synchronously, then the buffer is reused
    this.readBuffer = Buffer.allocUnsafe(256 * 1024);
    this.connections = Array.from({ length: connections }, (_, id) => new Connection(this, id));
  }

  open() {
    return Promise.all(this.connections.map((connection) => connection.open()));
  }

  start() {
    this.running = true;
    for (const connection of this.connections) connection.send(this.window);
  }

  measure(on) {
    this.measuring = on;
  }

  stop() {
    this.running = false;
    this.measuring = false;
    for (const connection of this.connections) connection.close();
  }

  /** A wrong echo (`wrong` counts it) or a lost connection or stray frame (`errors` does): the first few are kept. */
  note(text) {
    if (this.problems.length < 5) this.problems.push(text);
  }

  problem(text) {
    this.errors++;
    this.note(text);
  }
}

class Connection {
  constructor(load, id) {
    this.load = load;
    this.id = id;
    const { window, payloadSize } = load;
    // `window` distinct payloads, "c<id> m<n>" padded; the frames twice over, so that any run of up
    // to `window` frames from any starting frame is one contiguous slice
    this.plain = Buffer.alloc(window * payloadSize, '.');
    const frames = [];
    const mask = randomBytes(4);
    for (let n = 0; n < window; n++) {
      const payload = this.plain.subarray(n * payloadSize, (n + 1) * payloadSize);
      payload.write(`c${id} m${n} `.slice(0, payloadSize), 'latin1');
      frames.push(encodeFrame(TEXT, payload, mask));
    }
    this.frameSize = frames[0].length;
    this.frames = Buffer.concat([...frames, ...frames]);
    this.nextFrame = 0; // index of the next frame to send, in [0, window)
    this.received = 0; // replies so far (their index modulo window names the frame they answer)
    this.sentAt = new Float64Array(window); // ring of send times, oldest at `tail`
    this.head = 0;
    this.tail = 0;
    this.pending = null; // an incomplete frame (or handshake) carried over to the next read
    this.open_ = false;
    this.closing = false;
  }

  open() {
    const { host, port, path } = this.load;
    const { request, accept } = handshakeRequest(host, port, path);
    this.accept = accept;
    return new Promise((resolve, reject) => {
      this.opened = { resolve, reject };
      this.socket = net.connect({
        host,
        port,
        noDelay: true,
        onread: { buffer: this.load.readBuffer, callback: (n, buffer) => this.read(n, buffer) },
      });
      this.socket.on('connect', () => this.socket.write(request));
      this.socket.on('error', (e) => this.fail(e.message));
      this.socket.on('close', () => this.fail('connection closed'));
    });
  }

  fail(reason) {
    if (this.closing) return;
    this.closing = true;
    this.socket.destroy();
    const text = `connection ${this.id}: ${reason}`;
    if (this.open_) this.load.problem(text);
    else this.opened.reject(new Error(`ws://${this.load.host}:${this.load.port}${this.load.path}: ${text}`));
  }

  close() {
    this.closing = true;
    this.socket.destroy();
  }

  /** `count` (≤ window) more frames in one write, their send time recorded. */
  send(count) {
    const now = performance.now();
    const mask = this.load.window - 1;
    let head = this.head;
    for (let i = 0; i < count; i++) {
      this.sentAt[head] = now;
      head = (head + 1) & mask;
    }
    this.head = head;
    const first = this.nextFrame;
    this.socket.write(this.frames.subarray(first * this.frameSize, (first + count) * this.frameSize));
    this.nextFrame = (first + count) & mask;
  }

  read(n, chunk) {
    if (this.closing) return false;
    const now = performance.now();
    let buf = chunk;
    let end = n;
    if (this.pending !== null) {
      buf = Buffer.concat([this.pending, chunk.subarray(0, n)]);
      end = buf.length;
      this.pending = null;
    }
    let off = 0;
    if (!this.open_) {
      const headEnd = buf.subarray(0, end).indexOf(HEADER_END);
      if (headEnd < 0) {
        this.pending = Buffer.from(buf.subarray(0, end));
        return;
      }
      const error = handshakeError(buf.toString('latin1', 0, headEnd), this.accept);
      if (error) return this.fail(error);
      this.open_ = true;
      this.opened.resolve();
      off = headEnd + 4;
    }

    const load = this.load;
    const size = load.payloadSize;
    const mask = load.window - 1;
    const measuring = load.measuring;
    const histogram = load.histogram;
    const sentAt = this.sentAt;
    let tail = this.tail;
    let received = this.received;
    let replies = 0;
    while (end - off >= 2) {
      const b0 = buf[off];
      const b1 = buf[off + 1];
      let length = b1 & 0x7f;
      let start = off + 2;
      if (length === 126) {
        if (end - off < 4) break;
        length = (buf[off + 2] << 8) | buf[off + 3];
        start = off + 4;
      } else if (length === 127) {
        return this.fail('a frame with a 64-bit length');
      }
      if (b1 & 0x80) return this.fail('a masked frame from the server');
      if (start + length > end) break;
      if (b0 === (0x80 | TEXT)) {
        if (length !== size) {
          load.wrong++;
          load.note(`connection ${this.id}: a reply of ${length} bytes to a message of ${size}`);
        } else if ((received & (SAMPLE_EVERY - 1)) === 0) {
          const expected = (received & mask) * size;
          if (buf.compare(this.plain, expected, expected + size, start, start + length) !== 0) {
            load.wrong++;
            load.note(`connection ${this.id}: reply ${received} is ${JSON.stringify(buf.toString('latin1', start, start + length))}, not the echo of message ${received}`);
          }
        }
        if (measuring) histogram.recordValue(Math.round((now - sentAt[tail]) * 1000));
        tail = (tail + 1) & mask;
        received++;
        replies++;
      } else {
        const opcode = b0 & 0x0f;
        if (opcode === PING) this.socket.write(encodeFrame(PONG, buf.subarray(start, start + length)));
        else if (opcode === CLOSE) return this.fail(`closed by the server (${length >= 2 ? (buf[start] << 8) | buf[start + 1] : 'no code'})`);
        else if (opcode !== PONG) {
          load.wrong++;
          load.note(`connection ${this.id}: a reply with first byte 0x${b0.toString(16)} to a text message`);
          tail = (tail + 1) & mask;
          received++;
          replies++;
        }
      }
      off = start + length;
    }
    this.tail = tail;
    this.received = received;
    // copied: the read buffer is overwritten by the next read
    if (off < end) this.pending = Buffer.from(buf.subarray(off, end));
    if (replies > 0) {
      if (measuring) load.messages += replies;
      if (load.running) this.send(replies);
    }
  }
}

import type { AnswerSource } from '../../../common/answer-source.js';
import type { Render, TemplateContext, TemplateRuntime } from '../../../common/contract/index.js';
import { messageBytes, messageJson, messageText, type ScriptLineJson, type WsMessage } from '../../../common/websocket/index.js';
import { parseQuery } from '../../../common/query-string.js';
import type { WsHandshake, WsPeer } from './peer.js';
import type { WsSessionLimits } from './session-limits.js';

/** What answers a session's messages: an echo, a replay script, a route's message answers. */
export interface WsBehaviour {
  /** For the log: `echo`, `script <file>`, `answers`, `fixture <file>`. */
  readonly name: string;
  /** For the log's source: echo, script (a script or a route's answers), fixture (a recorded session), proxy (an upstream relay). */
  readonly source: AnswerSource;
  /** Sends every message back as it came: the session may do so with the frame's bytes, undecoded. */
  readonly echoes?: boolean;
  start(session: WsSession): void;
  message(session: WsSession, message: WsMessage): void;
  /** The connection is gone: drop timers. */
  stop(): void;
}

/** How a session ended, for the request log and the statistics. */
export interface WsSessionReport {
  handshake: WsHandshake;
  /** The route's path pattern, or the path when no route claims it. */
  pathKey: string;
  behaviour: string;
  source: AnswerSource;
  durationMs: number;
  messagesIn: number;
  messagesOut: number;
  bytesIn: number;
  bytesOut: number;
  closeCode: number;
  closeReason: string;
  /** Why the mock closed it, when it was not the script's or the client's choice. */
  error: string | null;
}

/** Where a recorded session's lines go as they happen (WsRecordings writes them to disk). */
export interface WsTape {
  line(line: ScriptLineJson): void;
  /** The session is over. */
  end(): void;
}

export interface WsSessionOptions {
  handshake: WsHandshake;
  pathKey: string;
  params: Record<string, string>;
  limits: WsSessionLimits;
  templates: TemplateRuntime;
  /** Milliseconds to hold the next outgoing message (latency chaos); 0 mostly. */
  latency: () => number;
  /** Record the conversation as replay-script lines, as it goes. */
  tape?: WsTape;
  onEnd: (report: WsSessionReport) => void;
}

/**
 * One WebSocket connection from its opening to its close: counts and records what goes each way,
 * holds outgoing messages for latency chaos (in order), keeps the values captured from client
 * messages, and renders templates against the handshake and the last client message.
 */
export class WsSession {
  readonly openedAt = performance.now();
  readonly vars: Record<string, string> = { message: '' };
  private last: WsMessage | undefined;
  private lastJson: unknown;
  private messagesIn = 0;
  private messagesOut = 0;
  private bytesIn = 0;
  private bytesOut = 0;
  private error: string | null = null;
  private closing = false;
  /** The close frame the mock sent: what the session ended with, even when the client never answered it. */
  private closeSent: { code: number; reason: string } | undefined;
  private ended = false;
  /** When the last held message goes out: later ones never overtake it. */
  private heldUntil = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly tape: WsTape | undefined;
  private readonly context: TemplateContext;

  constructor(
    private readonly peer: WsPeer,
    private readonly behaviour: WsBehaviour,
    private readonly options: WsSessionOptions,
  ) {
    const { handshake, params } = options;
    this.tape = options.tape;
    this.context = { path: params, query: queryOf(handshake.rawQuery), headers: handshake.headers, body: undefined, vars: this.vars };
  }

  get handshake(): WsHandshake {
    return this.options.handshake;
  }

  get limits(): WsSessionLimits {
    return this.options.limits;
  }

  /** Whether the client reads too slowly for more to be sent now. */
  get congested(): boolean {
    return this.peer.buffered > this.options.limits.maxBufferedBytes;
  }

  get open(): boolean {
    return !this.closing && !this.ended;
  }

  /** Milliseconds since the connection opened. */
  elapsed(): number {
    return performance.now() - this.openedAt;
  }

  start(): void {
    this.behaviour.start(this);
  }

  /** Set by every sign of life (a message, a pong); the heartbeat clears it when it pings. */
  alive = true;

  /**
   * A frame from the client; `data` may be the library's memory, valid only during this call. An
   * echo that goes out at once, unrecorded, sends the same bytes back; anything else gets the
   * message decoded (text) or copied (binary).
   */
  receivedFrame(data: Uint8Array, binary: boolean): void {
    if (this.ended) return;
    this.alive = true;
    this.messagesIn++;
    this.bytesIn += data.byteLength;
    if (this.behaviour.echoes === true) {
      const delay = this.options.latency();
      if (delay <= 0 && this.heldUntil === 0 && this.tape === undefined && this.open && !this.congested) {
        this.messagesOut++;
        this.bytesOut += data.byteLength;
        this.peer.sendFrame(data, binary);
        return;
      }
      const message = messageOf(data, binary);
      this.record('in', message);
      this.sendAfter(message, delay);
      return;
    }
    const message = messageOf(data, binary);
    this.record('in', message);
    this.behaviour.message(this, message);
  }

  /** Makes `message` the one templates read as `{{request.body…}}` and `{{message}}`. */
  remember(message: WsMessage, captured: Record<string, string> | undefined): void {
    this.last = message;
    this.lastJson = undefined;
    this.vars.message = messageText(message);
    if (captured !== undefined) Object.assign(this.vars, captured);
  }

  render(template: Render): string {
    if (this.last !== undefined && this.lastJson === undefined) this.lastJson = messageJson(this.last) ?? this.vars.message;
    this.context.body = this.lastJson;
    return template(this.options.templates, this.context);
  }

  /**
   * Sends now, or after the latency chaos holds it, in order. An answer to a client that reads too
   * slowly closes the connection (1008) rather than buffering without bound; scripts wait for
   * `drained` instead.
   */
  send(message: WsMessage): void {
    this.sendAfter(message, this.options.latency());
  }

  private sendAfter(message: WsMessage, delay: number): void {
    if (!this.open) return;
    if (this.congested) {
      const limit = this.options.limits.maxBufferedBytes;
      this.fail(1008, `the client reads too slowly: more than ${limit} bytes are waiting to be sent`);
      return;
    }
    if (delay <= 0 && this.heldUntil === 0) {
      this.write(message);
      return;
    }
    const now = performance.now();
    const at = Math.max(now + delay, this.heldUntil);
    this.heldUntil = at;
    this.later(at - now, () => {
      // the last held message is out: later ones need not wait behind it
      if (this.heldUntil === at) this.heldUntil = 0;
      this.write(message);
    });
  }

  /** Calls back when the client has taken what waits (at once when nothing does). */
  drained(callback: () => void): void {
    if (!this.congested) callback();
    else this.peer.whenDrained(this.options.limits.maxBufferedBytes, () => this.open && callback());
  }

  /** Closes with a code and reason of the script or the route, after what is held goes out. */
  close(code: number, reason: string): void {
    if (!this.open) return;
    const delay = this.heldUntil === 0 ? 0 : this.heldUntil - performance.now();
    if (delay > 0) {
      this.later(delay, () => this.close(code, reason));
      return;
    }
    this.closing = true;
    this.closeSent = { code, reason };
    this.keep({ ts: this.ts(), dir: 'out', close: { code, reason } });
    this.peer.close(code, reason);
  }

  /** Closes because of a limit (message timeout, back-pressure); the reason says why, the log too. */
  fail(code: number, why: string): void {
    if (!this.open) return;
    this.error = why;
    this.closing = true;
    this.closeSent = { code, reason: truncateReason(`mock: ${why}`) };
    this.peer.close(code, this.closeSent.reason);
  }

  /** The heartbeat's ping. */
  ping(): void {
    if (this.open) this.peer.ping();
  }

  /** Drops a peer that stopped answering pings. */
  terminate(why: string): void {
    if (this.ended) return;
    this.error = why;
    this.peer.terminate();
  }

  /** A timer that dies with the session. */
  later(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.ended) run();
    }, Math.max(0, ms));
    this.timers.add(timer);
    return timer;
  }

  cancel(timer: NodeJS.Timeout | undefined): void {
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  /** The adapter saw the connection close (either side, or dropped: 1006). */
  closed(code: number, reason: string): void {
    if (this.ended) return;
    if (this.closeSent !== undefined) ({ code, reason } = this.closeSent);
    this.ended = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.behaviour.stop();
    this.tape?.end();
    const { handshake, pathKey } = this.options;
    this.options.onEnd({
      handshake,
      pathKey,
      behaviour: this.behaviour.name,
      source: this.behaviour.source,
      durationMs: performance.now() - this.openedAt,
      messagesIn: this.messagesIn,
      messagesOut: this.messagesOut,
      bytesIn: this.bytesIn,
      bytesOut: this.bytesOut,
      closeCode: code,
      closeReason: reason,
      error: this.error,
    });
  }

  private write(message: WsMessage): void {
    if (!this.open) return;
    this.messagesOut++;
    this.bytesOut += messageBytes(message);
    this.record('out', message);
    this.peer.send(message);
  }

  private record(dir: 'in' | 'out', message: WsMessage): void {
    if (this.tape === undefined) return;
    const binary = typeof message !== 'string';
    this.keep({ ts: this.ts(), dir, text: messageText(message), ...(binary ? { encoding: 'base64' as const } : {}) });
  }

  private keep(line: ScriptLineJson): void {
    this.tape?.line(line);
  }

  private ts(): number {
    return Math.round(this.elapsed());
  }
}

const utf8 = new TextDecoder();

/** A frame as a message the session keeps: text decoded, binary copied (the library may reuse its memory). */
const messageOf = (data: Uint8Array, binary: boolean): WsMessage => (binary ? data.slice() : utf8.decode(data));

/** A close frame's reason holds at most 123 bytes. */
function truncateReason(reason: string): string {
  if (Buffer.byteLength(reason) <= 123) return reason;
  let out = reason;
  while (Buffer.byteLength(`${out}…`) > 123) out = out.slice(0, -1);
  return `${out}…`;
}

function queryOf(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of parseQuery(raw)) query[name] = values.length === 1 ? values[0] : values;
  return query;
}

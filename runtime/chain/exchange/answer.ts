import type { AnswerSource } from '../../../common/answer-source.js';
import type { ProblemCode } from '../../../common/errors.js';

/**
 * How an answer reaches the client. Absent: written whole at once. Connection-level behaviour
 * (chaos, later) is expressed here so that every server adapter honours it in its one writer.
 */
export interface Delivery {
  /** Wait this long before writing anything. */
  holdMs?: number;
  /** How the connection ends: `close` after the answer; `drop` closes it without answering; `reset` aborts it (a TCP reset where the adapter can send one). */
  end?: 'close' | 'drop' | 'reset';
  /** Write the head and only this many bytes of the body, then close the connection. */
  truncateAfter?: number;
  /** Pace the body at this many bytes per second (a stream: each item's bytes). */
  bytesPerSecond?: number;
  /** Write the body as these items over time instead (docs/streaming.md); `body` is not written. */
  stream?: ItemStream;
  /** A stream's hold, served again before every item after the first (set by deliver when it serves `holdMs`). */
  itemHoldMs?: number;
}

/**
 * A body written as items over time (a sequential media type: SSE, JSON Lines, json-seq,
 * multipart/mixed). The terminal makes one per answer; the items are made one at a time, when the
 * connection can take the next, so an open stream holds one item at most.
 */
export interface ItemStream {
  /** The next item, framed; undefined when the stream has ended. */
  next(): Uint8Array | undefined;
  /** Whether the last item has been made: the stream ends without waiting for another. */
  done(): boolean;
  /** What closes the stream after its last item (multipart's closing delimiter), if anything. */
  tail?: Uint8Array;
  /** Written during a long pause (an SSE comment), so that no proxy or load balancer in between ends the connection as idle. */
  heartbeat?: Uint8Array;
  /** Pause between items (the first is written with the head). */
  intervalMs: number;
  /** Told once, when the stream ends or the client leaves: how many items were written. */
  ended?(items: number): void;
}

/** What a server writes for one request. */
export interface Answer {
  status: number;
  headers: Array<[string, string]>;
  /** Text, or bytes as an upstream sent them. */
  body: string | Uint8Array;
  /** The catalogue entry it answers with (problem answers, refusals); each protocol's server writes its own form of it. */
  code?: ProblemCode;
  /** Why it failed, for the request log (problem answers set their detail). */
  error?: string;
  /** The catalogue code's detail (what X-Mock-Error-Detail says, uncut): the request log's reason for a refusal that is not a failure (`error` unset). */
  detail?: string;
  delivery?: Delivery;
  /** What chaos did to it, for the request log: the X-Mock-Fault value, the injected delay. */
  injected?: Injected;
  /** Which stage or terminal made it (common/answer-source.ts), for the request log, its filters and the metrics. */
  source: AnswerSource;
}

export interface Injected {
  fault?: string;
  latency_ms?: number;
}

/** `answer` delayed by `ms` more (delays of several stages add up). */
export function held(answer: Answer, ms: number): Answer {
  if (ms <= 0) return answer;
  return { ...answer, delivery: { ...answer.delivery, holdMs: (answer.delivery?.holdMs ?? 0) + ms } };
}

/** 204 and 304 answers carry no content (RFC 9110), whatever a mock or rule says; HEAD answers none either. */
export const withoutContent = (method: string, status: number): boolean => method === 'HEAD' || status === 204 || status === 304;

export const bodyLength = (body: string | Uint8Array): number => (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

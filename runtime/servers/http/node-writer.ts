import type http from 'node:http';
import { constants as h2, type Http2ServerResponse } from 'node:http2';
import { bodyLength, bytesOf, deliver, isReused, withoutContent, type Answer, type DeliveryWriter } from '../../chain/exchange/index.js';
import { failedAnswer, problemOf } from './failed-answer.js';
import { nodeHeaders } from './node-fields.js';

/**
 * Writes an answer on a node:http response as its delivery says (runtime/chain/exchange deliver()), then
 * calls `done` with what it wrote (also when it drops or resets the connection). `close`: the
 * connection cannot carry another request. Never throws: node:http refuses some header values by
 * throwing, and an exception here would end the process.
 */
export function writeNode(res: http.ServerResponse, method: string, answer: Answer, close: boolean, done: (written: Answer) => void, draining?: () => boolean): void {
  const unwritable = problemOf(answer);
  if (unwritable !== undefined) answer = failedAnswer(unwritable);
  try {
    // the hot path: no delivery to schedule
    const delivery = answer.delivery;
    if (delivery === undefined) {
      writeWhole(res, method, answer, close);
      done(answer);
    } else deliver(method, answer, delivery, close, nodeWriter(res, method, close, done, draining), done);
  } catch (e) {
    const failed = failedAnswer(e instanceof Error ? e.message : String(e));
    if (res.headersSent) res.socket?.destroy();
    else writeWhole(res, method, failed, true);
    done(failed);
  }
}

interface NodeHead {
  head: http.OutgoingHttpHeaders;
  wide: boolean;
  empty: boolean;
}

/** The heads of reused answers (a documented example) on a connection kept open, derived once: node:http does not change what writeHead is given. */
const heads = new WeakMap<Answer, NodeHead>();

/** The head as node:http takes it: `close` ends the connection after the answer; bodies say their length. */
function headOf(method: string, answer: Answer, close: boolean): NodeHead {
  const usual = !close && method !== 'HEAD';
  if (usual) {
    const kept = heads.get(answer);
    if (kept !== undefined) return kept;
  }
  const head = deriveHead(method, answer, close);
  if (usual && isReused(answer)) heads.set(answer, head);
  return head;
}

function deriveHead(method: string, answer: Answer, close: boolean): NodeHead {
  const { headers, wide } = nodeHeaders(answer.headers);
  if (close) headers.connection = 'close';
  const empty = withoutContent(method, answer.status);
  if (!empty) headers['content-length'] = String(bodyLength(answer.body));
  return { head: headers, wide, empty };
}

/**
 * A reset fails this request only: on HTTP/2 its stream (RST_STREAM INTERNAL_ERROR), since a TCP
 * reset would fail every request multiplexed on the connection and multiply chaos's rate; on
 * HTTP/1.1 the connection, which carries this request alone.
 */
function resetOf(res: http.ServerResponse): void {
  const { stream } = res as unknown as Partial<Http2ServerResponse>;
  if (stream !== undefined) stream.close(h2.NGHTTP2_INTERNAL_ERROR);
  else res.socket?.resetAndDestroy();
}

function writeWhole(res: http.ServerResponse, method: string, answer: Answer, close: boolean): void {
  const { head, wide, empty } = headOf(method, answer, close);
  if (empty) res.writeHead(answer.status, head).end();
  // a text body sent with the head makes node:http encode the head as UTF-8, bytes keep it Latin-1
  else res.writeHead(answer.status, head).end(wide ? bytesOf(answer.body) : answer.body);
}

function nodeWriter(res: http.ServerResponse, method: string, close: boolean, done: (written: Answer) => void, draining?: () => boolean): DeliveryWriter {
  let offset = 0;
  return {
    gone: () => res.destroyed,
    writeLater: (later) => writeNode(res, method, later, close, done, draining),
    draining,
    drop: () => res.socket?.destroy(),
    reset: () => resetOf(res),
    whole: (answer, closing) => writeWhole(res, method, answer, closing),
    truncated(answer, bytes, keep, closing) {
      res.writeHead(answer.status, headOf(method, answer, closing).head);
      res.write(bytes.subarray(0, keep), () => res.socket?.destroy());
    },
    open(answer, closing) {
      // no length: node:http chunks the body (HTTP/1.1) until end()
      const { headers } = nodeHeaders(answer.headers);
      if (closing) headers.connection = 'close';
      res.writeHead(answer.status, headers);
      // the head goes now, not with the first item: a client sees the stream open
      res.flushHeaders();
    },
    write(bytes, drained) {
      if (res.write(bytes)) return true;
      let once = false;
      const resume = (): void => {
        if (once) return;
        once = true;
        res.off('drain', resume);
        res.off('close', resume);
        drained();
      };
      res.on('drain', resume);
      res.on('close', resume);
      return false;
    },
    end() {
      res.end();
    },
    chunk(answer, bytes, step, closing, next) {
      if (offset === 0) res.writeHead(answer.status, headOf(method, answer, closing).head);
      const chunk = bytes.subarray(offset, offset + step);
      offset += chunk.byteLength;
      if (offset >= bytes.byteLength) {
        res.end(chunk);
        return true;
      }
      // the next chunk once this one is flushed and its time has come
      res.write(chunk, next);
      return false;
    },
  };
}

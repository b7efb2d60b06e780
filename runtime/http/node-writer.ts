import type http from 'node:http';
import { bodyLength, withoutContent, type Answer } from '../exchange/index.js';
import { failedAnswer, problemOf } from './failed-answer.js';
import { nodeHeaders } from './node-fields.js';

/** Chunks per second of a paced body: small quanta, so the first one ahead of time is a small error. */
const PACE_TICKS = 50;

const bytesOf = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? Buffer.from(body) : body);

/**
 * Writes an answer on a node:http response as its delivery says, then calls `done` with what it
 * wrote (also when it drops or resets the connection). `close`: the connection cannot carry
 * another request. Never throws: node:http refuses some header values by throwing, and an
 * exception here would end the process.
 */
export function writeNode(res: http.ServerResponse, method: string, answer: Answer, close: boolean, done: (written: Answer) => void): void {
  const unwritable = problemOf(answer);
  if (unwritable !== undefined) answer = failedAnswer(unwritable);
  try {
    deliver(res, method, answer, close, done);
  } catch (e) {
    const failed = failedAnswer(e instanceof Error ? e.message : String(e));
    if (res.headersSent) res.socket?.destroy();
    else deliver(res, method, failed, true, () => undefined);
    done(failed);
  }
}

function deliver(res: http.ServerResponse, method: string, answer: Answer, close: boolean, done: (written: Answer) => void): void {
  const delivery = answer.delivery;
  if (delivery?.holdMs !== undefined && delivery.holdMs > 0) {
    const later: Answer = { ...answer, delivery: { ...delivery, holdMs: 0 } };
    setTimeout(() => {
      // done also when the client left meanwhile: stages holding a place for the request (bulkhead) let it go
      if (res.destroyed) done(answer);
      else writeNode(res, method, later, close, done);
    }, delivery.holdMs);
    return;
  }
  if (delivery?.end === 'drop') {
    res.socket?.destroy();
    done(answer);
    return;
  }
  if (delivery?.end === 'reset') {
    res.socket?.resetAndDestroy();
    done(answer);
    return;
  }
  const { headers, wide } = nodeHeaders(answer.headers);
  if (close || delivery?.end === 'close') headers.connection = 'close';
  if (withoutContent(method, answer.status)) {
    res.writeHead(answer.status, headers).end();
    done(answer);
    return;
  }
  headers['content-length'] = bodyLength(answer.body);
  if (delivery?.truncateAfter !== undefined) {
    res.writeHead(answer.status, headers);
    res.write(bytesOf(answer.body).subarray(0, delivery.truncateAfter), () => res.socket?.destroy());
    done(answer);
    return;
  }
  if (delivery?.bytesPerSecond !== undefined) {
    res.writeHead(answer.status, headers);
    pace(res, bytesOf(answer.body), Math.max(1, Math.ceil(delivery.bytesPerSecond / PACE_TICKS)), () => done(answer));
    return;
  }
  // a text body sent with the head makes node:http encode the head as UTF-8, bytes keep it Latin-1
  res.writeHead(answer.status, headers).end(wide ? bytesOf(answer.body) : answer.body);
  done(answer);
}


function pace(res: http.ServerResponse, bytes: Uint8Array, step: number, done: () => void): void {
  let offset = 0;
  // ticks keep to a schedule from the start, so timer lateness does not add up
  const start = performance.now();
  let ticks = 0;
  const tick = (): void => {
    if (res.destroyed) {
      done();
      return;
    }
    const chunk = bytes.subarray(offset, offset + step);
    offset += chunk.byteLength;
    if (offset >= bytes.byteLength) {
      res.end(chunk);
      done();
      return;
    }
    // the next chunk once this one is flushed and its time has come
    res.write(chunk, () => setTimeout(tick, Math.max(0, start + ++ticks * (1000 / PACE_TICKS) - performance.now())));
  };
  tick();
}

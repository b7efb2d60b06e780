import { hasControl, isFieldName, withoutControls } from '../../common/http-fields.js';
import { withoutContent, type Answer } from '../exchange/index.js';
import { failedAnswer, problemOf } from './failed-answer.js';
import { statusLine } from './status-line.js';
import type { HttpResponse } from './uws.js';

export interface ResponseState {
  aborted: boolean;
}

/** Chunks per second of a paced body: small quanta, so the first one ahead of time is a small error. */
const PACE_TICKS = 50;

const bytesOf = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? Buffer.from(body) : body);

/**
 * Writes an answer on a uWS response as its delivery says, then calls `done` with what it wrote
 * (also when it drops the connection). Called inside a cork; anything written later corks itself.
 * `close`: the connection cannot carry another request (a refused body was not read).
 *
 * uWebSockets.js cannot send a TCP reset: `reset` closes the connection without an answer, as `drop`
 * does (serve picks node:http by default when chaos configures tcp_reset).
 */
export function writeUws(res: HttpResponse, state: ResponseState, method: string, answer: Answer, close: boolean, done: (written: Answer) => void): void {
  const unwritable = problemOf(answer);
  if (unwritable !== undefined) answer = failedAnswer(unwritable);
  try {
    deliver(res, state, method, answer, close, done);
  } catch (e) {
    // the head may be half in the cork buffer: the connection cannot be trusted with another answer
    res.close();
    done(failedAnswer(e instanceof Error ? e.message : String(e)));
  }
}

function deliver(res: HttpResponse, state: ResponseState, method: string, answer: Answer, close: boolean, done: (written: Answer) => void): void {
  const delivery = answer.delivery;
  if (delivery === undefined) {
    writeWhole(res, method, answer, close);
    done(answer);
    return;
  }
  if (delivery.holdMs !== undefined && delivery.holdMs > 0) {
    const later: Answer = { ...answer, delivery: { ...delivery, holdMs: 0 } };
    setTimeout(() => {
      // done also when the client left meanwhile: stages holding a place for the request (bulkhead) let it go
      if (state.aborted) done(answer);
      else res.cork(() => writeUws(res, state, method, later, close, done));
    }, delivery.holdMs);
    return;
  }
  if (delivery.end === 'drop' || delivery.end === 'reset') {
    res.close();
    done(answer);
    return;
  }
  const closing = close || delivery.end === 'close';
  if (withoutContent(method, answer.status) || (delivery.truncateAfter === undefined && delivery.bytesPerSecond === undefined)) {
    writeWhole(res, method, answer, closing);
    done(answer);
    return;
  }
  const bytes = bytesOf(answer.body);
  if (delivery.truncateAfter !== undefined) {
    writeHead(res, answer);
    res.tryEnd(bytes.subarray(0, delivery.truncateAfter), bytes.byteLength);
    // closing inside the cork would drop what it holds: close once it is flushed
    setImmediate(() => {
      if (!state.aborted) res.close();
    });
    done(answer);
    return;
  }
  pace(res, state, answer, bytes, Math.max(1, Math.ceil((delivery.bytesPerSecond as number) / PACE_TICKS)), () => done(answer));
}

/** The body in chunks, one per tick, each as much as uWS accepted of the last. */
function pace(res: HttpResponse, state: ResponseState, answer: Answer, bytes: Uint8Array, step: number, done: () => void): void {
  let offset = 0;
  let first = true;
  // ticks keep to a schedule from the start, so timer lateness does not add up
  const start = performance.now();
  let ticks = 0;
  const tick = (): void => {
    if (state.aborted) {
      done();
      return;
    }
    let finished = false;
    res.cork(() => {
      if (first) writeHead(res, answer);
      first = false;
      [, finished] = res.tryEnd(bytes.subarray(offset, offset + step), bytes.byteLength);
    });
    if (finished) {
      done();
      return;
    }
    offset = res.getWriteOffset();
    setTimeout(tick, Math.max(0, start + ++ticks * (1000 / PACE_TICKS) - performance.now()));
  };
  tick();
}

/**
 * Whatever produced them, header fields go out as RFC 9110 allows: a field with an invalid name is
 * left out and control characters (CR, LF, NUL …) are cut from values, so request data a template
 * put into a value cannot split the response. The check is a loop over short strings on the hot path.
 */
function writeHead(res: HttpResponse, answer: Answer): void {
  // uWS answers 200 OK unless told otherwise: one native call fewer on the commonest answer
  if (answer.status !== 200) res.writeStatus(statusLine(answer.status));
  const headers = answer.headers;
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i];
    if (!isFieldName(name)) continue;
    res.writeHeader(name, hasControl(value) ? withoutControls(value) : value);
  }
}

function writeWhole(res: HttpResponse, method: string, answer: Answer, close: boolean): void {
  writeHead(res, answer);
  // any argument to endWithoutBody aborts the process in this uWS build, so HEAD answers carry no length
  if (withoutContent(method, answer.status)) res.endWithoutBody();
  else res.end(answer.body, close);
}


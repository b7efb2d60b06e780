import { hasControl, isFieldName, withoutControls } from '../../../common/http-fields.js';
import { deliver, withoutContent, type Answer, type DeliveryWriter } from '../../chain/exchange/index.js';
import { failedAnswer, problemOf } from './failed-answer.js';
import { statusLine } from './status-line.js';
import type { HttpResponse } from '../uws/index.js';

export interface ResponseState {
  aborted: boolean;
  /** Told once the answer is written (or the request aborted): the request is no longer in flight. */
  settled?: () => void;
  /** Told when the client aborts: a stream waiting for the connection to drain goes on to see it gone. */
  onAbort?: () => void;
  /** The server is shutting down: streams end at their next item, and their connections after them. */
  draining?: () => boolean;
}

/**
 * Writes an answer on a uWS response as its delivery says (runtime/chain/exchange deliver()), then calls
 * `done` with what it wrote (also when it drops the connection). Called inside a cork; anything
 * written later corks itself. `close`: the connection cannot carry another request (a refused body
 * was not read).
 *
 * uWebSockets.js cannot send a TCP reset: `reset` closes the connection without an answer, as `drop`
 * does (serve picks node:http by default when chaos configures tcp_reset).
 */
export function writeUws(res: HttpResponse, state: ResponseState, method: string, answer: Answer, close: boolean, done: (written: Answer) => void): void {
  const unwritable = problemOf(answer);
  if (unwritable !== undefined) answer = failedAnswer(unwritable);
  try {
    // the hot path: no delivery to schedule
    const delivery = answer.delivery;
    if (delivery === undefined) {
      writeWhole(res, method, answer, close);
      done(answer);
    } else deliver(method, answer, delivery, close, uwsWriter(res, state, method, close, done), done);
  } catch (e) {
    // the head may be half in the cork buffer: the connection cannot be trusted with another answer
    res.close();
    done(failedAnswer(e instanceof Error ? e.message : String(e)));
  }
}

function uwsWriter(res: HttpResponse, state: ResponseState, method: string, close: boolean, done: (written: Answer) => void): DeliveryWriter {
  let offset = 0;
  let headWritten = false;
  let streamClose = false;
  return {
    gone: () => state.aborted,
    writeLater: (later) => res.cork(() => writeUws(res, state, method, later, close, done)),
    drop: () => res.close(),
    reset: () => res.close(),
    whole: (answer, close) => writeWhole(res, method, answer, close),
    truncated(answer, bytes, keep) {
      writeHead(res, answer);
      res.tryEnd(bytes.subarray(0, keep), bytes.byteLength);
      // closing inside the cork would drop what it holds: close once it is flushed
      setImmediate(() => {
        if (!state.aborted) res.close();
      });
    },
    open(answer, closing) {
      res.cork(() => writeHead(res, answer));
      // uWS says Connection: close itself when end() is told to close
      streamClose = closing;
    },
    write(bytes, drained) {
      let ok = true;
      res.cork(() => {
        ok = res.write(bytes);
      });
      if (ok) return true;
      // uWS keeps what it could not send; the next item waits until it is sent (or the client leaves)
      let once = false;
      const resume = (): boolean => {
        if (!once) {
          once = true;
          state.onAbort = undefined;
          drained();
        }
        return true;
      };
      state.onAbort = resume;
      res.onWritable(resume);
      return false;
    },
    end() {
      res.cork(() => res.end(undefined, streamClose));
    },
    draining: () => state.draining?.() === true,
    chunk(answer, bytes, step, _close, next) {
      let finished = false;
      res.cork(() => {
        if (!headWritten) writeHead(res, answer);
        headWritten = true;
        [, finished] = res.tryEnd(bytes.subarray(offset, offset + step), bytes.byteLength);
      });
      if (finished) return true;
      // as much as uWS accepted of the last chunk
      offset = res.getWriteOffset();
      next();
      return false;
    },
  };
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


import { hasControl, isFieldName, withoutControls } from '../../../common/http-fields.js';
import { readableAddress } from '../../chain/exchange/index.js';
import { statusLine } from './status-line.js';
import type { ControlHandler, ControlReply, ControlResponse, StreamSink } from '../../control/admin/index.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from '../uws/index.js';

const latin1 = new TextDecoder('latin1');

/** What a control handler's rejection becomes (handlers answer their own errors; this is the last resort). */
export function controlFailure(e: unknown): ControlReply {
  return { status: 500, headers: [['content-type', 'text/plain; charset=utf-8']], body: `control handler failed: ${e instanceof Error ? e.message : String(e)}` };
}

/**
 * Routes `pattern` of a uWS app to a control handler. Off the hot path: bodies are read whole
 * (up to `maxBodyBytes`) and the handler is asynchronous.
 */
export function mountControl(app: TemplatedApp, pattern: string, handler: ControlHandler, maxBodyBytes: number): void {
  app.any(pattern, (res: HttpResponse, req: HttpRequest) => {
    const state = { aborted: false, stop: undefined as (() => void) | undefined };
    res.onAborted(() => {
      state.aborted = true;
      state.stop?.();
    });
    const headers: Record<string, string> = {};
    req.forEach((key, value) => {
      headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
    });
    const base = {
      method: req.getCaseSensitiveMethod().toUpperCase(),
      path: req.getUrl(),
      query: req.getQuery() ?? '',
      headers,
      clientIp: readableAddress(latin1.decode(res.getRemoteAddressAsText())),
    };
    // handlers answer every request themselves (errors included), so their headers (CORS) are on every answer
    const run = (body: Buffer | undefined, oversized?: number): void => {
      handler({ ...base, body, oversized }).then(
        (response) => reply(res, state, response, oversized !== undefined),
        (e: unknown) => reply(res, state, controlFailure(e)),
      );
    };
    const length = headers['content-length'];
    if ((length === undefined || length === '0') && headers['transfer-encoding'] === undefined) {
      run(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    res.onData((chunk, isLast) => {
      if (refused || state.aborted) return;
      size += chunk.byteLength;
      if (size > maxBodyBytes) {
        refused = true;
        run(undefined, maxBodyBytes);
        return;
      }
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
      if (isLast) run(Buffer.concat(chunks));
    });
  });
}

/** `close`: the rest of a refused body is not read, so the connection cannot carry another request. */
function reply(res: HttpResponse, state: { aborted: boolean; stop?: () => void }, response: ControlResponse, close = false): void {
  if (state.aborted) return;
  if ('open' in response) {
    res.cork(() => {
      writeHead(res, response);
      // an empty write sends the head now, so clients see the stream open before the first event
      res.write('');
    });
    state.stop = response.open(uwsSink(res, state));
    return;
  }
  res.cork(() => {
    writeHead(res, response);
    res.end(response.body, close);
  });
}

/** Fields cleaned as the mock's writer cleans them (uws-writer.ts). */
function writeHead(res: HttpResponse, response: ControlResponse): void {
  res.writeStatus(statusLine(response.status));
  for (const [name, value] of response.headers) if (isFieldName(name)) res.writeHeader(name, hasControl(value) ? withoutControls(value) : value);
}

/**
 * uWS takes every write, holding what the socket does not (without bound), and tells only whether
 * it holds anything: `write` returns false when it does (a write that returns true got everything
 * held before it out, and leaves at most the 16 KiB cork buffer). So what it holds is at most the
 * sum of the writes since one last returned true.
 */
function uwsSink(res: HttpResponse, state: { aborted: boolean }): StreamSink {
  let held = 0;
  return {
    send(chunk) {
      if (state.aborted) return 0;
      let drained = true;
      res.cork(() => {
        drained = res.write(chunk);
      });
      const earlier = held;
      held = drained ? 0 : held + Buffer.byteLength(chunk);
      return drained ? 0 : earlier;
    },
    close() {
      if (!state.aborted) res.close();
    },
  };
}

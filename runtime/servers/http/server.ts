// the global `performance` is a getter, read on every call: the module binding is not
import { performance } from 'node:perf_hooks';
import { Exchange, type Answer, type ServerAdapter } from '../../chain/exchange/index.js';
import type { Dispatch } from '../../chain/index.js';
import { fieldKey } from '../../../common/http-fields.js';
import type { ControlHandler } from '../../control/admin/index.js';
import { mountControl } from './control.js';
import { framingProblem } from './framing.js';
import { keepsConnection, withKeepAliveHint } from './keep-alive-hint.js';
import { UwsListener, appOf, type HttpRequest, type HttpResponse, type TemplatedApp } from '../uws/index.js';
import { writeUws, type ResponseState } from './uws-writer.js';
import { UwsConnections } from './uws-connections.js';
import { InFlight } from './in-flight.js';
import type { SocketEndpoint } from './socket-endpoint.js';
import type { HostedSurface } from '../../hosting/index.js';
import { mountSocketUws } from './uws-socket.js';
import type { TlsOptions } from '../../serve-options.js';

export interface HttpAdapterOptions {
  dispatch: Dispatch;
  /** Answers `/__mock` and everything under it (the management router, or the embedded admin API). */
  control?: ControlHandler;
  /** One more path the control handler answers, with its `assets/` (the embedded web dashboard at admin.mount_path). */
  controlPage?: string;
  /** http.keepalive_hint: answers that keep their connection say so (node:http always does). */
  keepAliveHint?: boolean;
  /** A WebSocket endpoint served beside the HTTP answers (GraphQL subscriptions). */
  socket?: SocketEndpoint;
  /** Hosted mode: the tenants' control paths (the dispatch is wrapped already). */
  hosted?: HostedSurface;
  /** Serve https:// (and wss:// for the socket endpoint). */
  tls?: TlsOptions;
}

/** The uWebSockets.js adapter: the mock's hot path. */
export class UwsHttpAdapter implements ServerAdapter {
  readonly kind = 'HTTP';
  readonly library = 'uws';
  private readonly listener = new UwsListener();
  private readonly tracker = new UwsConnections();
  private readonly flight = new InFlight();
  private app: TemplatedApp | undefined;

  constructor(private readonly options: HttpAdapterOptions) {}

  listen(host: string, port: number, flag: string): Promise<void> {
    return this.listener.listen(() => (this.app = createHttpApp(this.options, this.tracker, this.flight)), host, port, flag);
  }

  async close(graceMs = 0): Promise<void> {
    this.listener.close();
    await this.flight.drain(graceMs);
    // idle keep-alive connections, and whatever the grace period did not see answered
    this.app?.close();
    this.app = undefined;
  }

  get listening(): boolean {
    return this.listener.listening;
  }

  get port(): number {
    return this.listener.port;
  }

  get address(): string {
    return this.listener.address;
  }

  get connections(): number {
    return this.tracker.open;
  }
}

/** Reads requests into exchanges and writes what the dispatch answers. */
export function createHttpApp(options: HttpAdapterOptions, connections = new UwsConnections(), flight = new InFlight()): TemplatedApp {
  const { dispatch } = options;
  const app = appOf(options.tls).filter(connections.onChange);

  if (options.control !== undefined) {
    const { maxBodyBytes } = dispatch;
    mountControl(app, '/__mock', options.control, maxBodyBytes);
    mountControl(app, '/__mock/*', options.control, maxBodyBytes);
    if (options.controlPage !== undefined) {
      mountControl(app, options.controlPage, options.control, maxBodyBytes);
      mountControl(app, `${options.controlPage}/`, options.control, maxBodyBytes);
      mountControl(app, `${options.controlPage}/assets/*`, options.control, maxBodyBytes);
    }
  }

  const hosted = options.hosted;
  if (hosted !== undefined) for (const pattern of hosted.patterns) mountControl(app, pattern, hosted.handler, dispatch.maxBodyBytes);

  if (options.socket !== undefined) mountSocketUws(app, options.socket);

  const hinted = options.keepAliveHint === true;
  /** Writes the answer (the response may not be touched after an abort), then records it; while the server drains, the connection closes after it. */
  const send = (res: HttpResponse, state: ResponseState, ex: Exchange, answer: Answer, refused = false): void => {
    const close = refused || flight.draining;
    const shown = hinted && !close && keepsConnection(ex, answer) ? withKeepAliveHint(answer) : answer;
    writeUws(res, state, ex.method, shown, close, (written) => {
      dispatch.written(ex, written);
      state.settled?.();
    });
  };
  const sendLater = (res: HttpResponse, state: ResponseState, ex: Exchange, pending: Promise<Answer>): void => {
    pending.then((answer) => {
      if (!state.aborted) res.cork(() => send(res, state, ex, answer));
    });
  };

  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const startedAt = performance.now();
    // read now: the request object is only valid during this call
    const client = connections.clientOf(res);
    const method = req.getCaseSensitiveMethod().toUpperCase();
    const path = req.getUrl();
    const rawQuery = req.getQuery() ?? '';
    const headers: Record<string, string> = {};
    req.forEach((name, value) => {
      const key = fieldKey(name);
      headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
    });
    const length = headers['content-length'];
    const noBody = (length === undefined || length === '0') && headers['transfer-encoding'] === undefined;
    if (noBody) {
      const ex = new Exchange({ method, path, rawQuery, headers, client, startedAt });
      const result = dispatch.answer(ex);
      // hot path: a synchronous answer written whole, no abort handler needed
      if (!(result instanceof Promise) && result.delivery === undefined) {
        send(res, NEVER_ABORTED, ex, result);
        return;
      }
      const state = watchAbort(res, flight);
      if (result instanceof Promise) sendLater(res, state, ex, result);
      else send(res, state, ex, result);
      return;
    }
    const state = watchAbort(res, flight);
    const framing = framingProblem(length, headers['transfer-encoding']);
    if (framing !== undefined) {
      const ex = new Exchange({ method, path, rawQuery, headers, client, startedAt });
      const refused = dispatch.badFraming(ex, framing);
      // Answered on the next turn: uWS would parse bytes pipelined behind this request as another
      // request even after an answer that closes the connection, but drops the connection when they
      // arrive while an answer is pending. Either way they never reach the mock.
      setImmediate(() => {
        if (state.aborted) dispatch.written(ex, refused);
        else res.cork(() => send(res, state, ex, refused, true));
      });
      return;
    }
    if (length !== undefined && Number(length) > dispatch.maxBodyBytes) {
      const ex = new Exchange({ method, path, rawQuery, headers, client, startedAt });
      send(res, state, ex, dispatch.tooLarge(ex), true);
      return;
    }
    readBody(res, state, dispatch.maxBodyBytes, (body) => {
      const ex = new Exchange({ method, path, rawQuery, headers, body, client, startedAt });
      if (body === undefined) {
        send(res, state, ex, dispatch.tooLarge(ex), true);
        return;
      }
      const result = dispatch.answer(ex);
      if (result instanceof Promise) sendLater(res, state, ex, result);
      else send(res, state, ex, result);
    });
  });
  return app;
}

/** A synchronous answer is written before the client could abort. */
const NEVER_ABORTED: ResponseState = Object.freeze({ aborted: false });

/** The state of a request answered later than its turn: counted in flight until answered or aborted. */
function watchAbort(res: HttpResponse, flight: InFlight): ResponseState {
  const state: ResponseState & { settled: () => void } = { aborted: false, settled: flight.begin(), draining: () => flight.draining };
  res.onAborted(() => {
    state.aborted = true;
    state.settled();
    state.onAbort?.();
  });
  return state;
}

/** Collects the body; calls back with undefined when it exceeds the limit. Nothing is written after an abort. */
function readBody(res: HttpResponse, state: ResponseState, limit: number, done: (body: Buffer | undefined) => void): void {
  let finished = false;
  const chunks: Buffer[] = [];
  let size = 0;
  res.onData((chunk, isLast) => {
    if (finished || state.aborted) return;
    size += chunk.byteLength;
    if (size > limit) {
      finished = true;
      res.cork(() => done(undefined));
      return;
    }
    // uWS reuses the chunk's memory after the callback returns: copy it, into Node's buffer pool
    // (every byte overwritten) rather than a fresh ArrayBuffer, which costs ten times as much
    const copy = Buffer.allocUnsafe(chunk.byteLength);
    copy.set(new Uint8Array(chunk));
    chunks.push(copy);
    if (isLast) {
      finished = true;
      res.cork(() => done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    }
  });
}

import { Exchange, problem, readableAddress, type Answer, type ServerAdapter } from '../../chain/exchange/index.js';
import type { WsPeer } from '../../terminal/websocket/index.js';
import { handshakeRefusal, refusedPlainUpgrade, statusLine } from '../http/index.js';
import { UwsListener, appOf, uws, type HttpResponse, type TemplatedApp, type us_socket_context_t, type WebSocket } from '../uws/index.js';
import { chosenProtocol } from './handshake.js';
import { admits, libraryMessageLimit, type WsConnection, type WsService } from './ws-service.js';

/** What uWS keeps per connection. */
interface UserData {
  ex: Exchange;
  /** The chain's answer that admitted the upgrade. */
  admitted: Answer;
  connection?: WsConnection;
  peer?: UwsPeer;
}

type UwsSocket = WebSocket<UserData>;

/** The connection as a session sees it; uWS objects may not be touched after their close. */
class UwsPeer implements WsPeer {
  closed = false;
  private waiters: Array<{ bytes: number; callback: () => void }> = [];

  constructor(private readonly ws: UwsSocket) {}

  send(message: string | Uint8Array): void {
    if (!this.closed) this.ws.send(message, typeof message !== 'string');
  }

  sendFrame(data: Uint8Array, binary: boolean): void {
    if (!this.closed) this.ws.send(data, binary);
  }

  get buffered(): number {
    return this.closed ? 0 : this.ws.getBufferedAmount();
  }

  close(code: number, reason: string): void {
    if (!this.closed) this.ws.end(code, reason);
  }

  terminate(): void {
    if (!this.closed) this.ws.close();
  }

  ping(): void {
    if (!this.closed) this.ws.ping();
  }

  whenDrained(bytes: number, callback: () => void): void {
    this.waiters.push({ bytes, callback });
  }

  drained(): void {
    const buffered = this.buffered;
    const ready = this.waiters.filter((w) => buffered < w.bytes);
    this.waiters = this.waiters.filter((w) => buffered >= w.bytes);
    for (const waiter of ready) waiter.callback();
  }
}

/** The WebSocket server on uWebSockets.js: the library's own frame parser, limits and back-pressure accounting. */
export class UwsWebSocketAdapter implements ServerAdapter {
  readonly kind = 'WebSocket';
  readonly library = 'uws';
  private readonly listener = new UwsListener();
  private readonly open = new Set<UwsSocket>();

  constructor(private readonly service: WsService) {}

  listen(host: string, port: number, flag: string): Promise<void> {
    return this.listener.listen(() => this.app(), host, port, flag);
  }

  async close(): Promise<void> {
    this.listener.close();
    for (const ws of [...this.open]) ws.end(1001, 'mock: the server is shutting down');
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
    return this.service.connections;
  }

  private app(): TemplatedApp {
    const { service } = this;
    const { settings } = service;
    const open = this.open;
    const app = appOf(settings.tls);
    app.ws<UserData>('/*', {
      maxPayloadLength: libraryMessageLimit(settings.maxMessageBytes),
      // the service sends the pings and drops dead peers (websocket.heartbeat_interval): uWS's own
      // idle timeout counts in steps of 4 s
      idleTimeout: 0,
      sendPingsAutomatically: false,
      // sessions stop sending above maxBufferedBytes; uWS must never drop what they sent before
      maxBackpressure: settings.maxBufferedBytes + settings.maxMessageBytes + 16 * 1024 * 1024,
      closeOnBackpressureLimit: false,
      upgrade: (res, req, context) => {
        const headers: Record<string, string> = {};
        req.forEach((key, value) => {
          headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
        });
        const method = req.getCaseSensitiveMethod().toUpperCase();
        const path = req.getUrl();
        const refusal = handshakeRefusal(method, path, headers);
        if (refusal !== undefined) return writeAnswer(res, refusal);
        const ex = new Exchange({ method, path, rawQuery: req.getQuery() ?? '', headers, client: readableAddress(Buffer.from(res.getRemoteAddressAsText()).toString()) });
        const answer = service.admit(ex);
        // hot path: admitted at once, upgraded before the handler returns
        if (!(answer instanceof Promise) && admits(answer)) return upgrade(res, ex, answer, context);
        // uWS needs an abort handler before the response outlives this call
        const state = { aborted: false };
        res.onAborted(() => {
          state.aborted = true;
        });
        const answered = (a: Answer): void => {
          if (!admits(a)) return refuse(res, state, a, () => service.refused(ex, a));
          if (state.aborted) return service.abandoned(ex, a);
          res.cork(() => upgrade(res, ex, a, context));
        };
        if (answer instanceof Promise) void answer.then(answered);
        else answered(answer);
      },
      open: (ws) => {
        const data = ws.getUserData();
        const peer = new UwsPeer(ws);
        data.peer = peer;
        open.add(ws);
        data.connection = service.open(peer, data.ex, data.admitted);
      },
      // the ArrayBuffer is uWS's and reused after the callback: the session copies what it keeps
      message: (ws, message, isBinary) => ws.getUserData().connection?.received(new Uint8Array(message), isBinary),
      drain: (ws) => ws.getUserData().peer?.drained(),
      pong: (ws) => ws.getUserData().connection?.pong(),
      close: (ws, code, message) => {
        open.delete(ws);
        const data = ws.getUserData();
        if (data.peer !== undefined) data.peer.closed = true;
        data.connection?.closed(code, Buffer.from(message).toString('utf8'));
      },
    });
    app.any('/*', (res, req) => {
      const method = req.getCaseSensitiveMethod().toUpperCase();
      const path = req.getUrl();
      writeAnswer(res, refusedPlainUpgrade(method, path, (name) => req.getHeader(name)) ?? problem('MOCK_ERR_WS_UPGRADE_REQUIRED', { method, path }, { headers: [['upgrade', 'websocket']] }));
    });
    return app;
  }
}

/** Completes the handshake of an upgrade the chain admitted. */
function upgrade(res: HttpResponse, ex: Exchange, admitted: Answer, context: us_socket_context_t): void {
  const { headers } = ex;
  const data: UserData = { ex, admitted };
  res.upgrade(data, headers['sec-websocket-key'] ?? '', chosenProtocol(headers['sec-websocket-protocol']), headers['sec-websocket-extensions'] ?? '', context);
}

/** Writes a refusal as its delivery asks (held, or the connection closed without an answer: uWS cannot send a reset), then `written`. */
function refuse(res: HttpResponse, state: { aborted: boolean }, answer: Answer, written: () => void): void {
  const write = (): void => {
    if (!state.aborted) {
      const end = answer.delivery?.end;
      if (end === 'drop' || end === 'reset') res.close();
      else writeAnswer(res, answer);
    }
    written();
  };
  const hold = answer.delivery?.holdMs ?? 0;
  if (hold > 0) setTimeout(write, hold);
  else write();
}

function writeAnswer(res: HttpResponse, answer: Answer): void {
  res.cork(() => {
    res.writeStatus(statusLine(answer.status));
    for (const [name, value] of answer.headers) res.writeHeader(name, value);
    res.end(answer.body, true);
  });
}

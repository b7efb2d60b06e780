import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Socket } from 'node:net';
import { Exchange, hostPort, problem, readableAddress, type Answer, type ServerAdapter } from '../../chain/exchange/index.js';
import type { WsPeer } from '../../terminal/websocket/index.js';
import { closeNode, createNodeServer, handshakeRefusal, listenNode, rawHttpAnswer } from '../http/index.js';
import { chosenProtocol } from './handshake.js';
import { closeOfError } from './protocol-error.js';
import { admits, libraryMessageLimit, type WsService } from './ws-service.js';

/** How often a session waiting for a slow reader looks again (`ws` has no drain event of its own). */
const DRAIN_POLL_MS = 5;
/**
 * How long a close waits for the client's close frame before the connection is dropped: `ws`
 * waits 30 s, uWS reports the close at once; a client that reads nothing would hold the session.
 */
const CLOSE_GRACE_MS = 2000;

class NodePeer implements WsPeer {
  constructor(private readonly ws: WebSocket) {}

  send(message: string | Uint8Array): void {
    this.ws.send(message, { binary: typeof message !== 'string' });
  }

  sendFrame(data: Uint8Array, binary: boolean): void {
    this.ws.send(data, { binary });
  }

  get buffered(): number {
    return this.ws.bufferedAmount;
  }

  close(code: number, reason: string): void {
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  terminate(): void {
    this.ws.terminate();
  }

  ping(): void {
    this.ws.ping();
  }

  whenDrained(bytes: number, callback: () => void): void {
    const check = (): void => {
      if (this.ws.readyState !== this.ws.OPEN) return;
      if (this.ws.bufferedAmount < bytes) callback();
      else setTimeout(check, DRAIN_POLL_MS);
    };
    setTimeout(check, DRAIN_POLL_MS);
  }
}

/**
 * The WebSocket server on node:http and the `ws` package (the most used WebSocket library for
 * Node, RFC 6455 with its Autobahn suite), where uWebSockets.js has no build for the running Node.
 */
export class NodeWebSocketAdapter implements ServerAdapter {
  readonly kind = 'WebSocket';
  readonly library = 'node';
  private readonly server: http.Server;
  private readonly wss: WebSocketServer;
  private host = '';
  private boundPort = 0;
  private bound = false;

  constructor(private readonly service: WsService) {
    const { settings } = service;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: libraryMessageLimit(settings.maxMessageBytes), perMessageDeflate: false, handleProtocols: (offered) => chosenProtocol([...offered].join(',')) || false });
    this.server = createNodeServer(settings.tls, (req, res) => {
      const answer = problem('MOCK_ERR_WS_UPGRADE_REQUIRED', { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0] }, { headers: [['upgrade', 'websocket']] });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
    this.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  async listen(host: string, port: number, flag: string): Promise<void> {
    this.boundPort = await listenNode(this.server, host, port, flag);
    this.host = host;
    this.bound = true;
  }

  async close(): Promise<void> {
    if (!this.bound) return;
    this.bound = false;
    for (const ws of this.wss.clients) ws.close(1001, 'mock: the server is shutting down');
    this.wss.close();
    await closeNode(this.server);
  }

  get listening(): boolean {
    return this.bound;
  }

  get port(): number {
    return this.boundPort;
  }

  get address(): string {
    return hostPort(this.host, this.boundPort);
  }

  get connections(): number {
    return this.service.connections;
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const refusal = handshakeRefusal(method, path, headers);
    if (refusal !== undefined) {
      socket.end(rawHttpAnswer(refusal));
      return;
    }
    const ex = new Exchange({ method, path, rawQuery: q === -1 ? '' : url.slice(q + 1), headers, client: readableAddress(req.socket.remoteAddress ?? '') });
    const answer = this.service.admit(ex);
    if (answer instanceof Promise) void answer.then((a) => this.answered(req, socket, head, ex, a));
    else this.answered(req, socket, head, ex, answer);
  }

  private answered(req: http.IncomingMessage, socket: Duplex, head: Buffer, ex: Exchange, answer: Answer): void {
    if (!admits(answer)) {
      refuse(socket, answer, () => this.service.refused(ex, answer));
      return;
    }
    // the client left while a stage held the upgrade (a bulkhead's queue)
    if (socket.destroyed) {
      this.service.abandoned(ex, answer);
      return;
    }
    let opened = false;
    socket.once('close', () => opened || this.service.abandoned(ex, answer));
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      opened = true;
      const connection = this.service.open(new NodePeer(ws), ex, answer);
      // `ws` fails a connection that breaks the protocol with a close frame of its own, then reports the close as 1006 without a reason
      let failure: { code: number; reason: string } | undefined;
      ws.on('message', (data: Buffer, isBinary: boolean) => connection.received(data, isBinary));
      ws.on('pong', () => connection.pong());
      ws.on('close', (code: number, reason: Buffer) => (failure !== undefined && code === 1006 ? connection.closed(failure.code, failure.reason) : connection.closed(code, reason.toString('utf8'))));
      ws.on('error', (e: Error) => {
        failure ??= closeOfError(e);
      });
    });
  }
}

/** Writes a refusal on the socket the upgrade came on, as its delivery asks (held, dropped, reset), then `written`. */
function refuse(socket: Duplex, answer: Answer, written: () => void): void {
  const write = (): void => {
    const end = answer.delivery?.end;
    if (end === 'reset') (socket as Socket).resetAndDestroy();
    else if (end === 'drop') socket.destroy();
    else socket.end(rawHttpAnswer(answer));
    written();
  };
  const hold = answer.delivery?.holdMs ?? 0;
  if (hold > 0) setTimeout(write, hold);
  else write();
}

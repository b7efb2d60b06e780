import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { hostPort, problem, type ServerAdapter } from '../../chain/exchange/index.js';
import type { WsPeer } from '../../terminal/websocket/index.js';
import { closeNode, listenNode, rawHttpAnswer } from '../http/index.js';
import { chosenProtocol, handshakeOf, handshakeRefusal } from './handshake.js';
import { libraryMessageLimit, type WsService } from './ws-service.js';

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
    this.server = http.createServer((req, res) => {
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
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const refusal = handshakeRefusal(req.method ?? 'GET', q === -1 ? url : url.slice(0, q), headers);
    if (refusal !== undefined) {
      socket.end(rawHttpAnswer(refusal));
      return;
    }
    const handshake = handshakeOf(q === -1 ? url : url.slice(0, q), q === -1 ? '' : url.slice(q + 1), headers, req.socket.remoteAddress ?? '');
    const admission = this.service.admit(handshake);
    if (!admission.accept) {
      if ('drop' in admission) socket.destroy();
      else socket.end(rawHttpAnswer(admission.answer));
      return;
    }
    let opened = false;
    // a handshake the library refuses (a bad key or version) never opens
    socket.once('close', () => opened || this.service.abandoned());
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      opened = true;
      const connection = this.service.open(new NodePeer(ws), handshake);
      ws.on('message', (data: Buffer, isBinary: boolean) => connection.received(data, isBinary));
      ws.on('pong', () => connection.pong());
      ws.on('close', (code: number, reason: Buffer) => connection.closed(code, reason.toString('utf8')));
      ws.on('error', () => undefined);
    });
  }
}

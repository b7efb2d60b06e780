import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { hostPort, isReused, type Answer, type ServerAdapter } from '../../chain/exchange/index.js';
import { answerClientError } from './client-error.js';
import { InFlight } from './in-flight.js';
import { clientAddress, listenNode, nodeRequestListener, type NodeFlavor } from './node-server.js';
import { mountSocketNode } from './node-socket.js';
import { tlsServerOptions } from './node-tls.js';
import { writeNode } from './node-writer.js';
import type { HttpAdapterOptions } from './server.js';

/** What an HTTP/2 client sends first (RFC 9113 3.4): a connection that starts with it speaks h2c by prior knowledge. */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

/** Fields of HTTP/1.1's connection that HTTP/2 forbids (RFC 9113 8.2.2); node:http2 throws on them. */
const CONNECTION_FIELDS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

const cleaned = new WeakMap<Answer, Answer>();

/** An answer without the fields HTTP/2 forbids; a reused one (a documented example) is cleaned once. */
function forH2(answer: Answer): Answer {
  const { headers } = answer;
  let forbidden = false;
  for (let i = 0; i < headers.length && !forbidden; i++) forbidden = CONNECTION_FIELDS.has(headers[i][0].toLowerCase());
  if (!forbidden) return answer;
  const kept = cleaned.get(answer);
  if (kept !== undefined) return kept;
  const clean = { ...answer, headers: headers.filter(([name]) => !CONNECTION_FIELDS.has(name.toLowerCase())) };
  if (isReused(answer)) cleaned.set(answer, clean);
  return clean;
}

/** A stream's end is its own: an answer that would close an HTTP/1.1 connection ends only its stream. */
const writeH2: typeof writeNode = (res, method, answer, _close, done, draining) => writeNode(res, method, forH2(answer), false, done, draining);

/**
 * The HTTP/2 adapter (server.http_version 2, docs/http2.md), through node:http2's compatibility
 * API and the node:http adapter's request listener: on a TLS port, h2 and HTTP/1.1 as ALPN
 * chooses; on a plain port, h2c by prior knowledge and HTTP/1.1, told apart by a connection's
 * first bytes (HTTP/2's preface). HTTP/2 answers never carry HTTP/1.1's connection fields, and an answer that would
 * close a connection ends its stream only.
 */
export class Http2Adapter implements ServerAdapter {
  readonly kind = 'HTTP';
  readonly library = 'node:http2';
  /** What listens: the TLS server itself, or the plain port's connection sorter. */
  private readonly front: net.Server;
  private readonly flight = new InFlight();
  private host = '';
  private boundPort = 0;
  private open = false;
  private readonly sockets = new Set<Duplex>();

  constructor(options: HttpAdapterOptions) {
    const h1 = nodeRequestListener(options, this.flight, { write: writeNode, client: (req) => clientAddress(req.socket), h2: false });
    if (options.tls !== undefined) {
      const h2 = nodeRequestListener(options, this.flight, { write: writeH2, client: (req) => clientAddress(req.socket), h2: true });
      const server = http2.createSecureServer({ ...tlsServerOptions(options.tls), allowHTTP1: true }, (req, res) => {
        if (req.httpVersionMajor === 2) h2(req as unknown as http.IncomingMessage, res as unknown as http.ServerResponse);
        else h1(req as unknown as http.IncomingMessage, res as unknown as http.ServerResponse);
      });
      server.on('secureConnection', (socket: Duplex) => this.track(socket));
      this.front = server;
      return;
    }
    const plain = http.createServer(h1);
    if (options.socket !== undefined) mountSocketNode(plain, options.socket);
    plain.on('clientError', answerClientError);
    const flavor: NodeFlavor = { write: writeH2, client: (req) => clientAddress(req.socket), h2: true };
    const h2c = http2.createServer({}, nodeRequestListener(options, this.flight, flavor) as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void);
    this.front = net.createServer({ noDelay: true }, (socket) => {
      this.track(socket);
      socket.once('data', (first: Buffer) => this.hand(socket, first, plain, h2c));
    });
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /**
   * The bytes read are given back to the socket, which both servers read first: node:http from the
   * stream once resumed, node:http2's session from what the socket holds before it takes the
   * socket's handle over (so the socket stays paused for it).
   */
  private hand(socket: net.Socket, first: Buffer, h1: http.Server, h2c: http2.Http2Server): void {
    socket.pause();
    socket.unshift(first);
    const n = Math.min(first.length, PREFACE.length);
    if (first.subarray(0, n).equals(PREFACE.subarray(0, n))) {
      h2c.emit('connection', socket);
      return;
    }
    h1.emit('connection', socket);
    socket.resume();
  }

  async listen(host: string, port: number, flag: string): Promise<void> {
    this.boundPort = await listenNode(this.front, host, port, flag);
    this.host = host;
    this.open = true;
  }

  async close(graceMs = 0): Promise<void> {
    if (!this.open) return;
    this.open = false;
    const closed = new Promise<void>((resolve) => this.front.close(() => resolve()));
    await this.flight.drain(graceMs);
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  get listening(): boolean {
    return this.open;
  }

  get port(): number {
    return this.boundPort;
  }

  get address(): string {
    return hostPort(this.host, this.boundPort);
  }

  get connections(): number {
    return this.sockets.size;
  }
}

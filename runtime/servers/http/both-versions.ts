import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { TlsOptions } from '../../serve-options.js';
import { tlsServerOptions } from './node-tls.js';

/** What an HTTP/2 client sends first (RFC 9113 3.4): a connection that starts with it speaks h2c by prior knowledge. */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

/** Fields of HTTP/1.1's connection that HTTP/2 forbids (RFC 9113 8.2.2); node:http2 throws on them. */
export const CONNECTION_FIELDS: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** A request listener of node's compatibility API, for either version (req.httpVersionMajor tells them apart). */
export type BothListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * One port serving HTTP/2 and HTTP/1.1 through node:http2: on TLS, as ALPN chooses
 * (allowHTTP1); on a plain port, h2c by prior knowledge and HTTP/1.1 (and 1.0), told apart by a
 * connection's first bytes. Those bytes go back into the socket, which both servers read first:
 * node:http from the stream once resumed, node:http2's session from what the socket holds before
 * it takes the socket's handle over (so the socket stays paused for it). Sockets take no Nagle
 * delay (small answers would wait for delayed ACKs).
 */
export class BothVersions {
  /** What listens: the TLS server itself, or the plain port's connection sorter. */
  readonly front: net.Server;
  private readonly sockets = new Set<Duplex>();
  private readonly sessions = new Set<http2.Http2Session>();
  private one: http.Server | undefined;

  /**
   * `http1`: the server that emits HTTP/1.1's events besides requests (upgrades, parse errors):
   * a plain port's node:http server, or the TLS server itself, on which node's HTTP/1.1 fallback emits them.
   */
  constructor(tls: TlsOptions | undefined, h1: BothListener, h2: BothListener, http1?: (server: http.Server) => void) {
    if (tls !== undefined) {
      const server = http2.createSecureServer({ ...tlsServerOptions(tls), allowHTTP1: true }, (req, res) => {
        if (req.httpVersionMajor === 2) h2(req as unknown as http.IncomingMessage, res as unknown as http.ServerResponse);
        else h1(req as unknown as http.IncomingMessage, res as unknown as http.ServerResponse);
      });
      server.on('secureConnection', (socket: Duplex) => this.track(socket));
      server.on('session', (session) => this.hold(session));
      http1?.(server as unknown as http.Server);
      this.front = server;
      return;
    }
    const one = (this.one = http.createServer(h1));
    http1?.(one);
    const two = http2.createServer({}, h2 as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void);
    two.on('session', (session) => this.hold(session));
    this.front = net.createServer({ noDelay: true }, (socket) => {
      this.track(socket);
      socket.once('data', (first: Buffer) => {
        socket.pause();
        socket.unshift(first);
        const n = Math.min(first.length, PREFACE.length);
        if (first.subarray(0, n).equals(PREFACE.subarray(0, n))) {
          two.emit('connection', socket);
          return;
        }
        one.emit('connection', socket);
        socket.resume();
      });
    });
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private hold(session: http2.Http2Session): void {
    this.sessions.add(session);
    session.once('close', () => this.sessions.delete(session));
  }

  get connections(): number {
    return this.sockets.size;
  }

  /**
   * Stops accepting, asks every connection to end once what it carries is answered (HTTP/2's
   * GOAWAY, HTTP/1.1's idle connections closed) and, past `graceMs`, ends the rest.
   */
  async close(graceMs = 0): Promise<void> {
    const closed = new Promise<void>((resolve) => this.front.close(() => resolve()));
    for (const session of this.sessions) session.close();
    for (let waited = 0; this.sockets.size > 0 && waited < graceMs; waited += 20) {
      this.one?.closeIdleConnections();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

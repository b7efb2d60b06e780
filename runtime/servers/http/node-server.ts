// the global `performance` is a getter, read on every call: the module binding is not
import { performance } from 'node:perf_hooks';
import http from 'node:http';
import type net from 'node:net';
import type { Socket } from 'node:net';
import { MockError } from '../../../common/errors.js';
import { fieldKey } from '../../../common/http-fields.js';
import { Exchange, hostPort, type Answer, type ServerAdapter } from '../../chain/exchange/index.js';
import { answerClientError } from './client-error.js';
import type { ControlHandler, ControlResponse } from '../../control/admin/index.js';
import { controlFailure } from './control.js';
import { nodeHeaders } from './node-fields.js';
import { mountSocketNode } from './node-socket.js';
import { writeNode } from './node-writer.js';
import type { HttpAdapterOptions } from './server.js';
import { InFlight } from './in-flight.js';
import { clientCertificateOf, createNodeServer } from './node-tls.js';

/**
 * The node:http adapter (server.http_backend: node): the same dispatch as the uWS adapter, at
 * node:http's speed, for clients uWebSockets.js does not serve (HTTP/1.0).
 */
export class NodeHttpAdapter implements ServerAdapter {
  readonly kind = 'HTTP';
  readonly library = 'node';
  private readonly server: http.Server;
  private host = '';
  private boundPort = 0;
  private open = false;
  private sockets = 0;
  private readonly flight = new InFlight();

  constructor(options: HttpAdapterOptions) {
    this.server = createNodeHttpServer(options, this.flight);
    if (options.socket !== undefined) mountSocketNode(this.server, options.socket);
    this.server.on('clientError', answerClientError);
    this.server.on('connection', (socket) => {
      this.sockets++;
      socket.once('close', () => this.sockets--);
    });
  }

  async listen(host: string, port: number, flag: string): Promise<void> {
    this.boundPort = await listenNode(this.server, host, port, flag);
    this.host = host;
    this.open = true;
  }

  async close(graceMs = 0): Promise<void> {
    if (!this.open) return;
    this.open = false;
    // stops accepting and ends idle connections; answers written from now on close theirs
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.flight.drain(graceMs);
    this.server.closeAllConnections();
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
    return this.sockets;
  }
}

function createNodeHttpServer(options: HttpAdapterOptions, flight: InFlight): http.Server {
  return createNodeServer(options.tls, nodeRequestListener(options, flight, HTTP1));
}

/** How a request listener reads and answers a protocol's requests: HTTP/1.x, or HTTP/2 through node's compatibility API (http2-server.ts). */
export interface NodeFlavor {
  write: typeof writeNode;
  /** The client's address. */
  client(req: http.IncomingMessage): string;
  /** HTTP/2 has no Connection field: a control answer never asks to close. */
  h2: boolean;
}

/**
 * Whether a request comes without a body: HTTP/1.1 says so with its framing fields; an HTTP/2
 * request may send DATA without content-length, and has none only when its HEADERS ended the stream.
 */
function bodyless(req: http.IncomingMessage, headers: Record<string, string>, h2: boolean): boolean {
  if (h2) return (req as unknown as { stream: { endAfterHeaders: boolean } }).stream.endAfterHeaders;
  const length = headers['content-length'];
  return (length === undefined || length === '0') && headers['transfer-encoding'] === undefined;
}

export const HTTP1: NodeFlavor = { write: writeNode, client: (req) => clientAddress(req.socket), h2: false };

/** The mock's requests (and the control surfaces') as a node:http request listener. */
export function nodeRequestListener(options: HttpAdapterOptions, flight: InFlight, flavor: NodeFlavor): http.RequestListener {
  const { dispatch, control, controlPage } = options;
  const { write } = flavor;
  const isControl = (path: string): boolean =>
    path === '/__mock' || path.startsWith('/__mock/') || (controlPage !== undefined && (path === controlPage || path === `${controlPage}/` || path.startsWith(`${controlPage}/assets/`)));

  const onControl = control === undefined ? undefined : controlListener(control, dispatch.maxBodyBytes, flavor);
  const hosted = options.hosted;
  const onHosted = hosted === undefined ? undefined : controlListener(hosted.handler, dispatch.maxBodyBytes, flavor);
  const asksCertificates = options.tls !== undefined && options.tls.clientAuth !== 'none';
  return (req, res) => {
    const startedAt = performance.now();
    const { method, path, query, headers } = requestHead(req);
    if (onControl !== undefined && isControl(path)) {
      onControl(req, res);
      return;
    }
    if (onHosted !== undefined && hosted?.isControl(path) === true) {
      onHosted(req, res);
      return;
    }
    const client = flavor.client(req);
    const clientCertificate = clientCertificateOf(req.socket, asksCertificates);
    if (bodyless(req, headers, flavor.h2)) {
      // no body to read: node:http drops the (empty) request stream itself once the answer is written
      const ex = new Exchange({ method, path, rawQuery: query, headers, client, clientCertificate, startedAt });
      const result = dispatch.answer(ex);
      // hot path: a synchronous answer written whole within this turn is never in flight when a close runs
      if (!(result instanceof Promise) && result.delivery === undefined) {
        if (!res.destroyed) write(res, method, result, flight.draining, (written) => dispatch.written(ex, written));
        return;
      }
      // answered or not, a request is over once its response closes
      res.once('close', flight.begin());
      if (result instanceof Promise) result.then((answer) => sendNode(res, ex, answer, false, flight, dispatch, write));
      else sendNode(res, ex, result, false, flight, dispatch, write);
      return;
    }
    res.once('close', flight.begin());
    readBody(req, headers, flavor.h2, dispatch.maxBodyBytes, (body, oversized) => {
      const ex = new Exchange({ method, path, rawQuery: query, headers, body, client, clientCertificate, startedAt });
      if (oversized) {
        sendNode(res, ex, dispatch.tooLarge(ex), true, flight, dispatch, write);
        return;
      }
      const result = dispatch.answer(ex);
      if (result instanceof Promise) result.then((answer) => sendNode(res, ex, answer, false, flight, dispatch, write));
      else sendNode(res, ex, result, false, flight, dispatch, write);
    });
  };
}

/** Writes an answer made later than its turn (unless the client left), then records it; `close`: the connection cannot carry another request. */
function sendNode(res: http.ServerResponse, ex: Exchange, answer: Answer, close: boolean, flight: InFlight, dispatch: HttpAdapterOptions['dispatch'], write: typeof writeNode): void {
  if (!res.destroyed) write(res, ex.method, answer, close || flight.draining, (written) => dispatch.written(ex, written), () => flight.draining);
}

/** Reads a request whole and lets the control handler answer it. */
export function controlListener(handler: ControlHandler, maxBodyBytes: number, flavor: NodeFlavor): http.RequestListener {
  return (req, res) => {
    const head = requestHead(req);
    readBody(req, head.headers, flavor.h2, maxBodyBytes, (body, oversized) => {
      const close = oversized && !flavor.h2;
      handler({ ...head, body, oversized: oversized ? maxBodyBytes : undefined, clientIp: flavor.client(req) }).then(
        (response) => writeControl(res, response, close),
        (e: unknown) => writeControl(res, controlFailure(e), close),
      );
    });
  };
}

/** Method (upper case), path and raw query, headers with lower-case names (repeats joined by `, `, as uWS gives them). */
function requestHead(req: http.IncomingMessage): { method: string; path: string; query: string; headers: Record<string, string> } {
  const target = originForm(req.url ?? '/');
  const q = target.indexOf('?');
  const headers: Record<string, string> = {};
  let authority: string | undefined;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = fieldKey(req.rawHeaders[i]);
    // HTTP/2's pseudo-header fields (:method, :path …) are the request line's; :authority is Host
    if (name.charCodeAt(0) === 58) {
      if (name === ':authority') headers.host ??= authority = req.rawHeaders[i + 1];
      continue;
    }
    // a Host field repeating :authority is the same Host; one that differs joins it, and the access policy refuses both names at once
    if (name === 'host' && req.rawHeaders[i + 1] === authority) continue;
    headers[name] = headers[name] === undefined ? req.rawHeaders[i + 1] : `${headers[name]}, ${req.rawHeaders[i + 1]}`;
  }
  // llhttp reads only the methods it knows, upper case
  return { method: req.method ?? 'GET', path: q === -1 ? target : target.slice(0, q), query: q === -1 ? '' : target.slice(q + 1), headers };
}

/** An absolute-form target (`http://host/path?q`, which servers must accept: RFC 9112 3.2.2) as its path and query. */
function originForm(target: string): string {
  if (target.startsWith('/') || !/^https?:\/\//i.test(target)) return target;
  const url = URL.parse(target);
  return url === null ? target : `${url.pathname}${url.search}`;
}

/** Each connection's client address, worked out on its first request rather than on every one. */
const addresses = new WeakMap<Socket, string>();

/** Dual-stack sockets report IPv4 clients as ::ffff:a.b.c.d. */
export function clientAddress(socket: Socket): string {
  let address = addresses.get(socket);
  if (address === undefined) {
    address = (socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/, '');
    addresses.set(socket, address);
  }
  return address;
}

/**
 * Calls back with the body (undefined when there is none) or, past the limit, with `oversized` (the
 * rest is not read). `headers`: the request's, as requestHead read them (req.headers would read them again).
 */
function readBody(req: http.IncomingMessage, headers: Record<string, string>, h2: boolean, limit: number, done: (body: Buffer | undefined, oversized: boolean) => void): void {
  const length = headers['content-length'];
  if (bodyless(req, headers, h2)) {
    req.resume();
    done(undefined, false);
    return;
  }
  if (length !== undefined && Number(length) > limit) {
    refuse(req, () => done(undefined, true));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      finished = true;
      refuse(req, () => done(undefined, true));
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (finished) return;
    finished = true;
    done(size === 0 ? undefined : Buffer.concat(chunks), false);
  });
}

/**
 * The rest of a refused body is read and dropped before the 413 goes out: closing with unread data
 * in the socket makes the kernel reset the connection, and the client would lose the answer.
 */
function refuse(req: http.IncomingMessage, then: () => void): void {
  req.removeAllListeners('data');
  req.removeAllListeners('end');
  req.once('end', then);
  req.once('error', then);
  req.resume();
}

/** Never throws: it runs in a promise's callback, where a throw would end the process. */
function writeControl(res: http.ServerResponse, response: ControlResponse, close: boolean): void {
  if (res.destroyed) return;
  try {
    writeControlResponse(res, response, close);
  } catch (e) {
    if (res.headersSent) res.destroy();
    else writeControlResponse(res, controlFailure(e), true);
  }
}

function writeControlResponse(res: http.ServerResponse, response: ControlResponse, close: boolean): void {
  const { headers, wide } = nodeHeaders(response.headers);
  if (close) headers.connection = 'close';
  if (!('open' in response)) {
    headers['content-length'] = Buffer.byteLength(response.body);
    res.writeHead(response.status, headers).end(wide ? Buffer.from(response.body) : response.body);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const stop = response.open({
    send(chunk) {
      if (res.destroyed) return 0;
      // what the response and its socket still hold of earlier writes, not yet handed to the kernel
      const earlier = res.writableLength;
      res.write(chunk);
      return earlier;
    },
    close: () => res.destroy(),
  });
  res.on('close', stop);
}

/** Binds a node:http server; a refused bind is one line naming the port and the flag. */
export function listenNode(server: net.Server, host: string, port: number, flagHint: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      if (e.code === 'EADDRINUSE') {
        reject(new MockError('MOCK_ERR_PORT_IN_USE', `port ${port} on ${host} is already in use (stop the other process or choose another port with ${flagHint})`));
      } else reject(new MockError('MOCK_ERR_LISTEN', `cannot listen on ${host}:${port} (${e.code ?? e.message}); check the address or choose another port with ${flagHint}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as { port: number }).port);
    });
  });
}

/**
 * Stops listening and ends open connections (idle keep-alive ones would hold the process). With a
 * grace period, requests being answered finish first: node:http keeps a connection alive past its
 * answer even while closing, so idle ones are ended as they become idle, until the grace ends.
 */
export async function closeNode(server: http.Server, graceMs = 0): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  if (graceMs > 0) {
    const idle = setInterval(() => server.closeIdleConnections(), 20);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise((resolve) => (grace = setTimeout(resolve, graceMs)))]);
    clearTimeout(grace);
    clearInterval(idle);
  }
  server.closeAllConnections();
  await closed;
}

import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { WireRequest } from './request-model.js';
import { framingOf, ItemSplitter } from '../../common/sequence-items.js';

export interface Answer {
  status: number;
  contentType: string;
  body: string;
  durationMs: number;
  /** A streamed answer (a sequential media type): its first items as read (at most STREAM_ITEMS), and when the first one was complete. */
  stream?: { items: string[]; firstItemMs: number | null };
}

/** A streamed answer is read for this many items, then the connection is closed: a stream may never end. */
export const STREAM_ITEMS = 5;

export interface Failure {
  /** `send`: the request could not be written (e.g. a header value Node refuses); `network`: connection or timeout. */
  failure: 'send' | 'network';
  error: string;
  durationMs: number;
}

/** Response bodies are kept up to this size (enough to validate any realistic JSON answer). */
const MAX_BODY = 8 * 1024 * 1024;

/** Fields of HTTP/1.1 connections that HTTP/2 forbids (RFC 9113 section 8.2.2); Host becomes :authority. */
const CONNECTION_FIELDS = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** How one request is sent and its answer read, once the transport has written it. */
interface Exchange {
  started: number;
  finish(result: Answer | Failure): void;
}

/**
 * A keep-alive client for one target, with raw control over method, headers and body (GET with a
 * body included). `http2`: the requests go over one HTTP/2 connection (h2c by prior knowledge on
 * http://, h2 by ALPN on https://) instead of HTTP/1.1.
 */
export class HttpClient {
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  private session: http2.ClientHttp2Session | undefined;

  constructor(
    target: string,
    private readonly timeoutMs: number,
    sockets: number,
    private readonly http2Wanted = false,
  ) {
    this.base = new URL(target);
    const secure = this.base.protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true, maxSockets: sockets }) : new http.Agent({ keepAlive: true, maxSockets: sockets });
    this.request = secure ? https.request : http.request;
  }

  /** The URL a request path is sent to (the target's own path is a prefix). */
  url(path: string): string {
    return `${this.base.origin}${this.prefix()}${path}`;
  }

  send(req: WireRequest): Promise<Answer | Failure> {
    return new Promise((resolve) => {
      let done = false;
      const exchange: Exchange = {
        started: performance.now(),
        finish: (result) => {
          if (done) return;
          done = true;
          resolve(result);
        },
      };
      if (this.http2Wanted) this.sendHttp2(req, exchange);
      else this.sendHttp1(req, exchange);
    });
  }

  close(): void {
    this.agent.destroy();
    this.session?.close();
  }

  private prefix(): string {
    return this.base.pathname.replace(/\/+$/, '');
  }

  private sendHttp1(req: WireRequest, exchange: Exchange): void {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    let outgoing: http.ClientRequest;
    try {
      outgoing = this.request({
        protocol: this.base.protocol,
        hostname: this.base.hostname.replace(/^\[|\]$/g, ''),
        port: this.base.port || undefined,
        method: req.method,
        path: `${this.prefix()}${req.path}`,
        headers,
        agent: this.agent,
      });
    } catch (e) {
      exchange.finish({ failure: 'send', error: (e as Error).message, durationMs: elapsed(exchange) });
      return;
    }
    outgoing.setTimeout(this.timeoutMs, () => outgoing.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
    outgoing.on('error', (e) => exchange.finish({ failure: 'network', error: e.message, durationMs: elapsed(exchange) }));
    outgoing.on('response', (res) => readAnswer(res.statusCode ?? 0, String(res.headers['content-type'] ?? ''), res, exchange));
    outgoing.end(req.body);
  }

  private sendHttp2(req: WireRequest, exchange: Exchange): void {
    const headers: http2.OutgoingHttpHeaders = { ':method': req.method, ':path': `${this.prefix()}${req.path}` };
    for (const [name, value] of Object.entries(req.headers)) {
      const lower = name.toLowerCase();
      if (lower === 'host') headers[':authority'] = value;
      else if (!CONNECTION_FIELDS.has(lower)) headers[lower] = value;
    }
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    let stream: http2.ClientHttp2Stream;
    try {
      stream = this.connected().request(headers, { endStream: req.body === undefined });
    } catch (e) {
      exchange.finish({ failure: 'send', error: (e as Error).message, durationMs: elapsed(exchange) });
      return;
    }
    stream.setTimeout(this.timeoutMs, () => stream.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
    stream.on('error', (e) => exchange.finish({ failure: 'network', error: e.message, durationMs: elapsed(exchange) }));
    stream.on('response', (h) => readAnswer(Number(h[':status'] ?? 0), String(h['content-type'] ?? ''), stream, exchange));
    if (req.body !== undefined) stream.end(req.body);
  }

  /** The HTTP/2 connection, opened again when the server closed the last one (GOAWAY, a reset). */
  private connected(): http2.ClientHttp2Session {
    if (this.session === undefined || this.session.closed || this.session.destroyed) {
      const session = http2.connect(this.base.origin);
      // a failed connection is each pending stream's error, reported per probe
      session.on('error', () => undefined);
      this.session = session;
    }
    return this.session;
  }
}

function elapsed(exchange: Exchange): number {
  return Math.round((performance.now() - exchange.started) * 10) / 10;
}

/** Reads an answer's body (a streamed one until STREAM_ITEMS items: it may never end). */
function readAnswer(status: number, contentType: string, body: Readable, exchange: Exchange): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const framing = framingOf(contentType);
  const splitter = framing === undefined ? undefined : new ItemSplitter(framing, contentType);
  const items: string[] = [];
  let firstItemMs: number | null = null;
  const answer = (): Answer => ({
    status,
    contentType,
    body: Buffer.concat(chunks).toString('utf8'),
    durationMs: elapsed(exchange),
    ...(splitter === undefined ? {} : { stream: { items: items.slice(0, STREAM_ITEMS), firstItemMs } }),
  });
  body.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
    if (splitter === undefined) return;
    items.push(...splitter.push(chunk.toString('utf8')));
    if (items.length > 0) firstItemMs ??= elapsed(exchange);
    if (items.length >= STREAM_ITEMS) {
      // enough items to judge the stream; it may go on for ever
      exchange.finish(answer());
      body.destroy();
    }
  });
  body.on('error', (e) => exchange.finish({ failure: 'network', error: e.message, durationMs: elapsed(exchange) }));
  body.on('end', () => {
    if (splitter !== undefined) items.push(...splitter.end());
    if (items.length > 0) firstItemMs ??= elapsed(exchange);
    exchange.finish(answer());
  });
}

export const isFailure = (r: Answer | Failure): r is Failure => 'failure' in r;

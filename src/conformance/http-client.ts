import http from 'node:http';
import https from 'node:https';
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

/** A keep-alive client for one target, with raw control over method, headers and body (GET with a body included). */
export class HttpClient {
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;

  constructor(
    target: string,
    private readonly timeoutMs: number,
    sockets: number,
  ) {
    this.base = new URL(target);
    const secure = this.base.protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true, maxSockets: sockets }) : new http.Agent({ keepAlive: true, maxSockets: sockets });
    this.request = secure ? https.request : http.request;
  }

  /** The URL a request path is sent to (the target's own path is a prefix). */
  url(path: string): string {
    const prefix = this.base.pathname.replace(/\/+$/, '');
    return `${this.base.origin}${prefix}${path}`;
  }

  send(req: WireRequest): Promise<Answer | Failure> {
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    return new Promise((resolve) => {
      let done = false;
      const finish = (result: Answer | Failure) => {
        if (done) return;
        done = true;
        resolve(result);
      };
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
      let outgoing: http.ClientRequest;
      try {
        const prefix = this.base.pathname.replace(/\/+$/, '');
        outgoing = this.request({
          protocol: this.base.protocol,
          hostname: this.base.hostname.replace(/^\[|\]$/g, ''),
          port: this.base.port || undefined,
          method: req.method,
          path: `${prefix}${req.path}`,
          headers,
          agent: this.agent,
        });
      } catch (e) {
        finish({ failure: 'send', error: (e as Error).message, durationMs: elapsed() });
        return;
      }
      outgoing.setTimeout(this.timeoutMs, () => outgoing.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      outgoing.on('error', (e) => finish({ failure: 'network', error: e.message, durationMs: elapsed() }));
      outgoing.on('response', (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        const chunks: Buffer[] = [];
        let size = 0;
        const framing = framingOf(contentType);
        const splitter = framing === undefined ? undefined : new ItemSplitter(framing, contentType);
        const items: string[] = [];
        let firstItemMs: number | null = null;
        const answer = (): Answer => ({
          status: res.statusCode ?? 0,
          contentType,
          body: Buffer.concat(chunks).toString('utf8'),
          durationMs: elapsed(),
          ...(splitter === undefined ? {} : { stream: { items: items.slice(0, STREAM_ITEMS), firstItemMs } }),
        });
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY) chunks.push(chunk);
          if (splitter === undefined) return;
          items.push(...splitter.push(chunk.toString('utf8')));
          if (items.length > 0) firstItemMs ??= elapsed();
          if (items.length >= STREAM_ITEMS) {
            // enough items to judge the stream; it may go on for ever
            finish(answer());
            res.destroy();
          }
        });
        res.on('error', (e) => finish({ failure: 'network', error: e.message, durationMs: elapsed() }));
        res.on('end', () => {
          if (splitter !== undefined) items.push(...splitter.end());
          if (items.length > 0) firstItemMs ??= elapsed();
          finish(answer());
        });
      });
      outgoing.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export const isFailure = (r: Answer | Failure): r is Failure => 'failure' in r;

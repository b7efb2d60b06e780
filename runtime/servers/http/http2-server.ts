import http from 'node:http';
import { hostPort, isReused, type Answer, type ServerAdapter } from '../../chain/exchange/index.js';
import { answerClientError } from './client-error.js';
import { InFlight } from './in-flight.js';
import { clientAddress, listenNode, nodeRequestListener } from './node-server.js';
import { mountSocketNode } from './node-socket.js';
import { BothVersions, CONNECTION_FIELDS } from './both-versions.js';
import { writeNode } from './node-writer.js';
import type { HttpAdapterOptions } from './server.js';

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
  private readonly both: BothVersions;
  private readonly flight = new InFlight();
  private host = '';
  private boundPort = 0;
  private open = false;

  constructor(options: HttpAdapterOptions) {
    const client = (req: http.IncomingMessage): string => clientAddress(req.socket);
    const h1 = nodeRequestListener(options, this.flight, { write: writeNode, client, h2: false });
    const h2 = nodeRequestListener(options, this.flight, { write: writeH2, client, h2: true });
    this.both = new BothVersions(options.tls, h1, h2, (http1) => {
      if (options.socket !== undefined) mountSocketNode(http1, options.socket);
      http1.on('clientError', answerClientError);
    });
  }

  async listen(host: string, port: number, flag: string): Promise<void> {
    this.boundPort = await listenNode(this.both.front, host, port, flag);
    this.host = host;
    this.open = true;
  }

  async close(graceMs = 0): Promise<void> {
    if (!this.open) return;
    this.open = false;
    // answers written while draining close their connection (the flight's), as the connections end (the port's)
    await Promise.all([this.flight.drain(graceMs), this.both.close(graceMs)]);
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
    return this.both.connections;
  }
}

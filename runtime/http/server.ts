import type { Logger } from 'pino';
import type { Engine, MockRequest, MockResponse } from '../engine/index.js';
import { problem } from '../engine/problem.js';
import type { RequestLog } from '../logging/index.js';
import { statusLine } from './status-line.js';
import { uWS, type HttpRequest, type HttpResponse, type TemplatedApp } from './uws.js';

export interface HttpServerOptions {
  engine: Engine;
  maxBodyBytes: number;
  logger: Logger;
  /** Every answered request is recorded here (ring buffer, subscribers, info log line). */
  requestLog?: RequestLog;
}

/** A response, and why the server failed or refused when it did (the request log's error_message). */
type Answer = MockResponse & { error?: string };

/** The uWebSockets.js adapter: reads a request into a MockRequest, writes the engine's MockResponse. */
export function createHttpApp(options: HttpServerOptions): TemplatedApp {
  const { engine, maxBodyBytes, logger, requestLog } = options;
  const app = uWS.App();

  const answer = (request: MockRequest): Answer => {
    try {
      return engine.handle(request);
    } catch (e) {
      logger.error({ err: e, method: request.method, url: request.url }, 'request failed');
      const failed: Answer = problem(500, 'Internal Server Error', 'the mock server failed to answer this request; see its log');
      failed.error = e instanceof Error ? e.message : String(e);
      return failed;
    }
  };

  /** Writes the response, then records it (the response object must not be touched after end). */
  const respond = (res: HttpResponse, method: string, url: string, headers: Record<string, string>, startedAt: number, address: ArrayBuffer, response: Answer, close = false): void => {
    write(res, method, response, close);
    if (requestLog === undefined) return;
    const size = method === 'HEAD' ? 0 : Buffer.byteLength(response.body);
    requestLog.record(method, url, response.status, startedAt, address, headers, size, response.error ?? null);
  };

  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const startedAt = performance.now();
    // read now: the response object may not be used once answered or aborted
    const address = res.getRemoteAddressAsText();
    const method = req.getCaseSensitiveMethod().toUpperCase();
    const url = req.getUrl();
    const query = req.getQuery() ?? '';
    const headers: Record<string, string> = {};
    req.forEach((key, value) => {
      headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
    });
    const length = headers['content-length'];
    if ((length === undefined || length === '0') && headers['transfer-encoding'] === undefined) {
      respond(res, method, url, headers, startedAt, address, answer({ method, url, query, headers }));
      return;
    }
    if (length !== undefined && Number(length) > maxBodyBytes) {
      respond(res, method, url, headers, startedAt, address, tooLarge(maxBodyBytes), true);
      return;
    }
    readBody(res, maxBodyBytes, (body) => {
      if (body === undefined) respond(res, method, url, headers, startedAt, address, tooLarge(maxBodyBytes), true);
      else respond(res, method, url, headers, startedAt, address, answer({ method, url, query, headers, body }));
    });
  });
  return app;
}

/** Collects the body; calls back with undefined when it exceeds the limit. Nothing is written after an abort. */
function readBody(res: HttpResponse, limit: number, done: (body: Buffer | undefined) => void): void {
  let finished = false;
  const chunks: Buffer[] = [];
  let size = 0;
  res.onAborted(() => {
    finished = true;
  });
  res.onData((chunk, isLast) => {
    if (finished) return;
    size += chunk.byteLength;
    if (size > limit) {
      finished = true;
      res.cork(() => done(undefined));
      return;
    }
    // uWS reuses the chunk's memory after the callback returns: copy it
    chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
    if (isLast) {
      finished = true;
      res.cork(() => done(Buffer.concat(chunks)));
    }
  });
}

function write(res: HttpResponse, method: string, response: MockResponse, close = false): void {
  res.writeStatus(statusLine(response.status));
  const headers = response.headers;
  for (let i = 0; i < headers.length; i++) res.writeHeader(headers[i][0], headers[i][1]);
  // any argument to endWithoutBody aborts the process in this uWS build, so HEAD answers carry no length
  if (method === 'HEAD') res.endWithoutBody();
  else res.end(response.body, close);
}

const tooLarge = (limit: number): Answer => {
  const message = `request body exceeds ${limit} bytes (raise http.max_body_bytes in mock.yaml)`;
  return { ...problem(413, 'Payload Too Large', message), error: message };
};

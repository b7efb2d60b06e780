import type { Logger } from 'pino';
import type { Engine, MockRequest } from '../engine/index.js';
import { problem } from '../engine/problem.js';
import { answerLive, type Answer, type LiveAnswer, type LiveState, type RouteLike } from '../live/index.js';
import type { RequestLog } from '../logging/index.js';
import { mountControl, type ControlHandler } from './control.js';
import { statusLine } from './status-line.js';
import { uWS, type HttpRequest, type HttpResponse, type TemplatedApp } from './uws.js';

/** Counts answered requests (runtime/metrics TrafficStats). */
export interface TrafficRecorder {
  record(route: RouteLike | null, method: string, status: number, durationMs: number): void;
}

export interface HttpServerOptions {
  /** Read on every request, so a restart can swap it. */
  engine: () => Engine;
  maxBodyBytes: number;
  logger: Logger;
  /** Every answered request is recorded here (ring buffer, subscribers, info log line). */
  requestLog?: RequestLog;
  /** Runtime mocks, overrides, latency, faults and the proxy; the fast path serves while it is idle. */
  live?: LiveState;
  stats?: TrafficRecorder;
  /** Answers `/__mock` and everything under it (the management router, or the embedded admin API). */
  control?: ControlHandler;
  /** One more path the control handler answers (the embedded admin page at admin.mount_path). */
  controlPage?: string;
}

/** The uWebSockets.js adapter: reads a request into a MockRequest, writes the engine's MockResponse. */
export function createHttpApp(options: HttpServerOptions): TemplatedApp {
  const { maxBodyBytes, logger, requestLog, live, stats } = options;
  const app = uWS.App();

  const failed = (request: MockRequest, e: unknown): LiveAnswer => {
    logger.error({ err: e, method: request.method, url: request.url }, 'request failed');
    const answer: Answer = problem(500, 'Internal Server Error', 'the mock server failed to answer this request; see its log');
    answer.error = e instanceof Error ? e.message : String(e);
    return { answer, route: null };
  };

  /** Hot path: answers from the engine while no runtime setting is on. */
  const answer = (request: MockRequest): Answer => {
    try {
      return options.engine().handle(request);
    } catch (e) {
      return failed(request, e).answer;
    }
  };

  const answerSlow = (request: MockRequest): Promise<LiveAnswer> => {
    try {
      return Promise.resolve(answerLive(live as LiveState, options.engine(), request)).catch((e: unknown) => failed(request, e));
    } catch (e) {
      return Promise.resolve(failed(request, e));
    }
  };

  /** Writes the response, then records it (the response object must not be touched after end). */
  const respond = (
    res: HttpResponse,
    method: string,
    url: string,
    headers: Record<string, string>,
    startedAt: number,
    address: ArrayBuffer,
    response: Answer,
    route: RouteLike | null,
    close = false,
  ): void => {
    write(res, method, response, close);
    if (stats !== undefined) stats.record(route, method, response.status, performance.now() - startedAt);
    if (requestLog === undefined) return;
    const size = method === 'HEAD' || response.status === 204 || response.status === 304 ? 0 : response.raw !== undefined ? response.raw.byteLength : Buffer.byteLength(response.body);
    requestLog.record(method, url, response.status, startedAt, address, headers, size, response.error ?? null);
  };

  /** Answers through the live chain; the response may only be written if the client is still there. */
  const respondLater = (res: HttpResponse, state: { aborted: boolean }, request: MockRequest, startedAt: number, address: ArrayBuffer): void => {
    answerSlow(request).then(({ answer: response, route }) => {
      if (state.aborted) return;
      res.cork(() => respond(res, request.method, request.url, request.headers, startedAt, address, response, route));
    });
  };

  if (options.control !== undefined) {
    mountControl(app, '/__mock', options.control, maxBodyBytes);
    mountControl(app, '/__mock/*', options.control, maxBodyBytes);
    if (options.controlPage !== undefined) {
      mountControl(app, options.controlPage, options.control, maxBodyBytes);
      mountControl(app, `${options.controlPage}/`, options.control, maxBodyBytes);
    }
  }

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
    const noBody = (length === undefined || length === '0') && headers['transfer-encoding'] === undefined;
    if (noBody && (live === undefined || live.idle)) {
      const response = answer({ method, url, query, headers });
      respond(res, method, url, headers, startedAt, address, response, options.engine().matched);
      return;
    }
    const state = { aborted: false };
    res.onAborted(() => {
      state.aborted = true;
    });
    if (noBody) {
      respondLater(res, state, { method, url, query, headers }, startedAt, address);
      return;
    }
    if (length !== undefined && Number(length) > maxBodyBytes) {
      respond(res, method, url, headers, startedAt, address, tooLarge(maxBodyBytes), null, true);
      return;
    }
    readBody(res, state, maxBodyBytes, (body) => {
      if (body === undefined) respond(res, method, url, headers, startedAt, address, tooLarge(maxBodyBytes), null, true);
      else if (live === undefined || live.idle) {
        const response = answer({ method, url, query, headers, body });
        respond(res, method, url, headers, startedAt, address, response, options.engine().matched);
      } else respondLater(res, state, { method, url, query, headers, body }, startedAt, address);
    });
  });
  return app;
}

/** Collects the body; calls back with undefined when it exceeds the limit. Nothing is written after an abort. */
function readBody(res: HttpResponse, state: { aborted: boolean }, limit: number, done: (body: Buffer | undefined) => void): void {
  let finished = false;
  const chunks: Buffer[] = [];
  let size = 0;
  res.onData((chunk, isLast) => {
    if (finished || state.aborted) return;
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

function write(res: HttpResponse, method: string, response: Answer, close = false): void {
  res.writeStatus(statusLine(response.status));
  const headers = response.headers;
  for (let i = 0; i < headers.length; i++) res.writeHeader(headers[i][0], headers[i][1]);
  // any argument to endWithoutBody aborts the process in this uWS build, so HEAD answers carry no
  // length; 204 and 304 answers carry no content at all (RFC 9110), whatever a mock or rule says
  if (method === 'HEAD' || response.status === 204 || response.status === 304) res.endWithoutBody();
  else res.end(response.raw ?? response.body, close);
}

const tooLarge = (limit: number): Answer => {
  const message = `request body exceeds ${limit} bytes (raise http.max_body_bytes in mock.yaml)`;
  return { ...problem(413, 'Payload Too Large', message), error: message };
};

import type { MockRequest } from '../engine/index.js';
import type { Answer, RouteLike } from '../live/index.js';
import { createAnswering, withoutContent, type HttpServerOptions } from './answering.js';
import { mountControl } from './control.js';
import { statusLine } from './status-line.js';
import { uWS, type HttpRequest, type HttpResponse, type TemplatedApp } from './uws.js';

/** The uWebSockets.js adapter: reads a request into a MockRequest, writes the engine's MockResponse. */
export function createHttpApp(options: HttpServerOptions): TemplatedApp {
  const { maxBodyBytes } = options;
  const answering = createAnswering(options);
  const app = uWS.App();

  /** Writes the response, then records it (the response object must not be touched after end). */
  const respond = (res: HttpResponse, request: MockRequest, startedAt: number, address: ArrayBuffer, response: Answer, route: RouteLike | null, close = false): void => {
    write(res, request.method, response, close);
    answering.record(request, startedAt, address, response, route);
  };

  /** Answers through the live chain; the response may only be written if the client is still there. */
  const respondLater = (res: HttpResponse, state: { aborted: boolean }, request: MockRequest, startedAt: number, address: ArrayBuffer): void => {
    answering.answerLater(request).then(({ answer: response, route }) => {
      if (state.aborted) return;
      res.cork(() => respond(res, request, startedAt, address, response, route));
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
    if (noBody && answering.idle()) {
      const request = { method, url, query, headers };
      respond(res, request, startedAt, address, answering.answer(request), answering.matched());
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
      respond(res, { method, url, query, headers }, startedAt, address, answering.tooLarge(), null, true);
      return;
    }
    readBody(res, state, maxBodyBytes, (body) => {
      const request = { method, url, query, headers, body };
      if (body === undefined) respond(res, request, startedAt, address, answering.tooLarge(), null, true);
      else if (answering.idle()) respond(res, request, startedAt, address, answering.answer(request), answering.matched());
      else respondLater(res, state, request, startedAt, address);
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
  // any argument to endWithoutBody aborts the process in this uWS build, so HEAD answers carry no length
  if (withoutContent(method, response.status)) res.endWithoutBody();
  else res.end(response.raw ?? response.body, close);
}

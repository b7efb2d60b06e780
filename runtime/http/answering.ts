import type { Logger } from 'pino';
import type { Engine, MockRequest } from '../engine/index.js';
import { problem } from '../engine/problem.js';
import { answerLive, type Answer, type LiveAnswer, type LiveState, type RouteLike } from '../live/index.js';
import type { RequestLog } from '../logging/index.js';
import type { ControlHandler } from './control.js';

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

/** What both server adapters (uWebSockets.js, node:http) do with a request once they have read it. */
export interface Answering {
  /** True while the synchronous engine path serves. */
  idle(): boolean;
  /** Hot path; `matched()` right afterwards names the route. */
  answer(request: MockRequest): Answer;
  matched(): RouteLike | null;
  /** Through the live chain (runtime mocks, faults, proxy, overrides, latency). */
  answerLater(request: MockRequest): Promise<LiveAnswer>;
  /** After the response is written: statistics and the request log. `address` is uWS's raw text or a string. */
  record(request: MockRequest, startedAt: number, address: ArrayBuffer | string, response: Answer, route: RouteLike | null): void;
  tooLarge(): Answer;
}

/** 204 and 304 answers carry no content (RFC 9110), whatever a mock or rule says; HEAD answers none either. */
export const withoutContent = (method: string, status: number): boolean => method === 'HEAD' || status === 204 || status === 304;

export function createAnswering(options: HttpServerOptions): Answering {
  const { maxBodyBytes, logger, requestLog, live, stats } = options;
  const failed = (request: MockRequest, e: unknown): LiveAnswer => {
    logger.error({ err: e, method: request.method, url: request.url }, 'request failed');
    return { answer: { ...problem('MOCK_ERR_INTERNAL', {}), error: e instanceof Error ? e.message : String(e) }, route: null };
  };
  const tooLarge = (): Answer => problem('MOCK_ERR_PAYLOAD_TOO_LARGE', { limit: maxBodyBytes });
  return {
    idle: () => live === undefined || live.idle,
    answer(request) {
      try {
        return options.engine().handle(request);
      } catch (e) {
        return failed(request, e).answer;
      }
    },
    matched: () => options.engine().matched,
    answerLater(request) {
      try {
        return Promise.resolve(answerLive(live as LiveState, options.engine(), request)).catch((e: unknown) => failed(request, e));
      } catch (e) {
        return Promise.resolve(failed(request, e));
      }
    },
    record(request, startedAt, address, response, route) {
      const { method } = request;
      if (stats !== undefined) stats.record(route, method, response.status, performance.now() - startedAt);
      if (requestLog === undefined) return;
      const size = withoutContent(method, response.status) ? 0 : response.raw !== undefined ? response.raw.byteLength : Buffer.byteLength(response.body);
      requestLog.record(method, request.url, response.status, startedAt, address, request.headers, size, response.error ?? null);
    },
    tooLarge,
  };
}

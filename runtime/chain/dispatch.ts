// the global `performance` is a getter, read on every call: the module binding is not
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { AnswerSource } from '../../common/answer-source.js';
import type { ProtocolLog } from '../../common/request-log.js';
import { bodyLength, problem, withoutContent, type Answer, type Exchange, type RequestRecord, type RouteRef } from './exchange/index.js';
import type { RequestChain } from './request-chain.js';
import { StoreUnavailable } from '../store/index.js';
import { PluginFailure } from '../plugins/index.js';

/** A protocol's part of a request-log entry; `sentBytes`: what it sent after the answer (a WebSocket session's messages), the entry's response size. */
export type ProtocolPart = ProtocolLog & { sentBytes?: number };

/** Counts answered requests (runtime/control/metrics TrafficStats). */
export interface TrafficRecorder {
  record(route: RouteRef | null, method: string, status: number, durationMs: number, source: AnswerSource): void;
}

/** Keeps answered requests (runtime/control/logging RequestLog: the ring buffer, subscribers, the info log line). */
export interface RequestLogWriter {
  record(record: RequestRecord): void;
}

/** Sets an exchange's route, path parameters and match (the OpenAPI engine for HTTP; a schema's or a service's router for the others). */
export interface Router {
  route(ex: Exchange): void;
}

export interface DispatchOptions {
  /** Read on every request, so a restart can swap it. */
  router: () => Router;
  /** The stages compiled per route, ending in the protocol's terminal. */
  chain: RequestChain;
  maxBodyBytes: number;
  logger: Logger;
  /** Every answered request is recorded here. */
  requestLog?: RequestLogWriter;
  stats?: TrafficRecorder;
  /** What the protocol's server counts per answered exchange besides the traffic statistics (GraphQL operations). */
  observe?: (ex: Exchange, answer: Answer, durationMs: number) => void;
  /** A protocol other than HTTP: its part of an exchange's request-log entry (the operation, the call); undefined, or none given: HTTP's, the route and query. */
  describe?: (ex: Exchange) => ProtocolPart | undefined;
}

/** What a server adapter hands a request to once it has read it, and tells once it has written the answer. */
export interface Dispatch {
  readonly maxBodyBytes: number;
  /** Hot path: routes the exchange once and answers it, synchronously when no stage applies to its route. Never rejects. */
  answer(ex: Exchange): Answer | Promise<Answer>;
  /** The body was over the limit. */
  tooLarge(ex: Exchange): Answer;
  /** The body's length was not certain (see framing.ts); the connection is closed after the answer. */
  badFraming(ex: Exchange, reason: string): Answer;
  /** After the answer is written: statistics, the request log, the afterAnswer hooks of the chain the exchange ran through. */
  written(ex: Exchange, answer: Answer): void;
}

/** The protocol-neutral request path: route, run the route's compiled chain, account for the answer. */
export function createDispatch(options: DispatchOptions): Dispatch {
  const { chain, logger, requestLog, stats, observe, describe } = options;
  /** An answer made outside the chain, as the stages of the exchange's route would leave it. */
  const decorated = (ex: Exchange, answer: Answer): Answer => {
    if (ex.chain === null) chain.enter(ex);
    return (ex.chain as NonNullable<Exchange['chain']>).decorate(ex, answer);
  };
  const failed = (ex: Exchange, e: unknown): Answer => {
    // the store's loss is logged once by the store's connection, not once per request
    if (e instanceof StoreUnavailable) return decorated(ex, { ...problem('MOCK_ERR_STATE_STORE_UNAVAILABLE', { store: e.store }), error: e.message });
    // a plugin's failure costs its request a 502 of its own, logged once by the plugin host when it disables the plugin
    if (e instanceof PluginFailure) return decorated(ex, { ...problem(e.code, e.params as never), error: e.message });
    logger.error({ err: e, method: ex.method, url: ex.path }, 'request failed');
    return decorated(ex, { ...problem('MOCK_ERR_INTERNAL', {}), error: e instanceof Error ? e.message : String(e) });
  };
  /** A request refused before the chain ran still gets the route's decorations (CORS). */
  const refused = (ex: Exchange, answer: Answer): Answer => {
    try {
      options.router().route(ex);
    } catch {
      return answer;
    }
    return decorated(ex, answer);
  };
  const run = (ex: Exchange): Answer | Promise<Answer> => {
    try {
      options.router().route(ex);
      const result = chain.enter(ex)(ex);
      return result instanceof Promise ? result.catch((e: unknown) => failed(ex, e)) : result;
    } catch (e) {
      return failed(ex, e);
    }
  };
  return {
    maxBodyBytes: options.maxBodyBytes,
    answer(ex) {
      const reading = ex.readParts();
      return reading === undefined ? run(ex) : reading.then(() => run(ex));
    },
    tooLarge(ex) {
      return refused(ex, problem('MOCK_ERR_PAYLOAD_TOO_LARGE', { limit: options.maxBodyBytes }, { logged: true }));
    },
    badFraming(ex, reason) {
      return refused(ex, problem('MOCK_ERR_REQUEST_FRAMING', { reason }, { logged: true }));
    },
    written(ex, answer) {
      const ms = performance.now() - ex.startedAt;
      if (stats !== undefined) stats.record(ex.countedAs, ex.method, answer.status, ex.answeredAt === undefined ? ms : ex.answeredAt - ex.startedAt, answer.source);
      if (observe !== undefined) observe(ex, answer, ms);
      ex.chain?.written(ex, answer);
      if (requestLog === undefined) return;
      const injected = answer.injected;
      // the same shape for every protocol: HTTP's part is its route and query, another's its own (describe)
      const part = describe?.(ex);
      const overHttp = part === undefined || part.graphql !== undefined;
      requestLog.record({
        method: ex.method,
        path: ex.path,
        status: answer.status,
        source: answer.source,
        durationMs: ms,
        client: ex.client,
        headers: ex.headers,
        responseBytes: part?.sentBytes ?? (withoutContent(ex.method, answer.status) ? 0 : bodyLength(answer.body)),
        error: answer.error ?? answer.detail ?? null,
        code: answer.code,
        chaos: injected === undefined ? undefined : { fault: injected.fault ?? null, latency_ms: injected.latency_ms ?? null },
        // another protocol's route (`WS /chat/{room}`, `POST /pkg.Service/Method`) only when one answered: null marks HTTP's unmatched requests
        route: part === undefined ? (ex.countedAs?.key ?? null) : ex.countedAs?.key,
        query: part === undefined ? ex.rawQuery : undefined,
        websocket: part?.websocket,
        graphql: part?.graphql,
        grpc: part?.grpc,
        // references, not copies: the log keeps (a prefix of) them only when logging.bodies is on; HTTP's and GraphQL's (a call or session has none)
        requestBody: overHttp ? ex.body : undefined,
        responseBody: overHttp ? answer.body : undefined,
        responseHeaders: overHttp ? answer.headers : undefined,
      });
    },
  };
}

import http from 'node:http';
import http2, { type Http2Stream } from 'node:http2';
import protobuf from 'protobufjs';
import type { Logger } from 'pino';
import { PROBLEMS } from '../../../../common/errors.js';
import type { GrpcServiceInfo } from '../../../../common/grpc/build-output.js';
import { GRPC, grpcStatusName, httpOfGrpc } from '../../../../common/grpc-status.js';
import { Exchange, grpcStatusOf, hostPort, type Answer, type BuildRoute, type ExchangeInit } from '../../../chain/exchange/index.js';
import { createDispatch, type Dispatch, type RequestChain, type Router } from '../../../chain/index.js';
import type { RequestLog } from '../../../control/logging/index.js';
import { fromJson, toJson, type GrpcEngine, type MethodMock } from '../../../terminal/grpc/index.js';
import { BothVersions, CONNECTION_FIELDS, listenNode } from '../../http/index.js';
import type { TlsOptions } from '../../../serve-options.js';
import { describeCall, type CallFailure } from '../call-run.js';
import { httpBindings, type HttpBinding } from './http-rules.js';
import { BridgeRefusal, requestJson } from './request-json.js';
import { catalogueAnswer, chaosAnswer, statusAnswer } from './status-answer.js';
import { connectEnd, contentTypeOf, encodeMessage, envelope, grpcWebTrailers, requestMessages, webBody, wireFailure, wireOf, type Wire } from './web-protocols.js';

/** grpc.http_bridge's bounds on the work of one request. */
export interface BridgeLimits {
  /** max_body_bytes: a larger body is refused before it is parsed. */
  maxBodyBytes: number;
  /** max_stream_messages: the most messages a client- or bidirectional-streaming array may hold. */
  maxStreamMessages: number;
}

export interface BridgeOptions {
  host: string;
  port: number;
  /** The gRPC server's TLS: the bridge serves https:// with it. */
  tls?: TlsOptions;
  services: readonly GrpcServiceInfo[];
  root: protobuf.Root;
  engine: GrpcEngine;
  limits: BridgeLimits;
  /** The gRPC server's call stages (protective chaos, latency, faults): a bridge request is a call of its method. */
  chain: RequestChain;
  /** The gRPC server's route of a method (`/pkg.Service/Method`): the chain's per-route state and the statistics key on it. */
  routeOf: (grpcPath: string) => BuildRoute | undefined;
  /** The gRPC server's per-method statistics. */
  observe: (ex: Exchange, answer: Answer, durationMs: number) => void;
  requestLog: RequestLog;
  logger: Logger;
}

type Plain = Record<string, unknown>;

/** What a request asks of a method: the method, its streaming flags, the binding that matched and the fields its path bound. */
interface Target {
  mock: MethodMock;
  clientStreaming: boolean;
  serverStreaming: boolean;
  binding?: HttpBinding;
  bound: Record<string, string>;
}

/** The bridge routes each request itself before the chain runs (it needs the binding to read the request): the dispatch finds it routed. */
const ROUTED_BY_THE_BRIDGE: Router = { route: () => undefined };

const CLIENT_LEFT: Answer = Object.freeze({ status: httpOfGrpc(GRPC.CANCELLED), headers: [], body: '', error: 'the client went away', source: 'error' }) as Answer;

/**
 * The gRPC server's HTTP bridge (grpc.http_bridge): every method as `POST /<package.Service>/<Method>`
 * with a JSON body, and the methods annotated with google.api.http at their paths (path templates,
 * `body`, `response_body`, query parameters for the other fields). JSON follows the proto3 JSON
 * mapping; server streams answer NDJSON, or Server-Sent Events to `Accept: text/event-stream`;
 * client and bidirectional streams take a JSON array of messages. Each request runs the gRPC
 * server's call stages once its body is read, as a call of its method (chaos, rate limits, latency
 * before every message, faults), and is counted with the method's calls and in the request log.
 * Failures answer the status's HTTP equivalent with `{code, message, details}` (google.rpc.Status
 * as JSON); the mock's own refusals name their catalogue code in a google.rpc.ErrorInfo.
 */
export class GrpcHttpBridge {
  private readonly server: BothVersions;
  private readonly bindings: HttpBinding[];
  private readonly methods = new Map<string, { clientStreaming: boolean; serverStreaming: boolean }>();
  private readonly dispatch: Dispatch;
  private boundPort = 0;

  constructor(private readonly options: BridgeOptions) {
    this.bindings = httpBindings(options.services);
    for (const service of options.services) for (const m of service.methods) this.methods.set(`/${service.name}/${m.name}`, m);
    const { chain, limits, logger, requestLog, observe } = options;
    this.dispatch = createDispatch({ router: () => ROUTED_BY_THE_BRIDGE, chain, maxBodyBytes: limits.maxBodyBytes, logger, requestLog, observe, describe: describeCall });
    const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      this.serve(req, res).catch((e: unknown) => {
        // serve answers every failure itself: this is what failed while answering one
        logger.error({ err: e, url: req.url }, 'grpc http bridge: a request failed while being answered');
        res.destroy();
      });
    };
    // HTTP/1.1 and HTTP/2 on one port: Connect and gRPC-Web clients speak either
    this.server = new BothVersions(options.tls, listener, listener);
  }

  get port(): number {
    return this.boundPort;
  }

  get address(): string {
    return hostPort(this.options.host, this.boundPort);
  }

  async listen(): Promise<void> {
    this.boundPort = await listenNode(this.server.front, this.options.host, this.options.port, 'grpc.http_bridge.port');
  }

  close(graceMs = 0): Promise<void> {
    return this.server.close(graceMs);
  }

  /** Routes the exchange to a method: sets its route and path fields. Throws a refusal for a path that does not decode. */
  private route(ex: Exchange): Target | undefined {
    const target = this.targetOf(ex);
    const route = target === undefined ? undefined : this.options.routeOf(`/${target.mock.path}`);
    if (target !== undefined && route !== undefined) {
      ex.route = route;
      ex.params = target.bound;
      ex.match = { kind: 'operation', index: route.index };
    }
    return target;
  }

  private targetOf(ex: Exchange): Target | undefined {
    const direct = this.methods.get(ex.path);
    if (direct !== undefined && ex.method === 'POST') {
      const mock = this.options.engine.method(ex.path.slice(1));
      return mock === undefined ? undefined : { mock, ...direct, bound: {} };
    }
    const segments = decodedSegments(ex.path);
    for (const binding of this.bindings) {
      if (binding.method !== ex.method) continue;
      const bound = binding.match(segments);
      if (bound === undefined) continue;
      const mock = this.options.engine.method(binding.grpcPath.slice(1));
      const flags = this.methods.get(binding.grpcPath);
      if (mock !== undefined && flags !== undefined) return { mock, ...flags, binding, bound };
    }
    return undefined;
  }

  /** Answers one request, whatever goes wrong (a catalogue error), and writes it once to the request log, statistics and the stages' hooks. */
  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const init = requestOf(req);
    let body: Buffer | undefined;
    let unread: unknown;
    try {
      body = await readBody(req, this.options.limits.maxBodyBytes);
    } catch (e) {
      unread = e;
    }
    const ex = new Exchange({ ...init, body });
    const wire = wireOf(ex.headers);
    let ended = false;
    const call: Call = {
      ex,
      res,
      in: 0,
      out: 0,
      written: (answer, code) => {
        if (ended) return;
        ended = true;
        ex.locals.grpc = { status: grpcStatusName(code), code, messages_in: call.in, messages_out: call.out };
        this.dispatch.written(ex, answer);
      },
    };
    try {
      if (unread !== undefined) throw unread;
      const target = this.route(ex);
      const admitted = await this.dispatch.answer(ex);
      if (isPreflight(ex) && admitted.status < 300) {
        // a page's CORS preflight, answered by the chain's cors stage (http.cors)
        send(res, admitted);
        return call.written(admitted, GRPC.OK);
      }
      if (admitted.status >= 400 || admitted.delivery?.end !== undefined) await refuse(call, admitted, wire);
      else if (target === undefined) throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_NO_METHOD', { method: ex.method, path: ex.path });
      else if (wire !== undefined) await this.answerOnWire(call, target, admitted, wire);
      else await this.answer(call, target, admitted);
    } catch (e) {
      const refusal = this.refusalOf(e, ex);
      const code = PROBLEMS[refusal.code].grpc;
      const answer: Answer = wire === undefined ? catalogueAnswer(refusal.code, refusal.message) : { ...wireFailure(wire, code, refusal.message), error: refusal.message, code: refusal.code, source: 'refusal' };
      if (!res.headersSent) send(res, answer, refusal.code === 'MOCK_ERR_GRPC_BRIDGE_TOO_LARGE');
      else res.end();
      call.written(answer, code);
    }
  }

  /**
   * gRPC-Web and Connect (docs/grpc.md, "Browsers and Connect"): unary and server-streaming calls,
   * with the chain's holds before every message as on the JSON mapping. Connect's unary answer is
   * the bare message (or its error as JSON with the status's HTTP code); everything else is
   * enveloped messages, then gRPC-Web's trailers or Connect's end-of-stream.
   */
  private async answerOnWire(call: Call, target: Target, admitted: Answer, wire: Wire): Promise<void> {
    const { res } = call;
    const holdMs = admitted.delivery?.holdMs ?? 0;
    const { injected } = admitted;
    const { requestType, responseType } = target.mock;
    if (target.clientStreaming) {
      throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: 'gRPC-Web and Connect over HTTP/1.1 carry unary and server-streaming calls: call client- and bidirectional-streaming methods over gRPC' });
    }
    const requests = requestMessages(wire, call.ex.body, requestType, (json) => (fromJson(requestType, json) ?? {}) as Plain);
    call.in = requests.length;
    const encode = (message: object): Buffer => encodeMessage(wire, responseType, message, (m) => toJson(responseType, m));
    const headers: Array<[string, string]> = [['content-type', contentTypeOf(wire)], ...admitted.headers];
    const unaryConnect = wire.kind === 'connect' && !wire.streaming;
    if (unaryConnect && target.serverStreaming) {
      throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: 'a server-streaming method takes Connect streaming: Content-Type application/connect+proto or application/connect+json' });
    }
    let plan: { messages: Array<{ message: object; delayMs: number }>; end?: CallFailure };
    if (target.serverStreaming) plan = this.streamOf(target, requests);
    else {
      const reply = target.mock.unary(requests[0] ?? {}, {});
      if ('failure' in reply) await sleep(reply.delayMs);
      plan = 'failure' in reply ? { messages: [], end: reply.failure } : { messages: [{ message: reply.message, delayMs: reply.delayMs }] };
    }
    if (unaryConnect) {
      const [only] = plan.messages;
      await sleep((only?.delayMs ?? 0) + holdMs);
      if (res.destroyed) return call.written(CLIENT_LEFT, GRPC.CANCELLED);
      const answer: Answer =
        plan.end === undefined
          ? { status: 200, headers, body: encode(only.message), injected, source: 'generated' }
          : { ...wireFailure(wire, plan.end.code, plan.end.message), injected, error: plan.end.message, source: 'generated' };
      if (plan.end === undefined) call.out = 1;
      send(res, answer);
      return call.written(answer, plan.end?.code ?? GRPC.OK);
    }
    const head: Answer = { status: 200, headers, body: '', injected, source: 'generated' };
    res.writeHead(200, headersOf(head, res));
    for (const { message, delayMs } of plan.messages) {
      await sleep(delayMs + holdMs);
      if (res.destroyed) return call.written(CLIENT_LEFT, GRPC.CANCELLED);
      res.write(webBody(wire, envelope(0, encode(message))));
      call.out++;
    }
    const code = plan.end?.code ?? GRPC.OK;
    const message = plan.end?.message ?? '';
    res.end(webBody(wire, wire.kind === 'grpc-web' ? grpcWebTrailers(code, message) : connectEnd(code, message)));
    call.written(plan.end === undefined ? head : { ...head, error: message }, code);
  }

  /**
   * The method's answer, after the stages let the call through: what they added goes with it (their
   * headers; the latency they hold before every message; what they did, for the request log).
   */
  private async answer(call: Call, target: Target, admitted: Answer): Promise<void> {
    const { res } = call;
    const holdMs = admitted.delivery?.holdMs ?? 0;
    const { injected } = admitted;
    const requests = this.messagesOf(target, call.ex);
    call.in = requests.length;
    const { responseType } = target.mock;
    const responseBody = target.binding?.responseBody;
    const answerOf = (message: object): unknown => {
      const json = toJson(responseType, message) as Plain;
      return responseBody === undefined ? json : json[protobuf.util.camelCase(responseBody)];
    };
    if (!target.serverStreaming) {
      const reply = target.clientStreaming ? target.mock.clientStream(requests, {}) : target.mock.unary(requests[0] ?? {}, {});
      await sleep(reply.delayMs + holdMs);
      if (res.destroyed) return call.written(CLIENT_LEFT, GRPC.CANCELLED);
      if ('failure' in reply) {
        const failed = { ...statusAnswer(reply.failure.code, this.statusJson(reply.failure), reply.failure.message), injected };
        send(res, failed);
        return call.written(failed, reply.failure.code);
      }
      call.out = 1;
      const answer: Answer = { status: 200, headers: [['content-type', 'application/json'], ...admitted.headers], body: JSON.stringify(answerOf(reply.message)), injected, source: 'generated' };
      send(res, answer);
      return call.written(answer, GRPC.OK);
    }
    const plan = this.streamOf(target, requests);
    const sse = (call.ex.headers.accept ?? '').includes('text/event-stream');
    const head: Answer = { status: 200, headers: [['content-type', sse ? 'text/event-stream' : 'application/x-ndjson'], ['cache-control', 'no-store'], ...admitted.headers], body: '', injected, source: 'generated' };
    res.writeHead(200, headersOf(head, res));
    for (const { message, delayMs } of plan.messages) {
      await sleep(delayMs + holdMs);
      if (res.destroyed) return call.written(CLIENT_LEFT, GRPC.CANCELLED);
      const text = JSON.stringify(answerOf(message));
      res.write(sse ? `data: ${text}\n\n` : `${text}\n`);
      call.out++;
    }
    if (plan.end === undefined) {
      res.end();
      return call.written(head, GRPC.OK);
    }
    const status = this.statusJson(plan.end);
    res.end(sse ? `event: error\ndata: ${JSON.stringify(status)}\n\n` : `${JSON.stringify({ error: status })}\n`);
    call.written({ ...head, error: plan.end.message }, plan.end.code);
  }

  /** The request messages in the object form; the proto3 mapping's complaints are the client's to fix (400). */
  private messagesOf(target: Target, ex: Exchange): Plain[] {
    const json = requestJson(ex.body, { clientStreaming: target.clientStreaming, binding: target.binding, bound: target.bound, query: ex.rawQuery, maxMessages: this.options.limits.maxStreamMessages });
    try {
      return json.map((message, i) => (fromJson(target.mock.requestType, message, `$[${i}]`) ?? {}) as Plain);
    } catch (e) {
      if (e instanceof TypeError) throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: e.message });
      throw e;
    }
  }

  /** What a failure is answered as: a refusal as it is; a body too deep to walk; anything else a 500, logged. */
  private refusalOf(e: unknown, ex: Exchange): BridgeRefusal {
    if (e instanceof BridgeRefusal) return e;
    if (e instanceof RangeError) return BridgeRefusal.of('MOCK_ERR_REQUEST_TOO_DEEP', { method: ex.method, path: ex.path });
    this.options.logger.error({ err: e, method: ex.method, url: ex.path }, 'grpc http bridge: request failed');
    return BridgeRefusal.of('MOCK_ERR_INTERNAL', {});
  }

  /** A server stream's plan; a bidirectional stream's, from the array of client messages (every answer, until one ends the call). */
  private streamOf(target: Target, requests: Plain[]): { messages: Array<{ message: object; delayMs: number }>; end?: CallFailure } {
    if (!target.clientStreaming) return target.mock.serverStream(requests[0] ?? {}, {});
    const session = target.mock.bidi({});
    const messages: Array<{ message: object; delayMs: number }> = [];
    for (const plan of [session.start(), ...requests.map((request) => session.received(request)), session.end()]) {
      messages.push(...plan.messages);
      if (plan.end !== undefined) return { messages, end: plan.end };
    }
    return { messages };
  }

  /** google.rpc.Status as JSON, its details decoded when the schema knows their types. */
  private statusJson(failure: CallFailure): Plain {
    const statusType = this.options.root.lookup('google.rpc.Status');
    if (failure.details === undefined || !(statusType instanceof protobuf.Type)) return { code: failure.code, message: failure.message, details: [] };
    const decoded = statusType.toObject(statusType.decode(failure.details), { longs: String, enums: String, bytes: Buffer, defaults: true, oneofs: true });
    return toJson(statusType, decoded) as Plain;
  }
}

/** One request being answered: written once when it ends, with the messages that went each way. */
interface Call {
  ex: Exchange;
  res: http.ServerResponse;
  in: number;
  out: number;
  written(answer: Answer, code: number): void;
}

/** A stage refused the call (a rate limit, an injected fault, an open breaker): after its hold, its end of the connection or its answer. */
async function refuse(call: Call, refused: Answer, wire: Wire | undefined): Promise<void> {
  await sleep(refused.delivery?.holdMs ?? 0);
  const end = refused.delivery?.end;
  if (end === 'drop' || end === 'reset') {
    const stream = (call.res as unknown as { stream?: Http2Stream }).stream;
    // an HTTP/2 call is one stream of a connection others share: that stream is what ends
    if (stream !== undefined) stream.close(end === 'reset' ? http2.constants.NGHTTP2_CANCEL : http2.constants.NGHTTP2_INTERNAL_ERROR);
    else if (end === 'reset') call.res.socket?.resetAndDestroy();
    else call.res.socket?.destroy();
    return call.written(refused, GRPC.UNAVAILABLE);
  }
  const code = grpcStatusOf(refused);
  const answer = wire === undefined ? chaosAnswer(refused) : { ...refused, ...wireFailure(wire, code, refused.error ?? refused.detail ?? 'refused by the mock') };
  send(call.res, answer);
  call.written(answer, code);
}

const isPreflight = (ex: Exchange): boolean => ex.method === 'OPTIONS' && ex.headers.origin !== undefined && ex.headers['access-control-request-method'] !== undefined;

/** The request as the chain sees it: the method, the path as received (percent-encoded) and the raw query, headers with lower-case names. */
function requestOf(req: http.IncomingMessage): ExchangeInit {
  const startedAt = performance.now();
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  let path = q === -1 ? target : target.slice(0, q);
  // the absolute form (RFC 9112 3.2.2): its path
  const authority = /^https?:\/\/[^/]*/i.exec(path);
  if (authority !== null) path = path.slice(authority[0].length) || '/';
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    // HTTP/2's pseudo-header fields are the request line; :authority is the Host
    if (name.startsWith(':')) {
      if (name === ':authority' && !Object.hasOwn(headers, 'host')) headers.host = req.rawHeaders[i + 1];
      continue;
    }
    // the client's names: a `constructor` header must not join what every object inherits (`__proto__` takes no text)
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${req.rawHeaders[i + 1]}` : req.rawHeaders[i + 1];
  }
  const client = (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/, '');
  return { method: (req.method ?? 'GET').toUpperCase(), path, rawQuery: q === -1 ? '' : target.slice(q + 1), headers, client, startedAt };
}

/** The path's segments, each percent-decoded once (`%2F` stays inside its segment); a malformed escape is the client's error. */
function decodedSegments(path: string): string[] {
  try {
    return path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_ENCODING', { path });
  }
}

/** The answer's fields as node takes them; on HTTP/2 without HTTP/1.1's connection fields, which it forbids. */
function headersOf(answer: Answer, res: http.ServerResponse): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  const h2 = res.req?.httpVersionMajor === 2;
  for (const [name, value] of answer.headers) {
    if (h2 && CONNECTION_FIELDS.has(name.toLowerCase())) continue;
    const current = headers[name];
    headers[name] = current === undefined ? value : [...(Array.isArray(current) ? current : [String(current)]), value];
  }
  return headers;
}

/** Writes a whole answer; `close`: the connection ends after it. */
function send(res: http.ServerResponse, answer: Answer, close = false): void {
  if (res.destroyed) return;
  const headers = headersOf(answer, res);
  if (close && res.req?.httpVersionMajor !== 2) headers.connection = 'close';
  res.writeHead(answer.status, headers).end(answer.body);
}

const sleep = (ms: number): Promise<void> => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * The body, up to `limit` bytes; undefined when there is none. Past the limit the rest is read and
 * dropped before the refusal goes out (closing with unread data would reset the connection, and
 * the client would lose the answer).
 */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const tooLarge = (): void => {
      req.removeAllListeners('data');
      req.once('end', () => reject(BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_TOO_LARGE', { limit })));
      req.resume();
    };
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > limit) {
      tooLarge();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) tooLarge();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= limit) resolve(size === 0 ? undefined : Buffer.concat(chunks));
    });
    req.on('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: 'the client went away before its body was read' }));
    });
  });
}

import http from 'node:http';
import protobuf from 'protobufjs';
import type { GrpcServiceInfo } from '../../../../common/grpc/build-output.js';
import { GRPC, grpcStatusName, httpOfGrpc } from '../../../../common/grpc-status.js';
import { hostPort } from '../../../chain/exchange/index.js';
import type { RequestLog } from '../../../control/logging/index.js';
import type { GrpcEngine, MethodMock } from '../../../terminal/grpc/index.js';
import { closeNode, listenNode } from '../../http/index.js';
import type { CallFailure } from '../call-run.js';
import { httpBindings, type HttpBinding } from './http-rules.js';
import { fromJson, toJson } from './json-mapping.js';

export interface BridgeOptions {
  host: string;
  port: number;
  services: readonly GrpcServiceInfo[];
  root: protobuf.Root;
  engine: GrpcEngine;
  maxMessageSize: number;
  requestLog: RequestLog;
}

type Plain = Record<string, unknown>;
type Timed = { message: object; delayMs: number };

/** What a request asks of a method: the method, its streaming flags, the request JSON, the field answered. */
interface Target {
  grpcPath: string;
  mock: MethodMock;
  clientStreaming: boolean;
  serverStreaming: boolean;
  binding?: HttpBinding;
  bound: Record<string, string>;
}

class BridgeError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const setPath = (json: Plain, dotted: string, value: unknown): void => {
  const keys = dotted.split('.');
  let node = json;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Plain;
  const last = keys[keys.length - 1];
  node[last] = node[last] === undefined ? value : [node[last], value].flat();
};

/**
 * The gRPC server's HTTP bridge (grpc.http_bridge): every method as `POST /<package.Service>/<Method>`
 * with a JSON body, and the methods annotated with google.api.http at their paths (path templates,
 * `body`, `response_body`, query parameters for the other fields). JSON follows the proto3 JSON
 * mapping; server streams answer NDJSON, or Server-Sent Events to `Accept: text/event-stream`;
 * client and bidirectional streams take a JSON array of messages. Failures answer the status's HTTP
 * equivalent with `{code, message, details}` (google.rpc.Status as JSON).
 */
export class GrpcHttpBridge {
  private readonly server: http.Server;
  private readonly bindings: HttpBinding[];
  private readonly methods = new Map<string, { clientStreaming: boolean; serverStreaming: boolean }>();
  private boundPort = 0;

  constructor(private readonly options: BridgeOptions) {
    this.bindings = httpBindings(options.services);
    for (const service of options.services) for (const m of service.methods) this.methods.set(`/${service.name}/${m.name}`, m);
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  get port(): number {
    return this.boundPort;
  }

  get address(): string {
    return hostPort(this.options.host, this.boundPort);
  }

  async listen(): Promise<void> {
    this.boundPort = await listenNode(this.server, this.options.host, this.options.port, 'grpc.http_bridge.port');
  }

  close(graceMs = 0): Promise<void> {
    return closeNode(this.server, graceMs);
  }

  private target(method: string, path: string): Target | undefined {
    const direct = this.methods.get(path);
    if (direct !== undefined && method === 'POST') {
      const mock = this.options.engine.method(path.slice(1));
      return mock === undefined ? undefined : { grpcPath: path, mock, ...direct, bound: {} };
    }
    for (const binding of this.bindings) {
      if (binding.method !== method) continue;
      const bound = binding.match(path);
      if (bound === undefined) continue;
      const mock = this.options.engine.method(binding.grpcPath.slice(1));
      const flags = this.methods.get(binding.grpcPath);
      if (mock !== undefined && flags !== undefined) return { grpcPath: binding.grpcPath, mock, ...flags, binding, bound };
    }
    return undefined;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://bridge');
    const path = decodeURI(url.pathname);
    const target = this.target(req.method ?? 'GET', path);
    let messagesIn = 0;
    let messagesOut = 0;
    const finish = (code: number, error: string | null): void => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      this.options.requestLog.record(req.method ?? 'GET', path, res.statusCode, performance.now() - started, req.socket.remoteAddress ?? '', headers, 0, error, undefined, {
        grpc: { status: grpcStatusName(code), messages_in: messagesIn, messages_out: messagesOut },
      });
    };
    try {
      if (target === undefined) throw new BridgeError(GRPC.NOT_FOUND, `no gRPC method answers ${req.method} ${path}: POST /<package.Service>/<Method>, or a google.api.http path`);
      const body = await readBody(req, this.options.maxMessageSize);
      const { requestType, responseType } = target.mock;
      const requests = this.requests(target, body, url.searchParams).map((json, i) => fromJson(requestType, json, `$[${i}]`) as Plain);
      messagesIn = requests.length;
      const answerOf = (message: object): unknown => {
        const json = toJson(responseType, message) as Plain;
        return target.binding?.responseBody === undefined ? json : json[protobuf.util.camelCase(target.binding.responseBody)];
      };
      if (!target.serverStreaming) {
        const reply = target.clientStreaming ? target.mock.clientStream(requests, {}) : target.mock.unary(requests[0] ?? {}, {});
        await sleep(reply.delayMs);
        if ('failure' in reply) throw reply.failure;
        messagesOut = 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answerOf(reply.message)));
        finish(GRPC.OK, null);
        return;
      }
      const plan = this.streamOf(target, requests);
      const sse = (req.headers.accept ?? '').includes('text/event-stream');
      res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/x-ndjson', 'cache-control': 'no-store' });
      for (const { message, delayMs } of plan.messages) {
        await sleep(delayMs);
        if (res.destroyed) return finish(GRPC.CANCELLED, 'the client went away');
        const text = JSON.stringify(answerOf(message));
        res.write(sse ? `data: ${text}\n\n` : `${text}\n`);
        messagesOut++;
      }
      if (plan.end !== undefined) {
        const status = this.statusJson(plan.end);
        res.end(sse ? `event: error\ndata: ${JSON.stringify(status)}\n\n` : `${JSON.stringify({ error: status })}\n`);
        finish(plan.end.code, plan.end.message);
        return;
      }
      res.end();
      finish(GRPC.OK, null);
    } catch (e) {
      const failure: CallFailure = e instanceof BridgeError ? { code: e.code, message: e.message } : isFailure(e) ? e : { code: GRPC.INVALID_ARGUMENT, message: e instanceof Error ? e.message : String(e) };
      if (!res.headersSent) res.writeHead(httpOfGrpc(failure.code), { 'content-type': 'application/json' }).end(JSON.stringify(this.statusJson(failure)));
      else res.end();
      finish(failure.code, failure.message);
    }
  }

  /** The request messages as JSON: the body (an array for client streams), the path's bound fields, the query's for the rest. */
  private requests(target: Target, body: Buffer, query: URLSearchParams): Plain[] {
    let parsed: unknown = {};
    if (body.byteLength > 0) {
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        throw new BridgeError(GRPC.INVALID_ARGUMENT, 'the body is not JSON');
      }
    }
    if (target.clientStreaming) {
      if (!Array.isArray(parsed)) throw new BridgeError(GRPC.INVALID_ARGUMENT, 'a client- or bidirectional-streaming method takes a JSON array of messages');
      return parsed as Plain[];
    }
    const binding = target.binding;
    let json: Plain;
    if (binding === undefined || binding.body === '*') json = { ...(parsed as Plain) };
    else if (binding.body !== undefined) json = { [binding.body]: parsed };
    else json = {};
    for (const [field, value] of Object.entries(target.bound)) setPath(json, field, value);
    if (binding !== undefined && binding.body !== '*') for (const [key, value] of query) setPath(json, key, value);
    return [json];
  }

  /** A server stream's plan; a bidirectional stream's, from the array of client messages (every answer, until one ends the call). */
  private streamOf(target: Target, requests: Plain[]): { messages: Timed[]; end?: CallFailure } {
    if (!target.clientStreaming) return target.mock.serverStream(requests[0] ?? {}, {});
    const session = target.mock.bidi({});
    const messages: Timed[] = [];
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

const isFailure = (e: unknown): e is CallFailure => typeof e === 'object' && e !== null && typeof (e as CallFailure).code === 'number' && typeof (e as CallFailure).message === 'string';

const sleep = (ms: number): Promise<void> => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        reject(new BridgeError(GRPC.RESOURCE_EXHAUSTED, `the body is over grpc.max_message_size (${limit} bytes)`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

import { GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { handleProtocols, makeServer, type Server } from 'graphql-ws';
import type { Answer } from '../../chain/exchange/index.js';
import type { RequestLog } from '../../control/logging/index.js';
import type { GraphqlEngine, Prepared } from '../../terminal/graphql/index.js';
import type { EndpointConnection, EndpointSocket, SocketEndpoint } from '../http/index.js';
import type { OperationStats } from './operation-stats.js';

export interface SubscriptionOptions {
  path: string;
  engine: () => GraphqlEngine;
  stats: OperationStats;
  requestLog: RequestLog;
  maxMessageBytes: number;
}

/** What a running operation of a connection reports when it ends. */
interface Running {
  prepared: Prepared;
  startedAt: number;
  events: number;
  failed: boolean;
}

/** Per connection: the request's headers and client, and the operations running on it by id. */
interface ConnectionState {
  headers: Record<string, string>;
  client: string;
  running: Map<string, Running>;
}

const refusal = (status: number, text: string): Answer => ({ status, headers: [['content-type', 'text/plain; charset=utf-8']], body: text });

/**
 * GraphQL over WebSocket on the GraphQL path: the graphql-transport-ws protocol (the graphql-ws
 * library's server, which owns the protocol's messages, time-outs and close codes), executing
 * through the engine's prepared documents. Each operation is one request-log entry when it ends.
 */
export class SubscriptionEndpoint implements SocketEndpoint {
  readonly path: string;
  readonly maxMessageBytes: number;
  private readonly server: Server<ConnectionState>;
  private readonly sockets = new Set<EndpointSocket>();

  constructor(private readonly options: SubscriptionOptions) {
    this.path = options.path;
    this.maxMessageBytes = options.maxMessageBytes;
    this.server = makeServer<Record<string, unknown> | undefined, ConnectionState>({
      onSubscribe: (ctx, id, payload) => {
        const prepared = options.engine().prepare(payload.query, payload.operationName ?? null);
        if (!prepared.ok) return prepared.errors;
        ctx.extra.running.set(id, { prepared, startedAt: performance.now(), events: 0, failed: false });
        const args: ExecutionArgs = { schema: options.engine().schema, document: prepared.document, operationName: prepared.operationName, variableValues: payload.variables ?? undefined, contextValue: prepared };
        return args;
      },
      execute: (args) => executed((args.contextValue as Prepared).execute(args.variableValues ?? undefined)),
      subscribe: (args) => (args.contextValue as Prepared).subscribe(args.variableValues ?? undefined),
      onNext: (ctx, id, _payload, _args, result) => {
        const running = ctx.extra.running.get(id);
        if (running === undefined) return;
        running.events++;
        if (result.errors !== undefined && result.errors.length > 0) running.failed = true;
      },
      onError: (ctx, id) => {
        const running = ctx.extra.running.get(id);
        if (running !== undefined) running.failed = true;
      },
      onComplete: (ctx, id) => this.ended(ctx.extra, id),
    });
  }

  accept(headers: Record<string, string>): { protocol: string } | { refuse: Answer } {
    const offered = headers['sec-websocket-protocol'];
    const protocol = offered === undefined ? false : handleProtocols(offered);
    if (protocol === false) return { refuse: refusal(400, `${this.path} speaks the graphql-transport-ws WebSocket subprotocol: offer it in Sec-WebSocket-Protocol`) };
    return { protocol };
  }

  open(socket: EndpointSocket, headers: Record<string, string>, client: string): EndpointConnection {
    let listener: ((data: string) => Promise<void>) | undefined;
    const state: ConnectionState = { headers, client, running: new Map() };
    this.sockets.add(socket);
    const closed = this.server.opened(
      {
        protocol: socket.protocol,
        send: (data) => socket.send(data),
        close: (code, reason) => socket.close(code ?? 1000, reason ?? ''),
        onMessage: (cb) => {
          listener = cb;
        },
      },
      state,
    );
    return {
      message: (text) => {
        listener?.(text).catch((e: unknown) => socket.close(4400, e instanceof Error ? e.message.slice(0, 100) : 'bad message'));
      },
      closed: (code, reason) => {
        this.sockets.delete(socket);
        void closed(code, reason).then(() => {
          for (const id of [...state.running.keys()]) this.ended(state, id);
        });
      },
    };
  }

  /** Ends every connection (the server is closing): their subscriptions stop. */
  closeAll(): void {
    for (const socket of [...this.sockets]) socket.close(1001, 'mock: the server is shutting down');
  }

  get connections(): number {
    return this.sockets.size;
  }

  private ended(state: ConnectionState, id: string): void {
    const running = state.running.get(id);
    if (running === undefined) return;
    state.running.delete(id);
    const ms = performance.now() - running.startedAt;
    const { operationName, operationType } = running.prepared;
    this.options.stats.socketOperationEnded(operationName, operationType, running.failed, ms);
    this.options.requestLog.record('GET', this.path, running.failed ? 500 : 200, ms, state.client, state.headers, 0, null, undefined, {
      graphql: { operation_name: operationName, operation_type: operationType, events: running.events },
    });
  }
}

/** A query or mutation sent over the socket: variables it refuses are a GraphQL error like any other. */
function executed(result: ReturnType<Prepared['execute']>): ExecutionResult | Promise<ExecutionResult> {
  const strip = (r: ExecutionResult & { variablesRejected?: boolean }): ExecutionResult => {
    if (r.variablesRejected !== true) return r;
    return { errors: r.errors ?? [new GraphQLError('the variables were refused')] };
  };
  return result instanceof Promise ? result.then(strip) : strip(result);
}

import { GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { handleProtocols, makeServer, type Server } from 'graphql-ws';
import { PROBLEMS } from '../../../common/errors.js';
import type { Answer } from '../../chain/exchange/index.js';
import type { WarningGate } from '../../../common/warning-gate.js';
import type { RequestLog } from '../../control/logging/index.js';
import type { GraphqlEngine, Prepared } from '../../terminal/graphql/index.js';
import type { EndpointConnection, EndpointSocket, SocketEndpoint } from '../http/index.js';
import { graphqlError, overBytes } from './graphql-answer.js';
import type { SocketLimits } from './graphql-options.js';
import type { OperationStats } from './operation-stats.js';

export interface SubscriptionOptions {
  path: string;
  engine: () => GraphqlEngine;
  stats: OperationStats;
  requestLog: RequestLog;
  /** graphql.max_body_bytes: a larger client message closes the connection with 1009. */
  maxMessageBytes: number;
  /** graphql.max_response_bytes: a larger answer is sent as an error instead. */
  maxResponseBytes: number;
  limits: SocketLimits;
  /** Where the warnings about clients cut off go (one a minute). */
  slowReaders: WarningGate;
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
  /** Cut off for reading too slowly: nothing more is sent. */
  cut: boolean;
}

const refusal = (status: number, text: string): Answer => ({ status, headers: [['content-type', 'text/plain; charset=utf-8']], body: text, source: 'refusal' });

/** What graphql-ws sends with a payload starts so (JSON.stringify keeps the order id, type, payload). */
const PAYLOAD_MESSAGE = /^\{"id":("(?:[^"\\]|\\.)*"),"type":"(next|error)"/;
/** Room on uWS for one answer past the buffer limit, and the small messages around it. */
const BACKPRESSURE_SLACK = 64 * 1024;

/**
 * GraphQL over WebSocket on the GraphQL path: the graphql-transport-ws protocol (the graphql-ws
 * library's server, which owns the protocol's messages, time-outs and close codes), executing
 * through the engine's prepared documents. Each operation is one request-log entry when it ends.
 */
export class SubscriptionEndpoint implements SocketEndpoint {
  readonly path: string;
  readonly maxMessageBytes: number;
  readonly maxBackpressure: number;
  private readonly server: Server<ConnectionState>;
  private readonly sockets = new Set<EndpointSocket>();

  constructor(private readonly options: SubscriptionOptions) {
    this.path = options.path;
    this.maxMessageBytes = options.maxMessageBytes;
    // a send is checked against max_buffered_bytes before it is made: uWS must keep it and one answer more
    this.maxBackpressure = options.limits.maxBufferedBytes + options.maxResponseBytes + BACKPRESSURE_SLACK;
    const { maxPerConnection } = options.limits;
    this.server = makeServer<Record<string, unknown> | undefined, ConnectionState>({
      onSubscribe: (ctx, id, payload) => {
        if (ctx.extra.running.size >= maxPerConnection) {
          return [new GraphQLError(PROBLEMS.MOCK_ERR_GRAPHQL_OPERATION_LIMIT.detail({ max: maxPerConnection }), { extensions: { code: 'MOCK_ERR_GRAPHQL_OPERATION_LIMIT' } })];
        }
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
      // an operation that fails is not completed: it ends here (and stops counting against max_per_connection)
      onError: (ctx, id) => {
        const running = ctx.extra.running.get(id);
        if (running === undefined) return;
        running.failed = true;
        this.ended(ctx.extra, id);
      },
      onComplete: (ctx, id) => this.ended(ctx.extra, id),
    });
  }

  accept(headers: Record<string, string>): { protocol: string } | { refuse: Answer } {
    const offered = headers['sec-websocket-protocol'];
    const protocol = offered === undefined ? false : handleProtocols(offered);
    if (protocol === false) return { refuse: refusal(400, `${this.path} speaks the graphql-transport-ws WebSocket subprotocol: offer it in Sec-WebSocket-Protocol`) };
    const max = this.options.limits.maxConnections;
    if (this.sockets.size >= max) {
      const code = 'MOCK_ERR_GRAPHQL_CONNECTION_LIMIT';
      return { refuse: { status: PROBLEMS[code].status, headers: [['content-type', 'application/json; charset=utf-8']], body: JSON.stringify({ errors: [graphqlError(PROBLEMS[code].detail({ max }), code)] }), source: 'refusal' } };
    }
    return { protocol };
  }

  open(socket: EndpointSocket, headers: Record<string, string>, client: string): EndpointConnection {
    let listener: ((data: string) => Promise<void>) | undefined;
    const state: ConnectionState = { headers, client, running: new Map(), cut: false };
    this.sockets.add(socket);
    const closed = this.server.opened(
      {
        protocol: socket.protocol,
        send: (data) => this.send(socket, state, data),
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

  /**
   * Sends unless the client left more than max_buffered_bytes unread: then it is cut off at once
   * (a closing handshake would wait behind what it has not read), as the admin live stream does,
   * with a warning (one a minute). An answer over max_response_bytes goes as an error instead.
   */
  private send(socket: EndpointSocket, state: ConnectionState, text: string): void {
    if (state.cut) return;
    const { maxBufferedBytes } = this.options.limits;
    if (socket.buffered() > maxBufferedBytes) {
      state.cut = true;
      const agent = state.headers['user-agent'];
      const who = `client ${state.client}${agent === undefined ? '' : ` (${JSON.stringify(agent.slice(0, 100))})`}`;
      this.options.slowReaders.warn(
        `GraphQL WebSocket: cut off ${who}: it left more than ${maxBufferedBytes} bytes unread (graphql.subscriptions.max_buffered_bytes)`,
      );
      socket.drop();
      return;
    }
    if (!overBytes(text, this.options.maxResponseBytes)) return socket.send(text);
    const code = 'MOCK_ERR_GRAPHQL_RESPONSE_TOO_LARGE';
    const error = graphqlError(PROBLEMS[code].detail({ max: this.options.maxResponseBytes }), code);
    // the same operation's error in its place (graphql-ws writes id, type, payload in this order)
    const match = PAYLOAD_MESSAGE.exec(text.slice(0, 64 * 1024));
    if (match === null) return socket.close(4500, error.message.slice(0, 120));
    const [, id, type] = match;
    socket.send(`{"id":${id},"type":"${type}","payload":${JSON.stringify(type === 'next' ? { errors: [error] } : [error])}}`);
  }

  private ended(state: ConnectionState, id: string): void {
    const running = state.running.get(id);
    if (running === undefined) return;
    state.running.delete(id);
    const ms = performance.now() - running.startedAt;
    const { operationName, operationType } = running.prepared;
    this.options.stats.socketOperationEnded(operationName, operationType, running.failed, ms);
    this.options.requestLog.record({
      method: 'GET',
      path: this.path,
      status: running.failed ? 500 : 200,
      source: 'generated',
      durationMs: ms,
      client: state.client,
      headers: state.headers,
      responseBytes: 0,
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

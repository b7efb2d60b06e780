import { Exchange, problem, type Answer } from '../../chain/exchange/index.js';
import type { Next } from '../../chain/index.js';
import type { BidiSession, GrpcEngine, Metadata, MethodMock, Reply, StreamPlan } from './engine.js';
import type { GrpcRecordings } from './recordings.js';
import { andThen, type Awaitable } from '../../store/index.js';

/** An answer and, when a recording gave it, its file below core.fixtures.dir (the request log names it). */
export type Answered<T> = T & { fixture?: string };

/**
 * What answers one call the stages let through, by its mode: the call's recording when replay is
 * on and one fits it (core.fixtures), else the method's mock (grpc.methods rules, generated messages).
 */
export class CallAnswer {
  constructor(
    readonly mock: MethodMock,
    /** The recordings while replay is on and there are some. */
    private readonly replay: GrpcRecordings | undefined,
  ) {}

  unary(request: object, metadata: Metadata): Awaitable<Answered<Reply>> {
    return andThen(this.replay?.unary(this.mock, request), (replayed) => replayed ?? this.mock.unary(request, metadata));
  }

  serverStream(request: object, metadata: Metadata): Awaitable<Answered<StreamPlan>> {
    return andThen(this.replay?.serverStream(this.mock, request), (replayed) => replayed ?? this.mock.serverStream(request, metadata));
  }

  /** After the half-close, with every message the client sent. */
  clientStream(requests: readonly object[], metadata: Metadata): Awaitable<Answered<Reply>> {
    return andThen(this.replay?.clientStream(this.mock, requests), (replayed) => replayed ?? this.mock.clientStream(requests, metadata));
  }

  bidi(metadata: Metadata): Awaitable<Answered<{ session: BidiSession }>> {
    return andThen(this.replay?.bidiSession(this.mock), (replayed) => replayed ?? { session: this.mock.bidi(metadata) });
  }
}

/**
 * One gRPC call as the chain carries it: `POST /<package.Service>/<Method>`, its metadata as
 * headers, no body. The terminal leaves on it what answers the call; the server plays that answer.
 */
export class CallExchange extends Exchange {
  /** Set by the terminal when the stages let the call through to a method it serves. */
  answer: CallAnswer | undefined;
}

/** The call goes on to its answer (what the stages added, latency to hold, rides on it). */
const ANSWERED: Answer = Object.freeze({ status: 200, headers: [], body: '', source: 'generated' }) as Answer;

/**
 * The chain's terminal for gRPC calls: a call of a served method is answered by its CallAnswer
 * (left on the exchange for the server to play, message by message, as the client sends); a call
 * of a method the protos do not declare, by UNIMPLEMENTED naming it. A request of the HTTP bridge
 * (not a CallExchange) is let through: the bridge answers it from the engine.
 */
export function grpcTerminal(engine: GrpcEngine, recordings: () => GrpcRecordings | undefined): Next {
  return (ex) => {
    if (!(ex instanceof CallExchange)) return ANSWERED;
    const mock = ex.route === null ? undefined : engine.method(ex.route.path.slice(1));
    if (mock === undefined) return problem('MOCK_ERR_GRPC_UNKNOWN_METHOD', { method: ex.path }, { logged: true });
    const replay = recordings();
    ex.answer = new CallAnswer(mock, replay?.replaying === true ? replay : undefined);
    return ANSWERED;
  };
}

import type { Deadline, Metadata } from '@grpc/grpc-js';
import { GRPC, grpcStatusName, httpOfGrpc } from '../../../common/grpc-status.js';
import { grpcStatusOf, type Answer, type Exchange } from '../../chain/exchange/index.js';
import type { Dispatch } from '../../chain/index.js';
import type { ProtocolLog } from '../../control/logging/index.js';
import { CallExchange, type CallAnswer, type GrpcTape } from '../../terminal/grpc/index.js';

/** What every grpc-js server call has, whatever its mode (grpc-js does not export its own name for it). */
export interface SurfaceCall {
  readonly metadata: Metadata;
  getPeer(): string;
  getDeadline(): Deadline;
  on(event: 'cancelled', listener: () => void): unknown;
  once(event: 'cancelled', listener: () => void): unknown;
}

/** How a call ends when it does not end well: the status, its message, the trailers (rich details included). */
export interface CallFailure {
  code: number;
  message: string;
  /** Serialized google.rpc.Status, sent as grpc-status-details-bin. */
  details?: Buffer;
  trailers?: Record<string, string>;
}

/** Metadata as the chain reads headers: lower-case keys, text values (binary keys left out), repeats joined. */
function headersOf(metadata: Metadata): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, values] of Object.entries(metadata.toJSON())) {
    if (key.endsWith('-bin')) continue;
    headers[key] = (values as unknown[]).map(String).join(', ');
  }
  return headers;
}

/** A gRPC exchange's part of its request-log entry: the call as it ended (set by CallRun.end, or by the HTTP bridge). */
export function describeCall(ex: Exchange): ProtocolLog | undefined {
  const grpc = ex.keptLocals?.grpc;
  return grpc === undefined ? undefined : { grpc };
}

/** `ipv4:127.0.0.1:5000`, `ipv6:[::1]:5000` or `127.0.0.1:5000` → the address without the port. */
const peerAddress = (peer: string): string => peer.replace(/^ipv[46]:/, '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');

/**
 * One gRPC call on the wire and as the chain sees it: an exchange (POST /<Service>/<Method>, the
 * metadata as headers, no body) that enters the chain once when the call starts (the stages, then
 * the terminal, runtime/terminal/grpc, which gives what answers the call), and is written (the
 * request log, statistics, the stages' hooks) once when it ends, however it ends.
 */
export class CallRun {
  readonly ex: CallExchange;
  messagesIn = 0;
  messagesOut = 0;
  /** Latency chaos: held before every message the mock sends. */
  holdMs = 0;
  private ended = false;
  /** Pending sleeps: a cancel ends them at once. */
  private readonly sleeping = new Map<NodeJS.Timeout, () => void>();
  private cancelledFlag = false;
  private readonly startedAt = performance.now();
  /** The fixture file a replayed call was answered from (below core.fixtures.dir). */
  private fixture: string | undefined;

  constructor(
    private readonly dispatch: Dispatch,
    readonly call: SurfaceCall,
    path: string,
    /** Given when the call is recorded: told every frame as it goes, and the end. */
    private tape?: GrpcTape,
  ) {
    this.ex = new CallExchange({ method: 'POST', path, headers: headersOf(call.metadata), client: peerAddress(call.getPeer()) });
    call.on('cancelled', () => {
      this.cancelledFlag = true;
      // the call's end was the client's (or its deadline's), not an answer: not recorded
      this.unrecorded();
      for (const [timer, wake] of this.sleeping) {
        clearTimeout(timer);
        wake();
      }
      this.sleeping.clear();
      const deadline = call.getDeadline();
      const passed = deadline instanceof Date ? deadline.getTime() <= Date.now() : Number.isFinite(deadline) && deadline <= Date.now();
      this.end(passed ? GRPC.DEADLINE_EXCEEDED : GRPC.CANCELLED, passed ? 'deadline exceeded' : 'cancelled by the client');
    });
  }

  get cancelled(): boolean {
    return this.cancelledFlag;
  }

  /** The call has ended (end was called): later events of it change nothing. */
  get over(): boolean {
    return this.ended;
  }

  /** A message from the client. */
  received(message: object): void {
    this.messagesIn++;
    this.keep('in', message);
  }

  /** A message the mock sent. */
  sent(message: object): void {
    this.messagesOut++;
    this.keep('out', message);
  }

  /** The call is answered from a recording: the request log says which, and it is not recorded again. */
  replayed(fixture: string): void {
    this.fixture = fixture;
    this.unrecorded();
  }

  /** The call is not recorded (refused before it was answered, cancelled, replayed). */
  unrecorded(): void {
    this.tape?.abandon();
    this.tape = undefined;
  }

  private keep(dir: 'in' | 'out', message: object): void {
    this.tape?.frame(Math.round(performance.now() - this.startedAt), dir, message);
  }

  /** The chain: what answers the call (with latency to hold), or the failure a stage or the terminal answered (after its hold). */
  async admit(): Promise<CallAnswer | CallFailure> {
    const answer = await this.dispatch.answer(this.ex);
    const hold = answer.delivery?.holdMs ?? 0;
    const end = answer.delivery?.end;
    const answerer = this.ex.answer;
    if (answer.status < 400 && end === undefined && answerer !== undefined) {
      this.holdMs = hold;
      return answerer;
    }
    this.refused(answer);
    await this.sleep(hold);
    if (end === 'drop' || end === 'reset') return { code: GRPC.UNAVAILABLE, message: answer.error ?? 'the connection was dropped by the mock (chaos)' };
    return { code: grpcStatusOf(answer), message: answer.error ?? `HTTP ${answer.status}` };
  }

  /** The call is refused with `answer` (a stage's, the terminal's, the server's), written as it is to the request log; not the API's answer, so not recorded (as HTTP fixtures). */
  refused(answer: Answer): void {
    this.refusal = answer;
    this.unrecorded();
  }

  /** Resolves after `ms` (at once for 0), early when the call is cancelled. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.cancelledFlag) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeping.delete(timer);
        resolve();
      }, ms);
      this.sleeping.set(timer, resolve);
    });
  }

  /** The answer a stage refused the call with, written as it was (its injected chaos in the request log). */
  private refusal: Answer | undefined;

  /** Records how the call ended, once: the request log and statistics, and the recording (with the status's trailers and details). */
  end(code: number, message: string, status?: { trailers?: Record<string, string>; details?: Buffer }): void {
    if (this.ended) return;
    this.ended = true;
    this.ex.locals.grpc = { status: grpcStatusName(code), code, messages_in: this.messagesIn, messages_out: this.messagesOut, ...(this.fixture === undefined ? {} : { fixture: this.fixture }) };
    const source = this.fixture === undefined ? 'generated' : 'fixture';
    const answer: Answer = this.refusal ?? { status: httpOfGrpc(code), headers: [], body: '', ...(code === GRPC.OK ? {} : { error: message }), source };
    this.dispatch.written(this.ex, answer);
    const tape = this.tape;
    this.tape = undefined;
    if (tape === undefined) return;
    const trailers = status?.trailers === undefined || Object.keys(status.trailers).length === 0 ? undefined : status.trailers;
    tape.end({
      ts: Math.round(performance.now() - this.startedAt),
      status: grpcStatusName(code),
      code,
      message,
      ...(trailers === undefined ? {} : { trailers }),
      ...(status?.details === undefined ? {} : { details: status.details.toString('base64') }),
    });
  }
}

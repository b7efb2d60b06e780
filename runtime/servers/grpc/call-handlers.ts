import type { Logger } from 'pino';
import { Metadata, type handleBidiStreamingCall, type handleClientStreamingCall, type handleServerStreamingCall, type handleUnaryCall, type MethodDefinition, type sendUnaryData, type ServerErrorResponse, type UntypedHandleCall } from '@grpc/grpc-js';
import type { GrpcMode } from '../../../common/grpc/recording.js';
import { PROBLEMS } from '../../../common/errors.js';
import { GRPC } from '../../../common/grpc-status.js';
import { problem } from '../../chain/exchange/index.js';
import type { Dispatch, Router } from '../../chain/index.js';
import type { Redaction } from '../../control/logging/index.js';
import { CallAnswer, type Answered, type BidiSession, type GrpcRecordings, type Metadata as RequestMetadata, type MethodMock, type Reply, type StreamPlan } from '../../terminal/grpc/index.js';
import { CallRun, type CallFailure, type SurfaceCall } from './call-run.js';
import type { ConcurrencyGate } from './concurrency-gate.js';
import { UNDECODABLE } from './undecodable.js';

type Message = Record<string, unknown>;
type Timed = { message: object; delayMs: number };

/** Request metadata as rules and templates read it: text values by lower-case key (binary keys left out). */
function metadataOf(call: SurfaceCall): RequestMetadata {
  const out: RequestMetadata = {};
  for (const [key, values] of Object.entries(call.metadata.toJSON())) {
    if (key.endsWith('-bin')) continue;
    const texts = (values as unknown[]).map(String);
    out[key] = texts.length === 1 ? texts[0] : texts;
  }
  return out;
}

/** Request metadata as a recording keeps it: credentials redacted as the request log redacts headers, binary values as base64. */
function recordedMetadata(call: SurfaceCall, redaction: Redaction): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(call.metadata.toJSON())) {
    const texts = (values as unknown[]).map((v) => redaction.headers({ [key]: Buffer.isBuffer(v) ? v.toString('base64') : String(v) })[key]);
    out[key] = texts.length === 1 ? texts[0] : texts;
  }
  return out;
}

export interface CallContext {
  dispatch: Dispatch;
  /** Routes a call refused before it entered the chain (a message that does not decode): statistics count it under its method. */
  router: Router;
  gate: ConcurrencyGate;
  /** core.fixtures: calls are recorded here while recording is on (replay is the terminal's); absent without a fixtures folder. */
  recordings?: GrpcRecordings;
  redaction: Redaction;
  /** The process's clock (virtual while time travel is on): recordings are stamped with it. */
  now: () => number;
  /** Where a call whose answering threw is logged. */
  logger: Pick<Logger, 'error'>;
}

/** Trailers of a status, with the rich error details as grpc-status-details-bin. */
function trailersOf(trailers: Record<string, string> | undefined, details?: Buffer): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(trailers ?? {})) metadata.add(key.toLowerCase(), value);
  if (details !== undefined) metadata.add('grpc-status-details-bin', details);
  return metadata;
}

const statusOf = (failure: CallFailure): ServerErrorResponse => Object.assign(new Error(failure.message), { code: failure.code, details: failure.message, metadata: trailersOf(failure.trailers, failure.details) });

const modeOf = (mock: MethodMock): GrpcMode => (mock.clientStreaming ? (mock.serverStreaming ? 'bidi_streaming' : 'client_streaming') : mock.serverStreaming ? 'server_streaming' : 'unary');

/** The run of a call as it starts (synchronously: messages may arrive before it is admitted), recorded when recording is on. A call of no method (`mock` undefined) is not recorded. */
function open(context: CallContext, call: SurfaceCall, path: string, mock: MethodMock | undefined): CallRun {
  const { recordings } = context;
  const tape =
    mock !== undefined && recordings?.recording === true
      ? recordings.start(mock, { method: mock.path, mode: modeOf(mock), metadata: recordedMetadata(call, context.redaction), recorded_at: new Date(context.now()).toISOString() })
      : undefined;
  return new CallRun(context.dispatch, call, path, tape);
}

/** Admits a call: the concurrency limit, then the chain (its stages, then the terminal). What answers the call, or undefined when it already ended with `fail`. */
async function started(context: CallContext, run: CallRun, fail: (failure: CallFailure) => void): Promise<CallAnswer | undefined> {
  const { call } = run;
  const release = context.gate.enter(call.getPeer());
  if (release === undefined) {
    const failure = { code: GRPC.RESOURCE_EXHAUSTED, message: `grpc.concurrency_limit: at most ${context.gate.limit} calls in flight on one connection` };
    run.unrecorded();
    run.end(failure.code, failure.message);
    fail(failure);
    return undefined;
  }
  call.once('cancelled', release);
  const finish = run.end.bind(run);
  run.end = (code, message, status) => {
    release();
    finish(code, message, status);
  };
  const admitted = await run.admit();
  if (!(admitted instanceof CallAnswer)) {
    run.end(admitted.code, admitted.message);
    fail(admitted);
    return undefined;
  }
  return admitted;
}

/**
 * A message that did not decode as the method's request type ends the call with INTERNAL, as
 * grpc-js would (MOCK_ERR_GRPC_UNDECODABLE), logged and counted under its method like every call.
 * True when `message` was such a message.
 */
function undecodable(context: CallContext, run: CallRun, message: unknown, fail: (failure: CallFailure) => void): boolean {
  if (message !== UNDECODABLE) return false;
  if (run.over) return true;
  const answer = problem('MOCK_ERR_GRPC_UNDECODABLE', {}, { logged: true });
  if (run.ex.route === null) context.router.route(run.ex);
  run.refused(answer);
  const failure = { code: PROBLEMS.MOCK_ERR_GRPC_UNDECODABLE.grpc, message: answer.error as string };
  run.end(failure.code, failure.message);
  fail(failure);
  return true;
}

/**
 * Ends a call whose answering threw with INTERNAL (MOCK_ERR_INTERNAL), logged with its stack: a
 * handler started with `void` must never leave a rejection behind, nor a client waiting for its deadline.
 */
function internalFailure(context: CallContext, run: CallRun, path: string, fail: (failure: CallFailure) => void): (e: unknown) => void {
  return (e) => {
    context.logger.error({ err: e, method: path }, 'gRPC call failed');
    if (run.cancelled) return;
    const failure = { code: PROBLEMS.MOCK_ERR_INTERNAL.grpc, message: PROBLEMS.MOCK_ERR_INTERNAL.detail({}) };
    run.end(failure.code, failure.message);
    fail(failure);
  };
}

/** Sends messages in order, each after its delay and the latency chaos holds; false when the call was cancelled meanwhile. */
async function play(run: CallRun, messages: readonly Timed[], write: (message: object) => void): Promise<boolean> {
  for (const { message, delayMs } of messages) {
    await run.sleep(delayMs + run.holdMs);
    if (run.cancelled) return false;
    write(message);
    run.sent(message);
  }
  return !run.cancelled;
}

/** Plays a plan; when it ends in a failure, waits its delay and ends the call with it. False when the call is over. */
async function played(run: CallRun, plan: StreamPlan, write: (message: object) => void, fail: (failure: CallFailure) => void): Promise<boolean> {
  if (!(await play(run, plan.messages, write))) return false;
  if (plan.end === undefined) return true;
  await run.sleep(plan.endDelayMs ?? 0);
  if (run.cancelled) return false;
  run.end(plan.end.code, plan.end.message, plan.end);
  fail(plan.end);
  return false;
}

/** The end of a unary or client-streaming call: after the reply's delay and the latency hold, its message and OK, or its failure. */
async function replied(run: CallRun, reply: Answered<Reply>, callback: sendUnaryData<object>): Promise<void> {
  if (reply.fixture !== undefined) run.replayed(reply.fixture);
  await run.sleep(reply.delayMs + run.holdMs);
  if (run.cancelled) return;
  if ('failure' in reply) {
    run.end(reply.failure.code, reply.failure.message, reply.failure);
    callback(statusOf(reply.failure));
    return;
  }
  run.sent(reply.message);
  run.end(GRPC.OK, 'OK', { trailers: reply.trailers });
  callback(null, reply.message, trailersOf(reply.trailers));
}

/**
 * The grpc-js handler of one method, by its streaming mode: the call enters the chain when it
 * starts, and what the terminal gives (a recording when replay has one, else the method's mock)
 * answers it, written here message by message. `mock` undefined: a method the protos do not
 * declare (a bidirectional handler, which takes whatever the client sends), refused by the terminal.
 */
export function handlerFor(definition: Pick<MethodDefinition<object, object>, 'requestStream' | 'responseStream'>, mock: MethodMock | undefined, path: string, context: CallContext): UntypedHandleCall {
  if (!definition.requestStream && !definition.responseStream) {
    const unary: handleUnaryCall<Message, object> = (call, callback) => {
      const run = open(context, call, path, mock);
      const fail = (failure: CallFailure): void => callback(statusOf(failure));
      if (undecodable(context, run, call.request, fail)) return;
      run.received(call.request);
      void (async () => {
        const answer = await started(context, run, fail);
        if (answer !== undefined) await replied(run, await answer.unary(call.request, metadataOf(call)), callback);
      })().catch(internalFailure(context, run, path, fail));
    };
    return unary;
  }
  if (!definition.requestStream) {
    const serverStream: handleServerStreamingCall<Message, object> = (call) => {
      const run = open(context, call, path, mock);
      const fail = (failure: CallFailure): void => void call.emit('error', statusOf(failure));
      if (undecodable(context, run, call.request, fail)) return;
      run.received(call.request);
      void (async () => {
        const answer = await started(context, run, fail);
        if (answer === undefined) return;
        const plan = await answer.serverStream(call.request, metadataOf(call));
        if (plan.fixture !== undefined) run.replayed(plan.fixture);
        if (!(await played(run, plan, (message) => call.write(message), fail))) return;
        run.end(GRPC.OK, 'OK');
        call.end();
      })().catch(internalFailure(context, run, path, fail));
    };
    return serverStream;
  }
  if (!definition.responseStream) {
    const clientStream: handleClientStreamingCall<Message, object> = (call, callback) => {
      const received: Message[] = [];
      const run = open(context, call, path, mock);
      const fail = (failure: CallFailure): void => callback(statusOf(failure));
      const admitted = started(context, run, fail);
      call.on('data', (message: Message) => {
        if (undecodable(context, run, message, fail) || run.over) return;
        received.push(message);
        run.received(message);
      });
      call.on('end', () => {
        void (async () => {
          const answer = await admitted;
          if (answer === undefined || run.cancelled || run.over) return;
          await replied(run, await answer.clientStream(received, metadataOf(call)), callback);
        })().catch(internalFailure(context, run, path, fail));
      });
    };
    return clientStream;
  }
  const bidi: handleBidiStreamingCall<Message, object> = (call) => {
    const fail = (failure: CallFailure): void => void call.emit('error', statusOf(failure));
    const run = open(context, call, path, mock);
    const failed = internalFailure(context, run, path, fail);
    let session: BidiSession | undefined;
    const write = (reply: object): void => void call.write(reply);
    // each step runs after the previous one went out; a step that throws ends the call, and the later ones see false
    let queue: Promise<boolean> = Promise.resolve(true);
    const then = (step: (ok: boolean) => Promise<boolean>): void => {
      queue = queue.then(step).catch((e: unknown) => {
        failed(e);
        return false;
      });
    };
    // once admitted, the session (a recording when one is replayed): its opening lines, then each client message's answer in the order they came
    then(async () => {
      const answer = await started(context, run, fail);
      if (answer === undefined) return false;
      const opened = await answer.bidi(metadataOf(call));
      if (opened.fixture !== undefined) run.replayed(opened.fixture);
      session = opened.session;
      return played(run, session.start(), write, fail);
    });
    call.on('data', (message: Message) => {
      if (undecodable(context, run, message, fail)) return;
      run.received(message);
      then(async (ok) => ok && !run.over && session !== undefined && (await played(run, session.received(message), write, fail)));
    });
    call.on('end', () => {
      then(async (ok) => {
        if (!ok || run.over || session === undefined || !(await played(run, session.end(), write, fail))) return false;
        run.end(GRPC.OK, 'OK');
        call.end();
        return false;
      });
    });
  };
  return bidi;
}

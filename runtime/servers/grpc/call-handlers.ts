import { Metadata, type handleBidiStreamingCall, type handleClientStreamingCall, type handleServerStreamingCall, type handleUnaryCall, type MethodDefinition, type ServerErrorResponse, type UntypedHandleCall } from '@grpc/grpc-js';
import { GRPC } from '../../../common/grpc-status.js';
import type { Dispatch } from '../../chain/index.js';
import type { Metadata as RequestMetadata, MethodMock, StreamPlan } from '../../terminal/grpc/index.js';
import { CallRun, type CallFailure, type SurfaceCall } from './call-run.js';
import type { ConcurrencyGate } from './concurrency-gate.js';

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

export interface CallContext {
  dispatch: Dispatch;
  gate: ConcurrencyGate;
}

/** Trailers of a status, with the rich error details as grpc-status-details-bin. */
function trailersOf(trailers: Record<string, string> | undefined, details?: Buffer): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(trailers ?? {})) metadata.add(key.toLowerCase(), value);
  if (details !== undefined) metadata.add('grpc-status-details-bin', details);
  return metadata;
}

const statusOf = (failure: CallFailure): ServerErrorResponse => Object.assign(new Error(failure.message), { code: failure.code, details: failure.message, metadata: trailersOf(failure.trailers, failure.details) });

/** Starts a call: the concurrency limit, then the call stages (chaos). Resolves with the run, or undefined when the call already ended with `fail`. */
async function started(context: CallContext, call: SurfaceCall, path: string, fail: (failure: CallFailure) => void): Promise<CallRun | undefined> {
  const run = new CallRun(context.dispatch, call, path);
  const release = context.gate.enter(call.getPeer());
  if (release === undefined) {
    const failure = { code: GRPC.RESOURCE_EXHAUSTED, message: `grpc.concurrency_limit: at most ${context.gate.limit} calls in flight on one connection` };
    run.end(failure.code, failure.message);
    fail(failure);
    return undefined;
  }
  call.once('cancelled', release);
  const finish = run.end.bind(run);
  run.end = (code, message) => {
    release();
    finish(code, message);
  };
  const refused = await run.admit();
  if (refused !== undefined) {
    run.end(refused.code, refused.message);
    fail(refused);
    return undefined;
  }
  return run;
}

/** Sends messages in order, each after its delay and the latency chaos holds; false when the call was cancelled meanwhile. */
async function play(run: CallRun, messages: readonly Timed[], write: (message: object) => void): Promise<boolean> {
  for (const { message, delayMs } of messages) {
    await run.sleep(delayMs + run.holdMs);
    if (run.cancelled) return false;
    write(message);
    run.messagesOut++;
  }
  return !run.cancelled;
}

/** Plays a plan; when it ends in a failure, waits its delay and ends the call with it. False when the call is over. */
async function played(run: CallRun, plan: StreamPlan, write: (message: object) => void, fail: (failure: CallFailure) => void): Promise<boolean> {
  if (!(await play(run, plan.messages, write))) return false;
  if (plan.end === undefined) return true;
  await run.sleep(plan.endDelayMs ?? 0);
  if (run.cancelled) return false;
  run.end(plan.end.code, plan.end.message);
  fail(plan.end);
  return false;
}

/** The grpc-js handler of one method, by its streaming mode, answering from the engine's mock of it. */
export function handlerFor(definition: MethodDefinition<object, object>, mock: MethodMock, path: string, context: CallContext): UntypedHandleCall {
  if (!definition.requestStream && !definition.responseStream) {
    const unary: handleUnaryCall<Message, object> = (call, callback) => {
      void (async () => {
        const run = await started(context, call, path, (failure) => callback(statusOf(failure)));
        if (run === undefined) return;
        run.messagesIn = 1;
        const reply = mock.unary(call.request, metadataOf(call));
        await run.sleep(reply.delayMs + run.holdMs);
        if (run.cancelled) return;
        if ('failure' in reply) {
          run.end(reply.failure.code, reply.failure.message);
          callback(statusOf(reply.failure));
          return;
        }
        run.messagesOut = 1;
        run.end(GRPC.OK, 'OK');
        callback(null, reply.message, trailersOf(reply.trailers));
      })();
    };
    return unary;
  }
  if (!definition.requestStream) {
    const serverStream: handleServerStreamingCall<Message, object> = (call) => {
      void (async () => {
        const fail = (failure: CallFailure): void => void call.emit('error', statusOf(failure));
        const run = await started(context, call, path, fail);
        if (run === undefined) return;
        run.messagesIn = 1;
        if (!(await played(run, mock.serverStream(call.request, metadataOf(call)), (message) => call.write(message), fail))) return;
        run.end(GRPC.OK, 'OK');
        call.end();
      })();
    };
    return serverStream;
  }
  if (!definition.responseStream) {
    const clientStream: handleClientStreamingCall<Message, object> = (call, callback) => {
      const received: Message[] = [];
      const admitted = started(context, call, path, (failure) => callback(statusOf(failure)));
      call.on('data', (message: Message) => received.push(message));
      call.on('end', () => {
        void (async () => {
          const run = await admitted;
          if (run === undefined || run.cancelled) return;
          run.messagesIn = received.length;
          const reply = mock.clientStream(received, metadataOf(call));
          await run.sleep(reply.delayMs + run.holdMs);
          if (run.cancelled) return;
          if ('failure' in reply) {
            run.end(reply.failure.code, reply.failure.message);
            callback(statusOf(reply.failure));
            return;
          }
          run.messagesOut = 1;
          run.end(GRPC.OK, 'OK');
          callback(null, reply.message, trailersOf(reply.trailers));
        })();
      });
    };
    return clientStream;
  }
  const bidi: handleBidiStreamingCall<Message, object> = (call) => {
    const fail = (failure: CallFailure): void => void call.emit('error', statusOf(failure));
    const admitted = started(context, call, path, fail);
    const session = mock.bidi(metadataOf(call));
    const write = (reply: object): void => void call.write(reply);
    // the opening lines, then each client message's answer in the order they came, each after the previous went out
    let queue: Promise<CallRun | undefined> = admitted.then(async (run) => (run !== undefined && (await played(run, session.start(), write, fail)) ? run : undefined));
    call.on('data', (message: Message) => {
      queue = queue.then(async (run) => {
        if (run === undefined) return undefined;
        run.messagesIn++;
        return (await played(run, session.received(message), write, fail)) ? run : undefined;
      });
    });
    call.on('end', () => {
      queue = queue.then(async (run) => {
        if (run === undefined || !(await played(run, session.end(), write, fail))) return undefined;
        run.end(GRPC.OK, 'OK');
        call.end();
        return undefined;
      });
    });
  };
  return bidi;
}

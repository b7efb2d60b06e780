import type { Render } from '../../../common/contract/index.js';
import { templateEscapeOf, type ReplayScript, type ScriptStep, type WsMessage } from '../../../common/websocket/index.js';
import { templateRenderer } from '../../template/index.js';
import type { WsBehaviour, WsSession } from './session.js';

/** Close code when no client message matched a wait in time (4000 + HTTP 408); docs/websocket.md. */
export const MESSAGE_TIMEOUT_CLOSE = 4408;
/** Client messages kept for a wait the script has not reached yet; older ones go first. */
const INBOX_LIMIT = 1000;

/** A script read once, its templates compiled: every connection that plays it shares it. */
export interface CompiledScript {
  /** Where it came from, for the log: `script chat.jsonl`. */
  name: string;
  /** script (a file of the project), fixture (a recorded session). */
  source: 'script' | 'fixture';
  steps: ReadonlyArray<ScriptStep & { render?: Render }>;
}

export function compileScript(name: string, script: ReplayScript): CompiledScript {
  return {
    name,
    source: 'script',
    steps: script.steps.map((step) =>
      step.dir === 'out' && step.text !== undefined && step.binary === undefined ? { ...step, render: templateRenderer(step.text, templateEscapeOf(step.text), script.vars) } : step,
    ),
  };
}

/**
 * Plays a script on one connection. `out` lines go at `ts` after the opening (at once when the
 * script is late, after a wait); a line with `waitFor` (every `in` line) holds the script until a
 * client message matches, at most websocket.message_timeout, then closes with 4408. Client
 * messages that arrive before the script reaches a wait are kept for it, in order; one that
 * matches releases the wait and the earlier ones are passed over. Captured values and the
 * message itself are what later templates read. Sending pauses while the client reads too slowly.
 */
export function scriptPlayer(script: CompiledScript): WsBehaviour {
  let next = 0;
  let timer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let waitingForDrain = false;
  const inbox: WsMessage[] = [];

  const advance = (session: WsSession): void => {
    session.cancel(timer);
    timer = undefined;
    while (next < script.steps.length && session.open) {
      const step = script.steps[next];
      if (step.waitFor !== undefined && !consumeMatch(session, step)) {
        deadline ??= session.later(session.limits.messageTimeoutMs, () => timedOut(session, step));
        return;
      }
      session.cancel(deadline);
      deadline = undefined;
      if (step.dir === 'in') {
        next++;
        continue;
      }
      const wait = step.ts - session.elapsed();
      if (wait >= 1) {
        timer = session.later(wait, () => advance(session));
        return;
      }
      if (session.congested) {
        if (!waitingForDrain) {
          waitingForDrain = true;
          session.drained(() => {
            waitingForDrain = false;
            advance(session);
          });
        }
        return;
      }
      next++;
      if (step.binary !== undefined) session.send(step.binary);
      else if (step.render !== undefined) session.send(session.render(step.render));
      if (step.close !== undefined) session.close(step.close.code, step.close.reason);
    }
  };

  const consumeMatch = (session: WsSession, step: ScriptStep): boolean => {
    for (let i = 0; i < inbox.length; i++) {
      const captured = step.waitFor?.test(inbox[i]);
      if (captured === undefined) continue;
      session.remember(inbox[i], captured);
      inbox.splice(0, i + 1);
      return true;
    }
    return false;
  };

  const timedOut = (session: WsSession, step: ScriptStep): void => {
    const expected = step.waitForSource === undefined ? 'a client message' : `a message matching ${step.waitForSource}`;
    session.fail(MESSAGE_TIMEOUT_CLOSE, `line ${step.line} waited ${session.limits.messageTimeoutMs} ms for ${expected}`);
  };

  return {
    name: script.name,
    source: script.source,
    start: (session) => advance(session),
    message(session, message) {
      if (inbox.length === INBOX_LIMIT) inbox.shift();
      inbox.push(message);
      if (deadline !== undefined) advance(session);
    },
    stop() {
      inbox.length = 0;
    },
  };
}

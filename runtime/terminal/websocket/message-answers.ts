import type { Render } from '../../../common/contract/index.js';
import { SCRIPT_VARS, templateEscapeOf, type MessageMatcher } from '../../../common/websocket/index.js';
import { templateRenderer } from '../../template/index.js';
import type { WsBehaviour, WsSession } from './session.js';

/** One compiled answer of a route's `messages`: the first whose matcher takes a message answers it. */
export interface CompiledAnswer {
  matcher: MessageMatcher;
  replies: ReadonlyArray<Render | Uint8Array>;
  delayMs: number;
  close?: { code: number; reason: string };
}

export interface CompiledAnswers {
  onOpen: ReadonlyArray<Render | Uint8Array>;
  answers: readonly CompiledAnswer[];
  /** What a message no answer takes gets: nothing, itself back, or a close (1003). */
  unmatched: 'ignore' | 'echo' | 'close';
}

/** Templates of replies see the captures of every answer of the route and `{{message}}`. */
export function replyRenderer(text: string, vars: readonly string[]): Render {
  return templateRenderer(text, templateEscapeOf(text), [...SCRIPT_VARS, ...vars]);
}

/** Close code for a message no answer takes when `unmatched: close` (RFC 6455: data it cannot accept). */
export const UNMATCHED_CLOSE = 1003;

/**
 * Template answers to matching client messages (a route's `messages`): the first answer whose
 * match holds sends its replies, each rendered against the handshake, the message and what it
 * captured, after `delay_ms`; it may close the connection after them.
 */
export function messageAnswers(route: CompiledAnswers): WsBehaviour {
  const send = (session: WsSession, replies: ReadonlyArray<Render | Uint8Array>): void => {
    for (const reply of replies) session.send(reply instanceof Uint8Array ? reply : session.render(reply));
  };
  return {
    name: 'answers',
    source: 'script',
    start: (session) => send(session, route.onOpen),
    message(session, message) {
      for (const answer of route.answers) {
        const captured = answer.matcher.test(message);
        if (captured === undefined) continue;
        session.remember(message, captured);
        const run = (): void => {
          send(session, answer.replies);
          if (answer.close !== undefined) session.close(answer.close.code, answer.close.reason);
        };
        if (answer.delayMs > 0) session.later(answer.delayMs, run);
        else run();
        return;
      }
      if (route.unmatched === 'echo') session.send(message);
      else if (route.unmatched === 'close') session.fail(UNMATCHED_CLOSE, 'no answer of this route matches the message');
    },
    stop: () => undefined,
  };
}

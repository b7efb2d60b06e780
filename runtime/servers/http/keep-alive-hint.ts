import type { Answer, Exchange } from '../../chain/exchange/index.js';

/** uWebSockets.js closes a connection idle this long (HTTP_IDLE_TIMEOUT_S, fixed in the library). */
export const UWS_IDLE_TIMEOUT_SECONDS = 10;

const HINT: ReadonlyArray<[string, string]> = [
  ['connection', 'keep-alive'],
  ['keep-alive', `timeout=${UWS_IDLE_TIMEOUT_SECONDS}`],
];

const CLOSE = /(?:^|,)\s*close\s*(?:,|$)/i;

/** Whether the connection outlives this answer: neither the client nor the answer's delivery ends it. */
export function keepsConnection(ex: Exchange, answer: Answer): boolean {
  const asked = ex.headers.connection;
  const delivery = answer.delivery;
  return (delivery === undefined || (delivery.end === undefined && delivery.truncateAfter === undefined)) && (asked === undefined || !CLOSE.test(asked));
}

/**
 * http.keepalive_hint (RFC 9112 9.3; the Keep-Alive field is HTTP/1.0's, still read by clients and
 * proxies that size their pools by it): the answer with `Connection: keep-alive` and the idle
 * timeout, so a client knows how long an idle connection stays usable. uWS adds neither itself.
 */
export const withKeepAliveHint = (answer: Answer): Answer => ({ ...answer, headers: [...answer.headers, ...HINT] });

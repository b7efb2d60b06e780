import { problem } from '../../chain/exchange/index.js';
import type { Answer } from '../../chain/exchange/index.js';

/** What a writer sends instead of an answer it cannot write: the catalogue's 500, the reason kept for the request log. */
export function failedAnswer(reason: string): Answer {
  return { ...problem('MOCK_ERR_INTERNAL', {}), error: `the answer could not be written: ${reason}` };
}

/**
 * Hot path: why no HTTP writer can send `answer` (a status outside 100-599, a body neither text nor
 * bytes), or undefined. An answer that ends its connection unanswered (chaos's tcp_reset and
 * tcp_close) writes nothing, so nothing of it is judged.
 */
export function problemOf(answer: Answer): string | undefined {
  const { status, body, delivery } = answer;
  if (delivery !== undefined && (delivery.end === 'drop' || delivery.end === 'reset')) return undefined;
  if (!Number.isInteger(status) || status < 100 || status > 599) return `its status ${String(status)} is not an HTTP status`;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return `its body is ${body === null ? 'null' : typeof body}, not text or bytes`;
  return undefined;
}

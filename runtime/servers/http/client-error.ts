import type { Duplex } from 'node:stream';
import { PROBLEMS } from '../../../common/errors.js';
import { problem } from '../../chain/exchange/index.js';
import { statusLine } from './status-line.js';

/** node:http's parse errors that mean the head was too large, and the status it would answer. */
const STATUS_OF: Readonly<Record<string, number>> = { HPE_HEADER_OVERFLOW: 431, ERR_HTTP_REQUEST_TIMEOUT: 408 };

/**
 * A request node:http's parser refused (llhttp: duplicate Content-Length, obs-fold, a bad
 * Transfer-Encoding …) gets the catalogue's problem answer instead of node's empty 400, and the
 * connection is closed: what follows the bad bytes cannot be trusted to be a request.
 */
export function answerClientError(error: Error & { code?: string; reason?: string }, socket: Duplex): void {
  if (!socket.writable || (error.code !== undefined && !error.code.startsWith('HPE_') && STATUS_OF[error.code] === undefined)) {
    socket.destroy();
    return;
  }
  const status = STATUS_OF[error.code ?? ''] ?? PROBLEMS.MOCK_ERR_REQUEST_MALFORMED.status;
  const answer = problem('MOCK_ERR_REQUEST_MALFORMED', { reason: (error.reason ?? error.message).replace(/[^\x20-\x7e]/g, '?') }, { status });
  const body = Buffer.from(answer.body as string);
  const head = [`HTTP/1.1 ${statusLine(status)}`, ...answer.headers.map(([name, value]) => `${name}: ${value}`), `content-length: ${body.length}`, 'connection: close', '', ''].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

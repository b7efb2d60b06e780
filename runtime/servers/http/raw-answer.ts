import type { Answer } from '../../chain/exchange/index.js';
import { statusLine } from './status-line.js';

/** An HTTP answer written raw on a socket the `ws` package has not taken over (a refused upgrade). */
export function rawHttpAnswer(answer: Omit<Answer, 'source'>): Buffer {
  const body = Buffer.from(answer.body);
  const head = [`HTTP/1.1 ${statusLine(answer.status)}`, ...answer.headers.map(([name, value]) => `${name}: ${value}`), `content-length: ${body.byteLength}`, 'connection: close'];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

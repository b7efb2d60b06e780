import { readableAddress, type Answer } from '../../chain/exchange/index.js';
import type { WsHandshake } from '../../terminal/websocket/index.js';
import { statusLine } from '../http/index.js';

/** The first subprotocol the client offers: clients that insist on one (graphql-ws, mqtt) get it, others none. */
export function chosenProtocol(offered: string | undefined): string {
  if (offered === undefined) return '';
  return offered.split(',')[0]?.trim() ?? '';
}

export function handshakeOf(path: string, rawQuery: string, headers: Record<string, string>, client: string): WsHandshake {
  return { path, rawQuery, headers, client: readableAddress(client) };
}

/** An HTTP answer written raw on a socket the `ws` package has not taken over (a refused upgrade). */
export function rawHttpAnswer(answer: Answer): Buffer {
  const body = Buffer.from(answer.body);
  const head = [`HTTP/1.1 ${statusLine(answer.status)}`, ...answer.headers.map(([name, value]) => `${name}: ${value}`), `content-length: ${body.byteLength}`, 'connection: close'];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

import { readableAddress } from '../../chain/exchange/index.js';
import type { WsHandshake } from '../../terminal/websocket/index.js';

/** The first subprotocol the client offers: clients that insist on one (graphql-ws, mqtt) get it, others none. */
export function chosenProtocol(offered: string | undefined): string {
  if (offered === undefined) return '';
  return offered.split(',')[0]?.trim() ?? '';
}

export function handshakeOf(path: string, rawQuery: string, headers: Record<string, string>, client: string): WsHandshake {
  return { path, rawQuery, headers, client: readableAddress(client) };
}

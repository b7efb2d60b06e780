import type { Exchange } from '../../chain/exchange/index.js';
import type { WsHandshake } from '../../terminal/websocket/index.js';

/** The first subprotocol the client offers: clients that insist on one (graphql-ws, mqtt) get it, others none. */
export function chosenProtocol(offered: string | undefined): string {
  if (offered === undefined) return '';
  return offered.split(',')[0]?.trim() ?? '';
}

/** The upgrade request as the session reads it. */
export function handshakeOf(ex: Exchange): WsHandshake {
  return { path: ex.path, rawQuery: ex.rawQuery, headers: ex.headers, client: ex.clientAddress };
}

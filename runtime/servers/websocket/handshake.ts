import { problem, readableAddress, type Answer } from '../../chain/exchange/index.js';
import type { WsHandshake } from '../../terminal/websocket/index.js';

/** The first subprotocol the client offers: clients that insist on one (graphql-ws, mqtt) get it, others none. */
export function chosenProtocol(offered: string | undefined): string {
  if (offered === undefined) return '';
  return offered.split(',')[0]?.trim() ?? '';
}

export function handshakeOf(path: string, rawQuery: string, headers: Record<string, string>, client: string): WsHandshake {
  return { path, rawQuery, headers, client: readableAddress(client) };
}

/** 16 bytes in base64 (RFC 6455 4.1), as the `ws` package checks it. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;

/**
 * Why an upgrade request is no handshake this server takes (RFC 6455 4.2.1), checked before either
 * library sees it so that both backends refuse alike: a Sec-WebSocket-Key that is not 16 bytes in
 * base64 is 400; a version other than 13 is 426 naming the one spoken (4.4). Left to themselves,
 * uWS upgrades any version or none, and `ws` answers 400 in text/html.
 */
export function handshakeRefusal(method: string, path: string, headers: Readonly<Record<string, string | undefined>>): Answer | undefined {
  const key = headers['sec-websocket-key'];
  if (key === undefined || !KEY.test(key.trim())) return problem('MOCK_ERR_WS_HANDSHAKE', { method, path, key });
  const version = headers['sec-websocket-version'];
  if (version?.trim() !== '13') return problem('MOCK_ERR_WS_VERSION', { method, path, version }, { headers: [['sec-websocket-version', '13']] });
  return undefined;
}

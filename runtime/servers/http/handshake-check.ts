import { problem, type Answer } from '../../chain/exchange/index.js';

/** 16 bytes in base64 (RFC 6455 4.1), as the `ws` package checks it. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;

/**
 * Why an upgrade request is no handshake a server of mock takes (RFC 6455 4.2.1), checked before
 * either library sees it so that both backends refuse alike, on every WebSocket endpoint (the
 * WebSocket mock, GraphQL subscriptions, the admin's live stream): a Sec-WebSocket-Key that is not
 * 16 bytes in base64 is 400; a version other than 13 is 426 naming the one spoken (4.4). Left to
 * themselves, uWS upgrades any version or none, and `ws` answers 400 in text/html.
 */
export function handshakeRefusal(method: string, path: string, headers: Readonly<Record<string, string | undefined>>): Answer | undefined {
  const key = headers['sec-websocket-key'];
  if (key === undefined || !KEY.test(key.trim())) return problem('MOCK_ERR_WS_HANDSHAKE', { method, path, key });
  const version = headers['sec-websocket-version'];
  if (version?.trim() !== '13') return problem('MOCK_ERR_WS_VERSION', { method, path, version }, { headers: [['sec-websocket-version', '13']] });
  return undefined;
}

/** uWS reads an upgrade whose key is malformed or missing as a plain request: such a request is told what is wrong with its handshake all the same. */
export function refusedPlainUpgrade(method: string, path: string, header: (name: string) => string): Answer | undefined {
  if (header('upgrade').toLowerCase() !== 'websocket') return undefined;
  return handshakeRefusal(method, path, { 'sec-websocket-key': header('sec-websocket-key') || undefined, 'sec-websocket-version': header('sec-websocket-version') || undefined });
}

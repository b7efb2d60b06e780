import WebSocket from 'ws';
import { redactUrlCredentials, redactUrlsInText } from '../../../common/redacted.js';
import { sendableCloseCode, type WsMessage } from '../../../common/websocket/index.js';
import { isAdminCredential, upstreamTarget } from '../../chain/proxy/index.js';
import type { WsBehaviour, WsSession } from './session.js';

/** Client messages held while the upstream connection opens; more close the session (1013). */
const PENDING_LIMIT = 1000;
/** Request headers that belong to this hop's handshake, not the upstream's. */
const HANDSHAKE = new Set(['host', 'connection', 'upgrade', 'content-length', 'transfer-encoding', 'keep-alive', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol']);
/** Close code when the upstream cannot be reached or fails (RFC 6455: the server met a condition it cannot handle). */
export const UPSTREAM_FAILED_CLOSE = 1011;
/** Close code for a path the relay cannot join to the upstream's (RFC 6455: a message that violates the server's policy). */
const POLICY_CLOSE = 1008;

/**
 * Relays the connection to the upstream (proxy.upstream_url, an http(s) URL, with a ws(s) scheme;
 * the path and query joined as the HTTP proxy joins them, upstream-target.ts): what the upstream
 * sends goes to the client through the session (so it is counted, recorded and delayed by latency
 * chaos like any message of the mock), what the client sends goes upstream. The client's headers
 * go along (its credentials for the real API), never the mock's own admin credentials. A close on
 * either side closes the other. The service refuses the upgrade of a path with dot segments
 * before it gets here; one the proxy was turned on for in between is closed with 1008.
 */
export function upstreamRelay(upstream: string, timeoutMs: number): WsBehaviour {
  let socket: WebSocket | undefined;
  const pending: WsMessage[] = [];
  return {
    name: `upstream ${redactUrlCredentials(upstream.replace(/^http/i, 'ws'))}`,
    source: 'proxy',
    start(session) {
      const { path, rawQuery, headers } = session.handshake;
      const joined = upstreamTarget(upstream, path, rawQuery);
      if (joined === undefined) {
        session.fail(POLICY_CLOSE, `the relay refuses ${path}: it has a . or .. segment`);
        return;
      }
      joined.protocol = joined.protocol === 'https:' ? 'wss:' : 'ws:';
      const target = joined.href;
      const shown = redactUrlCredentials(target);
      const forwarded: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) if (!HANDSHAKE.has(name) && !isAdminCredential(name, value)) forwarded[name] = value;
      const protocols = headers['sec-websocket-protocol']?.split(',').map((p) => p.trim()).filter(Boolean);
      const ws = new WebSocket(target, protocols, { headers: forwarded, handshakeTimeout: timeoutMs, perMessageDeflate: false });
      socket = ws;
      ws.on('open', () => {
        for (const message of pending.splice(0)) ws.send(message);
      });
      ws.on('message', (data: Buffer, binary: boolean) => session.send(binary ? new Uint8Array(data) : data.toString('utf8')));
      ws.on('close', (code: number, reason: Buffer) => closeFromUpstream(session, code, reason.toString('utf8')));
      ws.on('unexpected-response', (_req, res) => {
        session.fail(UPSTREAM_FAILED_CLOSE, `the upstream ${shown} refused the upgrade with ${res.statusCode}`);
        ws.terminate();
      });
      ws.on('error', (e: Error) => session.fail(UPSTREAM_FAILED_CLOSE, `the upstream ${shown} failed: ${redactUrlsInText(e.message)}`));
    },
    message(session, message) {
      if (socket?.readyState === WebSocket.OPEN) socket.send(message);
      else if (pending.length < PENDING_LIMIT) pending.push(message);
      else session.fail(1013, `the upstream has not opened and ${PENDING_LIMIT} client messages wait for it`);
    },
    stop() {
      pending.length = 0;
      if (socket !== undefined && socket.readyState !== WebSocket.CLOSED) socket.close(1000);
    },
  };
}

/** The upstream's close, passed on: 1005 (a close frame without a code) as 1000; 1006 (no close frame) as a failure. */
function closeFromUpstream(session: WsSession, code: number, reason: string): void {
  if (sendableCloseCode(code)) session.close(code, reason);
  else if (code === 1005) session.close(1000, '');
  else session.fail(UPSTREAM_FAILED_CLOSE, `the upstream closed the connection without a close frame (${code})`);
}

import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { handshakeRefusal } from './handshake-check.js';
import { rawHttpAnswer } from './raw-answer.js';
import type { SocketEndpoint } from './socket-endpoint.js';

/** Mounts `endpoint` on a node:http server with the `ws` package: upgrades at its path; others are refused. */
export function mountSocketNode(server: http.Server, endpoint: SocketEndpoint): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: endpoint.maxMessageBytes, handleProtocols: (_offered, request) => protocolOf.get(request) ?? false });
  const protocolOf = new WeakMap<http.IncomingMessage, string>();
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0];
    const headers: Record<string, string> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i].toLowerCase();
      headers[name] = headers[name] === undefined ? req.rawHeaders[i + 1] : `${headers[name]}, ${req.rawHeaders[i + 1]}`;
    }
    if (path !== endpoint.path) {
      socket.end(rawHttpAnswer({ status: 404, headers: [['content-type', 'text/plain; charset=utf-8']], body: `no WebSocket endpoint at ${path}` }));
      return;
    }
    const refusal = handshakeRefusal(req.method ?? 'GET', path, headers);
    if (refusal !== undefined) {
      socket.end(rawHttpAnswer(refusal));
      return;
    }
    const verdict = endpoint.accept(headers);
    if ('refuse' in verdict) {
      socket.end(rawHttpAnswer(verdict.refuse));
      return;
    }
    protocolOf.set(req, verdict.protocol);
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      let closed = false;
      const connection = endpoint.open(
        {
          protocol: ws.protocol,
          send: (text) => {
            if (!closed) ws.send(text);
          },
          close: (code, reason) => {
            if (!closed) ws.close(code, reason);
          },
          buffered: () => ws.bufferedAmount,
          drop: () => ws.terminate(),
        },
        headers,
        (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/, ''),
      );
      ws.on('message', (data: Buffer) => connection.message(data.toString('utf8')));
      ws.on('close', (code: number, reason: Buffer) => {
        closed = true;
        connection.closed(code, reason.toString('utf8'));
      });
      ws.on('error', () => ws.terminate());
    });
  });
}

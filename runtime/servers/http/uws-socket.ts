import { readableAddress } from '../../chain/exchange/index.js';
import { statusLine } from './status-line.js';
import type { TemplatedApp, WebSocket } from '../uws/index.js';
import type { EndpointConnection, SocketEndpoint } from './socket-endpoint.js';

interface UserData {
  protocol: string;
  headers: Record<string, string>;
  client: string;
  connection?: EndpointConnection;
  closed?: boolean;
}

const decoder = new TextDecoder();

/** Mounts `endpoint` on a uWS app: upgrades at its path; other requests there fall through to the HTTP handler. */
export function mountSocketUws(app: TemplatedApp, endpoint: SocketEndpoint): void {
  app.ws<UserData>(endpoint.path, {
    maxPayloadLength: endpoint.maxMessageBytes,
    ...(endpoint.maxBackpressure === undefined ? {} : { maxBackpressure: endpoint.maxBackpressure }),
    idleTimeout: 120,
    upgrade: (res, req, context) => {
      const headers: Record<string, string> = {};
      req.forEach((key, value) => {
        headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
      });
      const verdict = endpoint.accept(headers);
      if ('refuse' in verdict) {
        const { status, headers: answerHeaders, body } = verdict.refuse;
        res.cork(() => {
          res.writeStatus(statusLine(status));
          for (const [name, value] of answerHeaders) res.writeHeader(name, value);
          res.end(body, true);
        });
        return;
      }
      const client = readableAddress(Buffer.from(res.getRemoteAddressAsText()).toString());
      res.upgrade<UserData>({ protocol: verdict.protocol, headers, client }, headers['sec-websocket-key'] ?? '', verdict.protocol, headers['sec-websocket-extensions'] ?? '', context);
    },
    open: (ws: WebSocket<UserData>) => {
      const data = ws.getUserData();
      data.connection = endpoint.open(
        {
          protocol: data.protocol,
          send: (text) => {
            if (data.closed !== true) ws.send(text, false);
          },
          close: (code, reason) => {
            if (data.closed !== true) ws.end(code, reason);
          },
          buffered: () => (data.closed === true ? 0 : ws.getBufferedAmount()),
          drop: () => {
            if (data.closed !== true) ws.close();
          },
        },
        data.headers,
        data.client,
      );
    },
    message: (ws, message) => ws.getUserData().connection?.message(decoder.decode(message)),
    close: (ws, code, message) => {
      const data = ws.getUserData();
      data.closed = true;
      data.connection?.closed(code, Buffer.from(message).toString('utf8'));
    },
  });
}

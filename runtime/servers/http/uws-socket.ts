import { readableAddress, type Answer } from '../../chain/exchange/index.js';
import { handshakeRefusal, refusedPlainUpgrade } from './handshake-check.js';
import { statusLine } from './status-line.js';
import type { HttpResponse, TemplatedApp, WebSocket } from '../uws/index.js';
import type { EndpointConnection, SocketEndpoint } from './socket-endpoint.js';

interface UserData {
  protocol: string;
  headers: Record<string, string>;
  client: string;
  connection?: EndpointConnection;
  closed?: boolean;
}

const decoder = new TextDecoder();

/**
 * Mounts `endpoint` on a uWS app: upgrades at its path; other requests there fall through to the
 * HTTP handler, but for upgrades whose key uWS found malformed, which it hands over as plain requests.
 */
export function mountSocketUws(app: TemplatedApp, endpoint: SocketEndpoint): void {
  app.get(endpoint.path, (res, req) => {
    const refusal = refusedPlainUpgrade('GET', endpoint.path, (name) => req.getHeader(name));
    if (refusal === undefined) req.setYield(true);
    else writeRefusal(res, refusal);
  });
  app.ws<UserData>(endpoint.path, {
    maxPayloadLength: endpoint.maxMessageBytes,
    ...(endpoint.maxBackpressure === undefined ? {} : { maxBackpressure: endpoint.maxBackpressure }),
    idleTimeout: 120,
    upgrade: (res, req, context) => {
      const headers: Record<string, string> = {};
      req.forEach((key, value) => {
        headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
      });
      const refusal = handshakeRefusal(req.getCaseSensitiveMethod().toUpperCase(), endpoint.path, headers);
      if (refusal !== undefined) return writeRefusal(res, refusal);
      const verdict = endpoint.accept(headers);
      if ('refuse' in verdict) return writeRefusal(res, verdict.refuse);
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

/** An upgrade refused over HTTP, the connection closed after it. */
function writeRefusal(res: HttpResponse, { status, headers, body }: Pick<Answer, 'status' | 'headers' | 'body'>): void {
  res.cork(() => {
    res.writeStatus(statusLine(status));
    for (const [name, value] of headers) res.writeHeader(name, value);
    res.end(body, true);
  });
}

import type http from 'node:http';
import type net from 'node:net';
import type { ControlHandler } from '../../control/admin/index.js';
import type { HttpVersion, TlsOptions } from '../../serve-options.js';
import { BothVersions } from './both-versions.js';
import { closeNode, controlListener, HTTP1 } from './node-server.js';
import { mountSocketNode } from './node-socket.js';
import { createNodeServer } from './node-tls.js';
import type { SocketEndpoint } from './socket-endpoint.js';

/** A control surface's own server (the standalone admin server, the metrics endpoint), whichever HTTP version it serves. */
export interface ControlServer {
  /** What listens (listenNode binds it). */
  readonly front: net.Server;
  /** node (node:http, node:https) or node:http2. */
  readonly library: 'node' | 'node:http2';
  readonly version: HttpVersion;
  close(graceMs?: number): Promise<void>;
}

export interface ControlServerOptions {
  tls?: TlsOptions;
  /** admin.http_version, metrics.http_version: 2 serves HTTP/2 beside HTTP/1.1 on the port (docs/http2.md). */
  version?: HttpVersion;
  /** A WebSocket endpoint (the admin's live stream): HTTP/1.1 upgrades, on either version's port. */
  socket?: SocketEndpoint;
}

/**
 * node:http for HTTP/1.1 (it reads every header name, where uWS would leave some clients hanging,
 * and is plenty fast off the mock's hot path); for HTTP/2, node:http2 through BothVersions: h2 and HTTP/1.1 by ALPN on
 * TLS, h2c by prior knowledge and HTTP/1.1 on a plain port. Both read requests with the same
 * control listener, so the access policy sees HTTP/2's :authority as the Host (requestHead).
 */
export function createControlServer(handler: ControlHandler, maxBodyBytes: number, options: ControlServerOptions = {}): ControlServer {
  const { tls, socket } = options;
  if (options.version !== '2') {
    const server = createNodeServer(tls, controlListener(handler, maxBodyBytes, HTTP1));
    if (socket !== undefined) mountSocketNode(server, socket);
    return { front: server, library: 'node', version: '1.1', close: (graceMs) => closeNode(server, graceMs) };
  }
  // a control listener writes its own answers: of a flavor it reads only the client and the version
  const both = new BothVersions(tls, controlListener(handler, maxBodyBytes, HTTP1), controlListener(handler, maxBodyBytes, { ...HTTP1, h2: true }), (http1: http.Server) => {
    if (socket !== undefined) mountSocketNode(http1, socket);
  });
  return { front: both.front, library: 'node:http2', version: '2', close: (graceMs) => both.close(graceMs) };
}

import type { HttpBackend, TlsOptions } from '../../serve-options.js';
import type { WsRouteSpec } from '../../terminal/websocket/index.js';

/** The WebSocket server's settings (mock.yaml websocket, server.ws_port); absent from MockOptions: no WebSocket server. */
export interface WebSocketOptions {
  port: number;
  /** Absolute path of websocket.replay_file: what paths no route claims play. */
  replayFile?: string;
  routes: readonly WsRouteSpec[];
  maxConnections: number;
  messageTimeoutMs: number;
  /** 0: no heartbeat. */
  heartbeatIntervalMs: number;
  /** Larger messages close the connection with 1009. */
  maxMessageBytes: number;
  /** Bytes waiting for a slow reader before scripts pause and answers close the connection (1008). */
  maxBufferedBytes: number;
  /** Which library serves: the HTTP mock's server.http_backend. */
  backend?: HttpBackend;
  /** wss://: websocket.tls, else server.tls. */
  tls?: TlsOptions;
}

/**
 * The WebSocket server's adapters (uWebSockets.js, and node:http with the `ws` package where uWS
 * has no build) and the service both drive: admission, sessions, heartbeat, logging.
 */
export { createWebSocketAdapter } from './backend.js';
export { NodeWebSocketAdapter } from './node-adapter.js';
export { UwsWebSocketAdapter } from './uws-adapter.js';
export type { WebSocketOptions } from './ws-options.js';
export { WsService, type WsConnection, type WsServiceOptions } from './ws-service.js';

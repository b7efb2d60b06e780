/**
 * uWebSockets.js, from the uws-pack repack (ESM; the official v20 binaries). Every uWS-specific
 * call stays in runtime/http and runtime/ws.
 */
import './uws-limits.js';

export * as uWS from 'uWebSockets.js';
export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';

import { createRequire } from 'node:module';

/**
 * uWebSockets.js is a native CommonJS addon whose exports ESM cannot see statically; load it
 * with require. Every uWS-specific call stays in runtime/http and runtime/ws.
 */
const require = createRequire(import.meta.url);
export const uWS = require('uWebSockets.js') as typeof import('uWebSockets.js');
export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';

export { createHttpApp, type HttpServerOptions } from './server.js';
export { listen } from './listen.js';
export { uWS } from './uws.js';

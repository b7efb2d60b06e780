export { createControlApp, mountControl, type ControlHandler, type ControlReply, type ControlRequest, type ControlResponse, type ControlStream } from './control.js';
export { createHttpApp, type HttpServerOptions, type TrafficRecorder } from './server.js';
export { listen } from './listen.js';
export { uWS } from './uws.js';

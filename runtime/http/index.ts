export { createAnswering, type Answering, type HttpServerOptions, type TrafficRecorder } from './answering.js';
export { mountControl, type ControlHandler, type ControlReply, type ControlRequest, type ControlResponse, type ControlStream } from './control.js';
export { createHttpApp } from './server.js';
export { listen } from './listen.js';
export { uWS } from './uws.js';
export { closeNode, createNodeControlServer, createNodeHttpServer, listenNode } from './node-server.js';

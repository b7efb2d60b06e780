export { mountControl } from './control.js';
export { closeNode, createNodeControlServer, listenNode, NodeHttpAdapter } from './node-server.js';
export { UwsHttpAdapter, type HttpAdapterOptions } from './server.js';
export { createHttpAdapter, NODE_HTTP_THROUGHPUT } from './backend.js';
export { loadUws, type UwsLoad } from '../uws/index.js';
export { statusLine } from './status-line.js';
export { rawHttpAnswer } from './raw-answer.js';
export { mountSocketNode } from './node-socket.js';
export type { EndpointConnection, EndpointSocket, SocketEndpoint } from './socket-endpoint.js';

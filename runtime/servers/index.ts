export { startAdminOnly, type AdminOnlyOptions } from './admin-only.js';
export { HttpMockServer, type HttpMockServerOptions } from './http-mock-server.js';
export { httpUrl } from './exposure.js';
export { sharePorts } from './uws/index.js';
export type { AdminServerOptions, MockOptions } from './mock-options.js';
export { SERVERS, type MockServer, type ServerContext, type ServerFactory } from './mock-server.js';
export { startMock, type RunningMock } from './start.js';
export { WebSocketMockServer } from './websocket-mock-server.js';
export type { WebSocketOptions } from './websocket/index.js';

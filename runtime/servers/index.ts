export { startAdminOnly, type AdminOnlyOptions } from './admin-only.js';
export { HttpMockServer, type HttpMockServerOptions } from './http-mock-server.js';
export { httpUrl } from './exposure.js';
export { startMock, type AdminServerOptions, type MockOptions, type RunningMock } from './start.js';

export type { RegisteredServer, RestartStatus, ServerControl, ServerInfo, ServerKind } from './server-info.js';
export { ServerRegistry, type ServiceState } from './server-registry.js';

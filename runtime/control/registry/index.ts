export { serverInfo, type RegisteredServer, type RestartStatus, type ServerControl, type ServerInfo, type ServerKind } from './server-info.js';
export { ServerRegistry, type ServiceState } from './server-registry.js';

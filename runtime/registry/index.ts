export type { RegisteredServer, ServerInfo, ServerKind } from './server-info.js';
export { ServerRegistry, type ServiceState } from './server-registry.js';

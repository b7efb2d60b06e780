export { ADMIN_ROUTES, MANAGEMENT_ROUTES, createAdminApi, type AdminApiOptions } from './admin-api.js';
export type { AdminContext, EnvControl, RestartStatus, ServerControl, ServerInfo } from './context.js';
export { createEnvControl } from './env-control.js';
export { AdminError } from './envelope.js';

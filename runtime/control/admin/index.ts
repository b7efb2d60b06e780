export { ADMIN_ROUTES, MANAGEMENT_ROUTES, WORKERS_APPLIED_HEADER, createAdminApi, type AdminApiOptions } from './admin-api.js';
export { BrowserToken } from './browser-token.js';
export { AccessPolicy, DEFAULT_ACCESS, DEFAULT_ALLOWED_ORIGINS, type AccessPolicyOptions } from './access-policy.js';
export type { AdminContext, ClusterView, EnvControl, RestartStatus, ServerControl, WorkerStatus } from './context.js';
export { createEnvControl } from './env-control.js';
export { editableFiles, type EditableFiles } from './file-kinds.js';
export { AdminError } from './envelope.js';
export type { ControlHandler, ControlReply, ControlRequest, ControlResponse, ControlStream, StreamSink } from './control-types.js';
export { LiveStream, LIVE_STREAM_PATH, type LiveSocket } from './live-stream.js';

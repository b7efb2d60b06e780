export { WorkspaceServer, type WorkspaceServerOptions } from './workspace-server.js';
export { watchWorkspace } from './workspace-watch.js';
export type { WorkspaceFilter } from './ignored.js';
export { pullEvery, upstreamOf } from './git-pull.js';

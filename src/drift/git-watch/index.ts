export { GitWatcher, type GitWatchOptions } from './watcher.js';
export { locateRepository } from './git.js';
export type { WatchedDescription } from './changes.js';
export { checkRemoteBranch } from './remote.js';
export { fastForward, fetchBranch, type RemoteBranch } from './remote.js';
export { gitLine } from './git.js';

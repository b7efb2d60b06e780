import { readdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface WorkspaceWatchOptions {
  dir: string;
  /** Whether a changed path (absolute; a file or a folder) is no edit of the workspace: what serving writes, logs, editors' swap files. */
  ignores(file: string): boolean;
  /** Folders never walked (what serving writes). */
  skips(folder: string): boolean;
  /** Called once per burst of events, with the paths that changed (absolute). */
  changed(paths: string[]): void;
  /** A folder that cannot be watched, one line. */
  problem(line: string): void;
}

/** Waits this long after the last event: an editor's save is several events, a checkout many. */
const SETTLE_MS = 200;

/** Folders never watched: their contents are no workspace edit, and node_modules alone can hold more folders than inotify allows. */
const NEVER = new Set(['node_modules', '.git']);

/**
 * Follows a workspace by file-system events (inotify on Linux, FSEvents on macOS, through fs.watch):
 * idle, it costs nothing. The top folder is watched on its own and each folder in it recursively,
 * except node_modules, .git and the skipped ones, which are never walked; a folder created later is
 * watched when it appears. Returns the stop.
 */
export function watchWorkspace(options: WorkspaceWatchOptions): () => void {
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let settle: NodeJS.Timeout | undefined;
  const poke = (file: string): void => {
    if (options.ignores(file)) return;
    pending.add(file);
    clearTimeout(settle);
    settle = setTimeout(() => {
      const paths = [...pending];
      pending.clear();
      options.changed(paths);
    }, SETTLE_MS);
  };
  const follow = (folder: string, recursive: boolean): void => {
    if (watchers.has(folder)) return;
    try {
      const watcher = watch(folder, { recursive }, (_event, name) => {
        const file = name === null ? folder : path.join(folder, name.toString());
        if (!recursive) followFolder(file);
        poke(file);
      });
      watcher.on('error', (e) => {
        watchers.delete(folder);
        watcher.close();
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') options.problem(unwatchable(folder, e));
      });
      watchers.set(folder, watcher);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') options.problem(unwatchable(folder, e as Error));
    }
  };
  const followFolder = (entry: string): void => {
    if (NEVER.has(path.basename(entry)) || options.skips(entry)) return;
    try {
      if (readdirSync(entry) !== undefined) follow(entry, true);
    } catch {
      // a file, or gone already
    }
  };
  follow(options.dir, false);
  for (const entry of readdirSync(options.dir, { withFileTypes: true })) if (entry.isDirectory()) followFolder(path.join(options.dir, entry.name));
  return () => {
    clearTimeout(settle);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}

function unwatchable(folder: string, e: Error): string {
  const code = (e as NodeJS.ErrnoException).code;
  const hint = code === 'ENOSPC' ? ' (the system allows no more watches: raise fs.inotify.max_user_watches)' : '';
  return `mock sync: cannot watch ${folder}: ${code ?? e.message}${hint}; changes there are not seen`;
}

import path from 'node:path';
import type { ResolvedConfig } from '../config/index.js';

/** Editors' swap and backup files (vim's .swp and 4913 probe, emacs' .#lock and ~ backups), written around every save. */
const EDITOR_FILES = /(^\.#|~$|\.sw[a-p]$|^4913$|\.tmp$)/;

/** What a scenario install and the build write under .mock/; only the choice of scenario is an edit. */
const ACTIVE_SCENARIO = path.join('.mock', 'active-scenario.json');

export interface WorkspaceFilter {
  /** Folders never walked: what serving writes (the build's output; fixtures, which are picked up live: core.fixtures.watch). */
  skips(folder: string): boolean;
  /** Changes that are no edit of the workspace: the above, .mock/ but the scenario in use, the recorder database, logs, editors' temporary files. */
  ignores(file: string): boolean;
}

export function workspaceFilter(resolved: ResolvedConfig): WorkspaceFilter {
  const { config, projectDir } = resolved;
  const absolute = (p: string): string => path.resolve(projectDir, p);
  const within = (folder: string, file: string): boolean => file === folder || file.startsWith(`${folder}${path.sep}`);
  const written = [absolute(config.build.out_dir), absolute(config.core.fixtures.dir)];
  const mockFolder = absolute('.mock');
  const database = absolute(config.recorder.db_path);
  const activeScenario = absolute(ACTIVE_SCENARIO);
  const skips = (folder: string): boolean => written.some((skipped) => within(skipped, folder));
  return {
    skips,
    ignores: (file) => {
      if (file === activeScenario) return false;
      if (skips(file) || within(mockFolder, file) || file.startsWith(database)) return true;
      const name = path.basename(file);
      return name.endsWith('.log') || EDITOR_FILES.test(name);
    },
  };
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { isMockError } from '../../../common/errors.js';
import { compareDescriptions, type CompareReport, type Severity } from '../compare/index.js';
import type { Snapshot } from './snapshot.js';

/** A description the project serves, relative to the top of the working tree. */
export interface WatchedDescription {
  /** The description: a file, or the folder of .proto files. */
  path: string;
  /** What is read with it: its folder (the files its $refs reach), or the .proto folder itself. */
  scope: string;
  /** Which server serves it: the HTTP mock reloads in place, the GraphQL and gRPC servers do not. */
  server: 'HTTP' | 'GraphQL' | 'gRPC';
}

export interface CompareSettings {
  severities?: Readonly<Record<string, Severity>>;
  allowRefs?: readonly string[];
}

/** What changed in one description: its report, or the one line saying why it cannot be read. */
export type DescriptionChange = { description: WatchedDescription; report: CompareReport } | { description: WatchedDescription; problem: string };

/** `1a2b3c4:specs/api.yaml`, `specs/api.yaml (working tree)`: a description as the report names it. */
export const nameIn = (snapshot: Snapshot, file: string): string => (snapshot.label === 'working tree' ? `${file} (working tree)` : `${snapshot.label}:${file}`);

/** Compares each description as it is in `before` with how it is in `after`. */
export async function compareSnapshots(before: Snapshot, after: Snapshot, descriptions: readonly WatchedDescription[], settings: CompareSettings): Promise<DescriptionChange[]> {
  const results: DescriptionChange[] = [];
  for (const description of descriptions) {
    const oldPath = path.join(before.dir, description.path);
    const newPath = path.join(after.dir, description.path);
    const newName = nameIn(after, description.path);
    if (!existsSync(newPath)) {
      results.push({ description, problem: `${newName}: the served description is gone` });
      continue;
    }
    // a description new to the history is compared with itself: it is read, and a broken one is said
    const base = existsSync(oldPath) ? oldPath : newPath;
    try {
      // $refs may reach anything of the snapshots (the build that served read it from the working tree), not only the description's folder
      const allowRefs = [...(settings.allowRefs ?? []), before.dir, after.dir];
      const { kind, changes } = await compareDescriptions(base, newPath, { severities: settings.severities, allowRefs });
      results.push({ description, report: { oldSpec: base === oldPath ? nameIn(before, description.path) : '(none)', newSpec: newName, kind, changes } });
    } catch (e) {
      // the temporary folders are nobody's business: name the commit and the file instead
      const message = (isMockError(e) ? e.message : (e as Error).message).split('\n')[0];
      const shown = message
        .replaceAll(`${after.dir}${path.sep}`, after.label === 'working tree' ? '' : `${after.label}:`)
        .replaceAll(`${before.dir}${path.sep}`, before.label === 'working tree' ? '' : `${before.label}:`);
      results.push({ description, problem: shown.includes(newName) ? shown : `${newName}: ${shown}` });
    }
  }
  return results;
}

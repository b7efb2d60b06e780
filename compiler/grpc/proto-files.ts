import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside, realPathOf } from '../../common/confinement.js';
import { MockError } from '../../common/errors.js';

// Light on purpose, like fingerprint.ts: `mock serve` lists the .proto files (to name the build
// and to hash them) without loading protobufjs.

/** Where a build writes what the gRPC server reads (common/grpc/build-output.ts). */
export const GRPC_BUILD_FILE = 'grpc.json';

/** One .proto file of grpc.proto_dir. */
export interface ProtoFile {
  /** Its path from the proto folder, with `/`: the name imports use and reflection serves. */
  importPath: string;
  /** Absolute path. */
  file: string;
}

export interface ProtoFileOptions {
  /** grpc.proto_dir (--proto-dir, MOCK_GRPC_PROTO_DIR), relative to `cwd` or absolute; absent: no gRPC in this build. */
  protoDir?: string;
  /** The project folder. */
  cwd: string;
  /** Folder holding the builds: never read. */
  outDir: string;
  /** --allow-ref: folders outside the project a linked file may lead to. */
  allowRefs?: readonly string[];
}

/**
 * Every `.proto` file under the proto folder, recursively, sorted by import path; node_modules,
 * dot-folders and the builds' folder are skipped. A file or folder reached through a symbolic link
 * must really lie in the proto folder, the project or an --allow-ref folder (as a description's
 * external $refs). Throws one line when the folder is missing or holds no .proto file.
 */
export function protoFiles(options: ProtoFileOptions): ProtoFile[] {
  if (options.protoDir === undefined) return [];
  const { cwd } = options;
  const root = path.resolve(cwd, options.protoDir);
  const shown = options.protoDir.split(path.sep).join('/');
  const stat = statSync(root, { throwIfNoEntry: false });
  if (stat === undefined) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `gRPC proto folder not found: ${shown} (checked ${root}); create it with your .proto files, or point grpc.proto_dir (--proto-dir) at them`);
  if (!stat.isDirectory()) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `gRPC proto folder ${shown} is a file: grpc.proto_dir (--proto-dir) names the folder holding the .proto files`);
  const outDir = path.resolve(cwd, options.outDir);
  const allowed = [root, cwd, ...(options.allowRefs ?? []).filter((a) => !/^https?:\/\//i.test(a))].map((folder) => realPathOf(path.resolve(folder)));
  const files: ProtoFile[] = [];
  const visited = new Set<string>();
  const walk = (dir: string): void => {
    const real = realPathOf(dir);
    if (visited.has(real)) return; // a link back up the tree
    visited.add(real);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (isInside(full, outDir) && full !== root) continue;
      const entryStat = entry.isSymbolicLink() ? statSync(full, { throwIfNoEntry: false }) : entry;
      if (entryStat === undefined) continue; // a dangling link
      const isDir = entryStat.isDirectory();
      if (!isDir && !(entryStat.isFile() && entry.name.endsWith('.proto'))) continue;
      if (entry.isSymbolicLink()) {
        const target = realPathOf(full);
        if (!allowed.some((folder) => isInside(target, folder))) {
          throw new MockError(
            'MOCK_ERR_GRPC_PROTO_REFUSED',
            `${shownPath(full, cwd)} leads to ${target}, outside the proto folder and the project ${cwd}: pass --allow-ref ${path.dirname(target)} to allow it, or copy the file in`,
          );
        }
      }
      if (isDir) walk(full);
      else files.push({ importPath: path.relative(root, full).split(path.sep).join('/'), file: full });
    }
  };
  walk(root);
  if (files.length === 0) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `gRPC proto folder ${shown} holds no .proto file (searched ${root} and its subfolders); add your .proto files, or point grpc.proto_dir (--proto-dir) at them`);
  return files.sort((a, b) => (a.importPath < b.importPath ? -1 : a.importPath > b.importPath ? 1 : 0));
}

/** The project-relative name a message gives a file, with `/`. */
export const shownPath = (file: string, cwd: string): string => {
  const relative = path.relative(cwd, file);
  return (relative.startsWith('..') || path.isAbsolute(relative) ? file : relative).split(path.sep).join('/');
};

import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions, BuildResult, CheckResult } from './options.js';
import { isBuildFileName } from '../common/build-files.js';
import { MockError } from '../common/errors.js';
import { whileWriting } from './build-lock.js';

/** `mock build`: writes the files that changed, atomically, and removes files an older build left behind. */
export async function build(options: BuildOptions): Promise<BuildResult & { warnings: string[] }> {
  if (options.specs.length === 0 && (options.graphqlSchemas ?? []).length === 0 && options.protoDir === undefined) {
    throw new MockError(
      'MOCK_ERR_NO_SPEC',
      'nothing to build: pass --spec <file|url> (an API description), --graphql-schema <path> (a GraphQL schema) or --proto-dir <dir> (.proto files), or list specs: or graphql.schema in mock.yaml',
    );
  }
  const compiled = await compileLazily(options);
  const { dir } = compiled;
  options.progress?.('writing files');
  const { written, unchanged } = await whileWriting(dir, () => writeBuild(dir, compiled.files));
  return { name: compiled.name, dir, written, unchanged, warnings: compiled.warnings };
}

/** Writes the files that changed (each whole: a temporary file renamed), the manifest last, and removes what the previous build had and this one has not. */
function writeBuild(dir: string, files: ReadonlyMap<string, string>): { written: string[]; unchanged: string[] } {
  const previous = claimFolder(dir);
  const written: string[] = [];
  const unchanged: string[] = [];
  for (const [file, content] of [...files].sort(([a], [b]) => (a === 'manifest.json' ? 1 : b === 'manifest.json' ? -1 : a.localeCompare(b)))) {
    const target = path.join(dir, file);
    if (file.includes('/')) realFolders(dir, file, true);
    if (existsSync(target) && readFileSync(target, 'utf8') === content) {
      unchanged.push(file);
      continue;
    }
    const temp = `${target}.${process.pid}.tmp`;
    // never write through a file (or a link) left or planted under the temporary name
    rmSync(temp, { force: true });
    writeFileSync(temp, content, { flag: 'wx' });
    renameSync(temp, target);
    written.push(file);
  }
  const left = previous.filter((file) => !files.has(file));
  for (const file of left) {
    // a file in a subfolder only through real folders: never through a link planted in the build
    if (file.includes('/') && !realFolders(dir, file, false)) continue;
    rmSync(path.join(dir, file), { force: true });
  }
  removeEmptyFolders(dir, left);
  return { written, unchanged };
}

/** `mock build --check`: a fresh build in memory compared byte for byte with the files on disk. */
export async function checkBuild(options: BuildOptions): Promise<CheckResult> {
  const compiled = await compileLazily(options);
  const { dir } = compiled;
  const stale = [...compiled.files.keys()].sort().filter((file) => {
    const target = path.join(dir, file);
    return !existsSync(target) || readFileSync(target, 'utf8') !== compiled.files.get(file);
  });
  return { name: compiled.name, dir, stale };
}

/**
 * Makes sure `dir` may be written, and returns the files of the build it holds. A build replaces
 * files only in a folder that is absent, empty, or holds a previous build (its manifest.json):
 * anything else may be someone's project, which a build name or out_dir in a planted mock.yaml
 * could otherwise overwrite. Only the names of that manifest that a build writes are ever removed
 * (plain file names, and relative paths in the grpc/ subfolder: see isBuildFileName).
 */
function claimFolder(dir: string): string[] {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined) {
    mkdirSync(dir, { recursive: true });
    return [];
  }
  if (!stat.isDirectory()) throw foreign(dir, 'is a file, not a folder');
  if (readdirSync(dir).length === 0) return [];
  const files = previousBuildFiles(dir);
  if (files === undefined) throw foreign(dir, 'holds files but no manifest.json of a mock build');
  return files;
}

function previousBuildFiles(dir: string): string[] | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { tool?: unknown; files?: Record<string, string> };
    if (manifest.tool !== 'mock') return undefined;
    return [...Object.keys(manifest.files ?? {}).filter(isBuildFileName), 'manifest.json'];
  } catch {
    return undefined;
  }
}

/**
 * Whether the folders between `dir` and `file` (a relative path) are real folders, not links nor
 * files; `create` makes the missing ones, and throws for a link or a file in the way.
 */
function realFolders(dir: string, file: string, create: boolean): boolean {
  const segments = file.split('/').slice(0, -1);
  let folder = dir;
  for (const segment of segments) {
    folder = path.join(folder, segment);
    const stat = lstatSync(folder, { throwIfNoEntry: false });
    if (stat === undefined) {
      if (!create) return false;
      mkdirSync(folder);
      continue;
    }
    if (stat.isDirectory()) continue;
    if (!create) return false;
    throw foreign(folder, stat.isSymbolicLink() ? 'is a link, not a folder' : 'is a file, not a folder');
  }
  return true;
}

/** The subfolders of the removed files that are now empty, deepest first (never a link, never the build folder). */
function removeEmptyFolders(dir: string, removed: readonly string[]): void {
  const folders = new Set<string>();
  for (const file of removed) {
    const segments = file.split('/');
    for (let i = segments.length - 1; i >= 1; i--) folders.add(segments.slice(0, i).join('/'));
  }
  for (const folder of [...folders].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1))) {
    if (!realFolders(dir, `${folder}/x`, false)) continue;
    const absolute = path.join(dir, folder);
    if (readdirSync(absolute).length === 0) rmdirSync(absolute);
  }
}

const foreign = (dir: string, what: string): MockError =>
  new MockError('MOCK_ERR_BUILD_FOLDER_FOREIGN', `${dir} ${what}: a build replaces only an earlier build; pick another --out or --name, or empty the folder`);

/** The emitters pull in Ajv, ts-morph and json-schema-to-typescript: load them only when building. */
async function compileLazily(options: BuildOptions) {
  const { compile } = await import('./compile.js');
  return compile(options);
}

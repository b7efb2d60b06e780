import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockError } from '../../../common/errors.js';
import { git, readBlobs } from './git.js';

/** The files a description can be made of: OpenAPI (and the files its $refs reach), GraphQL and .proto. */
const EXTENSIONS = new Set(['.yaml', '.yml', '.json', '.graphql', '.gql', '.graphqls', '.proto']);

/** Bounds what one snapshot copies, so that a description folder at the top of a large repository cannot fill the disk or the memory. */
const MAX_FILES = 5000;
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * The description files under the watched paths as they are at one commit or in the working tree,
 * copied into a private temporary folder (the compare reads files; $refs between them resolve as
 * in the project) with each file's hash, to tell whether anything changed.
 */
export interface Snapshot {
  /** `HEAD 1a2b3c4`, `working tree`: where it came from, for the report. */
  readonly label: string;
  readonly dir: string;
  /** Path relative to the top of the working tree → sha256 of its bytes. */
  readonly hashes: ReadonlyMap<string, string>;
  dispose(): void;
}

/** Files and folders relative to the top of the working tree: what is read, and folders under it never read (the build's own output). */
export interface Scope {
  paths: readonly string[];
  ignored: readonly string[];
}

/** Whether a path relative to the top lies in one of `folders` (`.` is the whole tree). */
export const isUnder = (file: string, folders: readonly string[]): boolean => folders.some((p) => p === '.' || file === p || file.startsWith(`${p}/`));

export async function snapshotOfCommit(top: string, commit: string, scope: Scope, label: string): Promise<Snapshot> {
  const listing = (await git(['ls-tree', '-r', '-l', '-z', '--full-tree', commit, '--', ...scope.paths], { cwd: top })).toString('utf8');
  const files: Array<{ blob: string; file: string }> = [];
  let bytes = 0;
  for (const entry of listing.split('\0')) {
    // <mode> blob <sha> <size>\t<path>; submodules (commit) and symbolic links (120000) are not descriptions
    const match = /^100\d{3} blob ([0-9a-f]+) +(\d+)\t(.*)$/s.exec(entry);
    if (match === null || !EXTENSIONS.has(path.extname(match[3]).toLowerCase()) || isUnder(match[3], scope.ignored)) continue;
    bytes += Number(match[2]);
    files.push({ blob: match[1], file: match[3] });
    checkBounds(files.length, bytes, label);
  }
  const contents = await readBlobs(
    files.map((file) => file.blob),
    top,
    bytes,
  );
  return fill(
    label,
    files.map((file, index) => ({ file: file.file, bytes: contents[index] })),
    async (file) => file.bytes,
  );
}

/** The same files as they are on disk now (saved, not necessarily committed). */
export async function snapshotOfWorkingTree(top: string, scope: Scope): Promise<Snapshot> {
  const files: Array<{ file: string }> = [];
  let bytes = 0;
  const visit = (relative: string, depth: number): void => {
    const stat = statSync(path.join(top, relative), { throwIfNoEntry: false });
    if (stat === undefined || depth > 32 || (relative !== '' && isUnder(relative, scope.ignored))) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path.join(top, relative))) {
        if (name.startsWith('.') || name === 'node_modules') continue;
        visit(path.posix.join(relative, name), depth + 1);
      }
    } else if (stat.isFile() && EXTENSIONS.has(path.extname(relative).toLowerCase()) && !files.some((f) => f.file === relative)) {
      bytes += stat.size;
      files.push({ file: relative });
      checkBounds(files.length, bytes, 'the working tree');
    }
  };
  for (const entry of scope.paths) visit(entry === '.' ? '' : entry, 0);
  return fill('working tree', files, async (file) => readFileSync(path.join(top, file.file)));
}

/** What a repository without a commit serves from git: nothing. */
export const emptySnapshot = (): Promise<Snapshot> => fill('(no commit)', [], () => Promise.resolve(Buffer.alloc(0)));

async function fill<F extends { file: string }>(label: string, files: readonly F[], read: (file: F) => Promise<Buffer>): Promise<Snapshot> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mock-git-watch-'));
  const hashes = new Map<string, string>();
  const dispose = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    for (const file of files) {
      const bytes = await read(file);
      const target = path.join(dir, file.file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, bytes);
      hashes.set(file.file, createHash('sha256').update(bytes).digest('hex'));
    }
  } catch (e) {
    dispose();
    throw e;
  }
  return { label, dir, hashes, dispose };
}

function checkBounds(count: number, bytes: number, where: string): void {
  if (count > MAX_FILES || bytes > MAX_BYTES) {
    throw new MockError(
      'MOCK_ERR_GIT',
      `${where}: the folders of the served descriptions hold more than ${MAX_FILES} description files or ${MAX_BYTES / 1024 / 1024} MB: keep the descriptions in their own folder`,
      2,
    );
  }
}

/** Whether two snapshots hold the same files under `paths` (a file or a folder, relative to the top). */
export function sameUnder(a: Snapshot, b: Snapshot, paths: readonly string[]): boolean {
  const pick = (s: Snapshot): string[] =>
    [...s.hashes]
      .filter(([file]) => isUnder(file, paths))
      .map(([file, hash]) => `${file}\0${hash}`)
      .sort();
  return pick(a).join('\n') === pick(b).join('\n');
}

